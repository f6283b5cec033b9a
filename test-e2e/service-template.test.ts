// The service template itself, tested: a throw-away service made only from `defineService` (one route, one event,
// one consumer, one worker — test-e2e/fixtures/probe-service) runs beside the fleet in both modes, behind the
// gateway, with its health, metrics, OpenAPI document, audit trail, events, consumer and worker all working.
import { join } from 'node:path'
import { mintServiceToken, REPO_ROOT, type RunnableUnit } from '@switchboard/cli'
import { login } from './harness/auth.ts'
import { client, until } from './harness/http.ts'
import { inEachMode } from './harness/modes.ts'

const probe: RunnableUnit = {
  name: 'probe',
  port: 8199,
  dir: join(REPO_ROOT, 'test-e2e/fixtures/probe-service'),
  prefixes: ['/api/probe'],
}

inEachMode(
  'service template',
  { extraUnits: [probe], env: { GATEWAY_EXTRA_ROUTES: '/api/probe=probe', PROBE_SWEEP_MS: '200' } },
  async (t, system) => {
    const api = client(system.url)
    const admin = await login(api, system.admin.username, system.admin.password)
    const scope = { 'x-tenant-id': system.tenant_id, 'x-workspace-id': system.workspace_id }
    const probeUrl = system.serviceUrls.probe![0]!

    t.test('its own /health, /ready and /metrics answer', async (t) => {
      const direct = client(probeUrl)
      t.equal((await direct.get('/health')).status, 200)
      const ready = await direct.get('/ready')
      t.equal(ready.status, 200, ready.text)
      t.same(ready.body.checks, { database: 'ok', cache: 'ok', bus: 'ok' })
      t.equal((await direct.get('/api/probe/pings/x')).status, 401, 'its routes need the gateway principal')
    })

    t.test('its route through the gateway, its event through the consumer, its worker after it', async (t) => {
      const created = await api.post('/api/probe/pings', { message: 'hello' }, { token: admin.token, headers: scope })
      t.equal(created.status, 201, created.text)
      t.equal(created.body.tenant_id, system.tenant_id)
      const done = await until('the consumer and the worker', async () => {
        const r = await api.get(`/api/probe/pings/${created.body.id}`, { token: admin.token, headers: scope })
        return r.body.consumed_at && r.body.swept_at ? r.body : undefined
      })
      t.ok(done.consumed_at, 'the consumer applied the event')
      t.ok(done.swept_at, 'the worker swept it afterwards')
      const { token: elsewhere } = await mintServiceToken({ service: 'e2e', permissions: ['*'], env: system.env })
      const other = await api.get(`/api/probe/pings/${created.body.id}`, {
        token: elsewhere,
        headers: { 'x-tenant-id': 'elsewhere', 'x-workspace-id': 'main' },
      })
      t.equal(other.status, 404, `its records are scoped (${other.status} ${other.text})`)

      const metrics = (await client(probeUrl).get('/metrics')).text
      t.match(metrics, /worker_runs_total\{worker="probe-sweeper",outcome="ok",service="probe"\} [1-9]/)
      t.match(metrics, /http_request_duration_seconds_count\{[^}]*route="\/api\/probe\/pings",status="201"\} 1/)
    })

    t.test('its writes are audited and its routes are in the gateway document', async (t) => {
      const bad = await api.post('/api/probe/pings', { message: '' }, { token: admin.token, headers: scope })
      t.equal(bad.status, 400)
      const logs = await until('the audit records of the probe', async () => {
        const r = await api.get('/api/audit/logs?resource=probe', { token: admin.token, headers: scope })
        return r.body.total >= 2 ? r.body : undefined
      })
      t.ok(
        logs.data.some((l: any) => l.action === 'probe.pings' && l.success === true),
        'success audited',
      )
      t.ok(
        logs.data.some((l: any) => l.action === 'probe.pings' && l.success === false && l.status_code === 400),
        'refusal audited',
      )
      const doc = await api.get('/openapi.json')
      t.ok(doc.body.paths['/api/probe/pings'], 'the gateway merges its generated document')
    })
  },
)
