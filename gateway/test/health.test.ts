import t from 'tap'
import { accessToken, bearer, harness, redisCache, seedUser } from './fixtures/gateway.ts'
import { deadUrl } from './fixtures/upstream.ts'

t.test('/health, /ready, /metrics', async (t) => {
  const cache = redisCache()
  t.teardown(() => cache.close())
  const h = await harness(t, { cache })
  t.same((await h.app.inject({ method: 'GET', url: '/health' })).json(), { status: 'ok' })
  const ready = await h.app.inject({ method: 'GET', url: '/ready' })
  t.equal(ready.statusCode, 200, ready.body)
  t.match(ready.json().checks, {
    cache: 'ok',
    bus: 'ok',
    token_state: 'ok',
    'upstream:identity': 'ok',
    'upstream:tickets': 'ok',
  })

  await h.app.inject({ method: 'GET', url: '/api/tickets', headers: bearer(await accessToken(seedUser(h))) })
  await h.app.inject({ method: 'GET', url: '/public/kb/x' })
  const metrics = await h.app.inject({ method: 'GET', url: '/metrics' })
  t.equal(metrics.statusCode, 200)
  t.match(metrics.headers['content-type'], /text\/plain/)
  for (const name of [
    'http_request_duration_seconds_bucket{',
    'route="management"',
    'route="anonymous"',
    'gateway_token_state_fetch_total{',
    'service="gateway"',
  ]) {
    t.ok(metrics.body.includes(name), name)
  }
  t.notOk(metrics.body.includes('route="/api/tickets"'), 'no raw URLs as labels')
})

t.test('/ready fails when an upstream or the cache is down, and while closing', async (t) => {
  const dead = await deadUrl()
  const h = await harness(t, { env: { UPSTREAM_AUDIT: dead, READY_TIMEOUT_MS: '300' } })
  const ready = await h.app.inject({ method: 'GET', url: '/ready' })
  t.equal(ready.statusCode, 503)
  t.equal(ready.json().checks['upstream:audit'], 'failed')
  t.equal(ready.json().checks['upstream:tickets'], 'ok')

  const broken = redisCache()
  await broken.close()
  const h2 = await harness(t, { upstream: h.upstream, cache: broken })
  const r2 = await h2.app.inject({ method: 'GET', url: '/ready' })
  t.equal(r2.statusCode, 503)
  t.equal(r2.json().checks.cache, 'failed')
  const token = await accessToken(seedUser(h2))
  const degraded = await h2.app.inject({ method: 'GET', url: '/api/tickets', headers: bearer(token) })
  t.equal(degraded.statusCode, 200, 'a cache outage degrades to identity look-ups, not to refusals')

  const h3 = await harness(t, { upstream: h.upstream })
  const url = await h3.app.listen({ port: 0, host: '127.0.0.1' })
  t.equal((await fetch(`${url}/ready`)).status, 200)
  const closing = h3.app.close()
  const during = await fetch(`${url}/ready`)
    .then((r) => r.status)
    .catch(() => 503)
  t.equal(during, 503, 'stopping → 503 (or refused)')
  await closing
})
