import type { ServiceApp } from '@switchboard/platform'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { as, conversationsApp, principal } from '../helpers/app.ts'
import { seedAgents, seedSession } from '../helpers/queue.ts'

/** `conversations_waiting_sessions` as Prometheus would scrape it from this replica, or undefined. */
async function waitingGauge(app: ServiceApp): Promise<number | undefined> {
  const res = await app.inject({ method: 'GET', url: '/metrics' })
  const line = res.body.split('\n').find((l) => l.startsWith('conversations_waiting_sessions{'))
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1))
}

inEachStorageMode(t, 'the waiting queue on /metrics', async (t, mode) => {
  // the timer pass often (it sets the gauge); no agent yet, so whoever asks for a human waits
  const { app, svc } = await conversationsApp(t, mode, { env: { QUEUE_INTERVAL_MS: '100' } })
  const first = await app.inject({ method: 'GET', url: '/metrics' })
  t.match(first.body, /# TYPE conversations_waiting_sessions gauge/, 'registered on the service registry')
  t.match(first.body, /conversations_waiting_sessions\{service="conversations"\} 0\n/, 'no tenant label')

  for (const other of [{}, { tenant_id: 'globex', workspace_id: 'support' }]) {
    const s = await seedSession(svc, other)
    const res = await app.inject({
      method: 'POST',
      url: '/api/session-transfer/to-human',
      headers: await as(principal(other)),
      payload: { session_id: s.id },
    })
    t.match(res.json(), { is_waiting: true }, 'queued')
  }
  t.equal(await waitFor(async () => ((await waitingGauge(app)) === 2 ? 2 : undefined)), 2, 'both scopes counted')

  // an agent of acme comes online: a pass hands acme's session over, globex's still waits
  await seedAgents(svc, [{ user_id: 'ann' }])
  t.equal(await waitFor(async () => ((await waitingGauge(app)) === 1 ? 1 : undefined)), 1, 'one left the queue')
})
