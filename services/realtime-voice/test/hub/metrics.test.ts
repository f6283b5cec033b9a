import { SOCKET_MODES } from '@switchboard/contracts'
import type { ServiceApp } from '@switchboard/platform'
import { waitFor } from '@switchboard/testing'
import t from 'tap'
import { agent, customer, hubFixture, service } from '../helpers/hub.ts'
import { open } from '../helpers/socket.ts'

/** `realtime_hub_sockets` by kind, as Prometheus would scrape it from one replica. */
async function socketGauge(app: ServiceApp): Promise<Record<string, number>> {
  const res = await app.inject({ method: 'GET', url: '/metrics' })
  const out: Record<string, number> = {}
  for (const m of res.body.matchAll(/^realtime_hub_sockets\{[^}]*kind="([a-z]+)"[^}]*\} (\d+)$/gm)) {
    out[m[1]!] = Number(m[2])
  }
  return out
}

const kinds = (over: Partial<Record<string, number>> = {}) =>
  Object.fromEntries(SOCKET_MODES.map((k) => [k, over[k] ?? 0]))

/** Resolves once the replica's gauge reads `want` (a close reaches the hub a moment after the client's). */
const gaugeReads = (app: ServiceApp, want: Record<string, number>) =>
  waitFor(async () => {
    const now = await socketGauge(app)
    return JSON.stringify(now) === JSON.stringify(want) ? now : undefined
  })

// Sockets are the replica's own memory, whatever the storage: one mode, two replicas.
t.test("the hub's sockets on /metrics, per replica and kind", async (t) => {
  const fx = await hubFixture(t, 'sqlite', { replicas: 2 })
  const [one, two] = fx.hubs as [(typeof fx.hubs)[0], (typeof fx.hubs)[0]]
  t.same(await socketGauge(one.app), kinds(), 'every kind shown at 0 before any socket')

  const visitor = await open(t, one.url)
  const desk = await open(t, one.url, { principal: agent() })
  await open(t, one.url, { principal: service() })
  await open(t, two.url, { principal: customer('cust-1') })
  await open(t, two.url, { principal: customer('cust-2') })
  await visitor.sync()
  await desk.sync()

  t.same(
    await gaugeReads(one.app, kinds({ visitor: 1, console: 1, service: 1 })),
    kinds({ visitor: 1, console: 1, service: 1 }),
  )
  t.same(await gaugeReads(two.app, kinds({ customer: 2 })), kinds({ customer: 2 }), 'each replica counts only its own')
  const noScope = { tenant_id: '', workspace_id: '' }
  t.same(await socketGauge(one.app), one.svc.hub.counts(noScope).by_kind, 'equal to what /api/v1/ws/stats counts')

  desk.ws.close()
  await desk.closed
  visitor.ws.terminate()
  t.same(await gaugeReads(one.app, kinds({ service: 1 })), kinds({ service: 1 }), 'a close and a drop both count down')
  t.same(await socketGauge(two.app), kinds({ customer: 2 }), 'the other replica unmoved')
})
