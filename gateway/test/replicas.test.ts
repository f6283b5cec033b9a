import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { IdentityEvents } from '@switchboard/contracts'
import { createMemoryBus, newEnvelope } from '@switchboard/events'
import { type Cache, createCache } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import t from 'tap'
import { accessToken, bearer, type Harness, harness, logger, redisCache, seedUser } from './fixtures/gateway.ts'
import { startUpstream } from './fixtures/upstream.ts'

const envelope = (type: string, data: unknown) =>
  newEnvelope({ type, tenant_id: '', workspace_id: '', actor: { user_id: 'system', kind: 'service' }, data })

const get = async (h: Harness, token: string) =>
  (await h.app.inject({ method: 'GET', url: '/api/tickets', headers: bearer(token) })).statusCode

async function until(fn: () => Promise<number>, expected: number, ms = 1000) {
  const end = Date.now() + ms
  let last = await fn()
  while (last !== expected && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 10))
    last = await fn()
  }
  return last
}

function sharedCaches(kind: 'memory' | 'redis'): [Cache, Cache] {
  if (kind === 'memory') {
    const one = createCache({ driver: 'memory', prefix: 'sb:' })
    return [one, one]
  }
  const prefix = `${uniqueId('gwrep')}:`
  return [redisCache(prefix), redisCache(prefix)]
}

for (const kind of ['redis', 'memory'] as const) {
  t.test(`two gateway replicas sharing the ${kind} cache`, async (t) => {
    const upstream = await startUpstream()
    t.teardown(() => upstream.close())
    const [ca, cb] = sharedCaches(kind)
    t.teardown(async () => {
      await ca.close()
      if (cb !== ca) await cb.close()
    })
    // Separate buses: the only path from A to B is the shared cache.
    const busA = createMemoryBus({ logger })
    const busB = createMemoryBus({ logger })
    t.teardown(async () => Promise.all([busA.close(), busB.close()]))
    const env = { TOKEN_STATE_LOCAL_TTL_MS: '200' }
    const a = await harness(t, { upstream, cache: ca, bus: busA, env })
    const b = await harness(t, { upstream, cache: cb, bus: busB, env })

    const claims = seedUser(a)
    const token = await accessToken(claims)
    t.equal(await get(a, token), 200)
    const fetches = upstream.identity.calls.state
    t.equal(await get(b, token), 200, 'B accepts from the shared level')
    t.equal(upstream.identity.calls.state, fetches, 'B did not ask identity: A had filled the shared cache')

    await busA.publish(
      IdentityEvents.userTokenState.type,
      envelope(IdentityEvents.userTokenState.type, {
        user: { user_id: claims.user_id, active: false, token_version: 1, token_valid_after: null, seq: 2 },
        reason: 'deactivated',
      }),
    )
    t.equal(await until(() => get(a, token), 401), 401, 'A applied the event')
    t.equal(await until(() => get(b, token), 401), 401, 'B sees it through the shared cache (after its local TTL)')

    const other = seedUser(a)
    const second = await accessToken(other)
    t.equal(await get(b, second), 200)
    await busA.publish(
      IdentityEvents.sessionTokenState.type,
      envelope(IdentityEvents.sessionTokenState.type, {
        session: { session_id: other.session_id, user_id: other.user_id, active: false, token_version: 1 },
        reason: 'revoked',
      }),
    )
    t.equal(await until(() => get(b, second), 401), 401, 'session revoke on A reaches B')
  })
}

t.test('replicas on one bus: a revocation takes effect everywhere within 100 ms', async (t) => {
  const prefix = `${uniqueId('gwbus')}:`
  const [ca, cb] = [redisCache(prefix), redisCache(prefix)]
  t.teardown(async () => Promise.all([ca.close(), cb.close()]))
  const bus = createMemoryBus({ logger })
  t.teardown(() => bus.close())
  const a = await harness(t, { cache: ca, bus })
  const b = await harness(t, { upstream: a.upstream, cache: cb, bus })
  const claims = seedUser(a)
  const token = await accessToken(claims)
  t.equal(await get(a, token), 200)
  t.equal(await get(b, token), 200)
  const started = Date.now()
  await bus.publish(
    IdentityEvents.userTokenState.type,
    envelope(IdentityEvents.userTokenState.type, {
      user: { user_id: claims.user_id, active: true, token_version: 2, token_valid_after: null, seq: 9 },
      reason: 'revoke-tokens',
    }),
  )
  t.equal(await until(() => get(a, token), 401, 100), 401)
  t.equal(await until(() => get(b, token), 401, 100), 401)
  t.ok(Date.now() - started <= 150, `both refused after ${Date.now() - started} ms`)
})

t.test('rate limits are shared between replicas through Redis', async (t) => {
  const prefix = `${uniqueId('gwrl')}:`
  const [ca, cb] = [redisCache(prefix), redisCache(prefix)]
  t.teardown(async () => Promise.all([ca.close(), cb.close()]))
  const limits = JSON.stringify({
    enabled: true,
    global: { requests_per_minute: 1000, burst: 1000 },
    prefixes: [{ prefix: '/public/csat/', requests_per_minute: 4, burst: 100 }],
    header_keys: [],
  })
  const a = await harness(t, { cache: ca, env: { RATE_LIMITS_JSON: limits } })
  const b = await harness(t, { upstream: a.upstream, cache: cb, env: { RATE_LIMITS_JSON: limits } })
  const codes = []
  for (const h of [a, b, a, b, a, b])
    codes.push((await h.app.inject({ method: 'GET', url: '/public/csat/x' })).statusCode)
  t.same(codes, [200, 200, 200, 200, 429, 429], 'one budget across both')
})

t.test('with the JetStream bus (NATS), events fan out to every replica', async (t) => {
  const prefix = uniqueId('gwnats')
  const natsUrl = engineUrls().natsUrl
  t.teardown(async () => {
    const nc = await connect({ servers: natsUrl })
    const jsm = await jetstreamManager(nc)
    for await (const name of jsm.streams.names()) {
      if (name.startsWith(`${prefix.toUpperCase()}_`)) await jsm.streams.delete(name)
    }
    await nc.close()
  })
  const [ca, cb] = [redisCache(`${prefix}:`), redisCache(`${prefix}:`)]
  t.teardown(async () => Promise.all([ca.close(), cb.close()]))
  const env = { BUS_DRIVER: 'nats', NATS_URL: natsUrl, NATS_PREFIX: prefix }
  const upstream = await startUpstream()
  t.teardown(() => upstream.close())
  const { build } = await import('../src/build.ts')
  const { testConfig } = await import('./fixtures/gateway.ts')
  const a = await build(testConfig(upstream.url, env), { logger, cache: ca })
  const b = await build(testConfig(upstream.url, env), { logger, cache: cb })
  t.teardown(async () => Promise.all([a.close(), b.close()]))
  await Promise.all([a.ready(), b.ready()])
  await Promise.all([a.whenStarted(), b.whenStarted()])
  const ha = { app: a } as Harness
  const hb = { app: b } as Harness
  const claims = seedUser({ upstream })
  const token = await accessToken(claims)
  t.equal(await get(ha, token), 200)
  t.equal(await get(hb, token), 200)
  const { createJetStreamBus } = await import('@switchboard/events')
  const publisher = await createJetStreamBus({ url: natsUrl, prefix, logger })
  t.teardown(() => publisher.close())
  await publisher.publish(
    IdentityEvents.sessionTokenState.type,
    envelope(IdentityEvents.sessionTokenState.type, {
      session: { session_id: claims.session_id, user_id: claims.user_id, active: false, token_version: 1 },
      reason: 'revoked',
    }),
  )
  t.equal(await until(() => get(ha, token), 401, 2000), 401, 'replica A')
  t.equal(await until(() => get(hb, token), 401, 2000), 401, 'replica B')
})

t.test('a dead upstream replica: requests go to the live one, it is ejected, and probed back in', async (t) => {
  const live = await startUpstream()
  const dying = await startUpstream()
  t.teardown(() => live.close())
  const port = new URL(dying.url).port
  const h = await harness(t, {
    upstream: live,
    env: { UPSTREAM_TICKETS: `${live.url},${dying.url}`, UPSTREAM_EJECT_MS: '200' },
  })
  const token = await accessToken(seedUser(h))
  const hit = () => h.app.inject({ method: 'POST', url: '/api/tickets', headers: bearer(token), payload: { a: 1 } })
  t.same(await Promise.all(Array.from({ length: 4 }, async () => (await hit()).statusCode)), [200, 200, 200, 200])
  t.ok(dying.requests.length > 0, 'both replicas served while both were up')
  await dying.close()
  const codes: number[] = []
  for (let i = 0; i < 40; i++) codes.push((await hit()).statusCode)
  t.same([...new Set(codes)], [200], 'no request failed: a refused connection went to the other replica (POST too)')
  const metrics = (await h.app.inject({ url: '/metrics' })).body
  t.match(metrics, /gateway_upstream_ejections_total\{service="tickets"\} 1/)
  t.match(metrics, /gateway_upstream_ejected\{service="tickets"\} 1/)
  const retries = Number(/gateway_upstream_retries_total\{service="tickets"\} (\d+)/.exec(metrics)?.[1] ?? 0)
  t.ok(retries >= 1 && retries <= 2, `retried only until ejected (${retries})`)

  // the replica comes back on the same address: the probe of /ready brings it back into rotation
  const back = await startUpstream({ port: Number(port) })
  t.teardown(() => back.close())
  await until(
    async () =>
      (await h.app.inject({ url: '/metrics' })).body.includes('gateway_upstream_ejected{service="tickets"} 0') ? 1 : 0,
    1,
    3000,
  )
  for (let i = 0; i < 6; i++) await hit()
  t.ok(back.requests.length > 0, 'it serves again')
})
