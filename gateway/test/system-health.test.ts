// GET /api/system/health: every upstream unit's replicas asked for /ready, for the admin console's health page;
// admin (or a service holding *) only, like the dead-letter routes beside it.
import t from 'tap'
import { accessToken, bearer, harness, seedUser } from './fixtures/gateway.ts'
import { deadUrl } from './fixtures/upstream.ts'

t.test('each unit with its replicas ready; a dead replica counted, a dead unit unready', async (t) => {
  const dead = await deadUrl()
  const h = await harness(t, { env: { READY_TIMEOUT_MS: '300' } })
  const upstream = h.upstream.url
  const h2 = await harness(t, {
    upstream: h.upstream,
    env: { UPSTREAM_TICKETS: `${upstream},${dead}`, UPSTREAM_AUDIT: dead, READY_TIMEOUT_MS: '300' },
  })
  const admin = await accessToken(
    seedUser(h2, { claims: { roles: ['admin'], tenant_id: '', workspace_id: '', admin_reach: 'platform' } }),
  )
  const res = await h2.app.inject({ method: 'GET', url: '/api/system/health', headers: bearer(admin) })
  t.equal(res.statusCode, 200, res.body)
  const body = res.json()
  t.equal(body.status, 'degraded', 'a unit without a ready replica degrades the whole')
  t.ok(Date.parse(body.checked_at) > 0, 'checked_at')
  const byUnit = Object.fromEntries(body.units.map((u: any) => [u.unit, u]))
  t.match(byUnit.tickets, { unit: 'tickets', status: 'ready', replicas: 2, replicas_ready: 1 }, 'one of two replicas')
  t.same(
    byUnit.tickets.instances.map((r: any) => [r.replica, r.ready]),
    [
      [1, true],
      [2, false],
    ],
    'each replica with its answer',
  )
  t.match(byUnit.audit, { unit: 'audit', status: 'unready', replicas: 1, replicas_ready: 0 }, 'the dead unit')
  t.match(byUnit.identity, { unit: 'identity', status: 'ready', replicas: 1, replicas_ready: 1 })
  t.same(
    Object.keys(byUnit).sort(),
    ['ai-orchestrator', 'audit', 'conversations', 'identity', 'statistics', 'tickets'],
    'every configured unit, once',
  )

  const healthy = await h.app.inject({ method: 'GET', url: '/api/system/health', headers: bearer(admin) })
  t.equal(healthy.json().status, 'ready', 'all units ready')
})

t.test('admin only: an agent is refused, anonymous is 401', async (t) => {
  const h = await harness(t)
  const agent = await accessToken(seedUser(h))
  const refused = await h.app.inject({ method: 'GET', url: '/api/system/health', headers: bearer(agent) })
  t.equal(refused.statusCode, 403, refused.body)
  t.match(refused.json(), { code: String, message: String })
  const anonymous = await h.app.inject({ method: 'GET', url: '/api/system/health' })
  t.equal(anonymous.statusCode, 401)
})
