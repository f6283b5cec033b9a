import { createHash } from 'node:crypto'
import { waitFor } from '@switchboard/testing'
import t from 'tap'
import { accessToken, bearer, harness, metricValue, redisCache, seedUser } from './fixtures/gateway.ts'

const limits = (over: object = {}) =>
  JSON.stringify({
    enabled: true,
    global: { requests_per_minute: 1000, burst: 1000 },
    prefixes: [
      { prefix: '/public/', requests_per_minute: 1000, burst: 1000 },
      { prefix: '/public/csat/', requests_per_minute: 3, burst: 100 },
      { prefix: '/api/v1/ai/', requests_per_minute: 100, burst: 2 },
    ],
    header_keys: [{ header: 'x-api-key', requests_per_minute: 2, burst: 100 }],
    ...over,
  })

t.test('413 for bodies over the limit', async (t) => {
  const h = await harness(t, { env: { BODY_LIMIT_BYTES: '1024' } })
  const token = await accessToken(seedUser(h))
  const big = 'x'.repeat(2000)
  const declared = await h.app.inject({ method: 'POST', url: '/api/tickets', headers: bearer(token), payload: big })
  t.equal(declared.statusCode, 413)
  t.equal(declared.json().code, 'BODY_TOO_LARGE')
  const anon = await h.app.inject({ method: 'POST', url: '/public/csat/t', payload: big })
  t.equal(anon.statusCode, 413, 'checked before authentication, anonymous too')
  const noToken = await h.app.inject({ method: 'POST', url: '/api/tickets', payload: big })
  t.equal(noToken.statusCode, 413, 'body size precedes authentication')
  const url = await h.app.listen({ port: 0, host: '127.0.0.1' })
  const chunked = await fetch(`${url}/api/tickets`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: new ReadableStream({
      start(c) {
        for (let i = 0; i < 4; i++) c.enqueue(new TextEncoder().encode('y'.repeat(600)))
        c.close()
      },
    }),
    duplex: 'half',
  } as RequestInit)
  t.equal(chunked.status, 413, 'chunked body cut off at the limit')
  const ok = await h.app.inject({
    method: 'POST',
    url: '/api/tickets',
    headers: bearer(token),
    payload: 'x'.repeat(900),
  })
  t.equal(ok.statusCode, 200)
})

t.test('/uploads has its own, larger body limit', async (t) => {
  const h = await harness(t, { env: { BODY_LIMIT_BYTES: '1024', UPLOAD_BODY_LIMIT_BYTES: '4096' } })
  const file = 'x'.repeat(3000)
  const upload = await h.app.inject({ method: 'POST', url: '/uploads', payload: file })
  t.equal(upload.statusCode, 200, 'a 3,000-byte upload passes')
  t.equal((await h.app.inject({ method: 'POST', url: '/uploads', payload: 'x'.repeat(5000) })).statusCode, 413)
  const token = await accessToken(seedUser(h))
  const api = await h.app.inject({ method: 'POST', url: '/api/tickets', headers: bearer(token), payload: file })
  t.equal(api.statusCode, 413, 'everything else keeps BODY_LIMIT_BYTES')
  const audio = await h.app.inject({
    method: 'POST',
    url: '/api/voice/recordings/rec-1/audio',
    headers: { ...bearer(token), 'content-type': 'audio/wav' },
    payload: file,
  })
  t.not(audio.statusCode, 413, "a recording's audio has the larger limit too")
  const tooLong = await h.app.inject({
    method: 'POST',
    url: '/api/voice/recordings/rec-1/audio',
    headers: { ...bearer(token), 'content-type': 'audio/wav' },
    payload: 'x'.repeat(5000),
  })
  t.equal(tooLong.statusCode, 413)
  const otherVoice = await h.app.inject({
    method: 'POST',
    url: '/api/voice/calls',
    headers: bearer(token),
    payload: file,
  })
  t.equal(otherVoice.statusCode, 413, 'the rest of /api/voice keeps BODY_LIMIT_BYTES')
  const stop = await h.app.inject({
    method: 'POST',
    url: '/api/voice/recordings/stop',
    headers: bearer(token),
    payload: file,
  })
  t.equal(stop.statusCode, 413, "a recording's JSON routes too")
})

t.test('a JSON body nested past the configured depth: 400 before proxying, and audited', async (t) => {
  const h = await harness(t, { env: { BODY_MAX_DEPTH: '64' } })
  const token = await accessToken(seedUser(h))
  const headers = { ...bearer(token), 'content-type': 'application/json' }
  const before = h.upstream.requests.length
  const depth = 20_000
  const deep = await h.app.inject({
    method: 'POST',
    url: '/api/tickets',
    headers,
    payload: `{"title":${'['.repeat(depth)}${']'.repeat(depth)}}`,
  })
  t.equal(deep.statusCode, 400)
  t.equal(deep.json().code, 'BODY_TOO_DEEP')
  t.equal(h.upstream.requests.length, before, 'never proxied')
  const strings = await h.app.inject({
    method: 'POST',
    url: '/api/tickets',
    headers,
    payload: JSON.stringify({ title: '['.repeat(500), nested: [[[{ a: [1] }]]] }),
  })
  t.equal(strings.statusCode, 200, 'brackets inside strings do not count; honest nesting passes')
  const record = await waitFor(async () =>
    h.upstream.audit.records.map((e) => e.data).find((a) => a.request_id === deep.json().request_id),
  )
  t.equal(record.success, false)
  t.equal(record.status_code, 400)
  t.same(record.request_json, { _truncated: true, _reason: 'nested deeper than 64 levels' })
})

for (const kind of ['memory', 'redis'] as const) {
  t.test(`429 with Retry-After and the drop metric (${kind})`, async (t) => {
    const cache = kind === 'redis' ? redisCache() : undefined
    if (cache) t.teardown(() => cache.close())
    const h = await harness(t, { env: { RATE_LIMITS_JSON: limits() }, ...(cache ? { cache } : {}) })
    const codes: number[] = []
    for (let i = 0; i < 5; i++) codes.push((await h.app.inject({ method: 'GET', url: '/public/csat/tok' })).statusCode)
    t.same(codes, [200, 200, 200, 429, 429], 'longest prefix (/public/csat/) wins over /public/')
    const res = await h.app.inject({ method: 'GET', url: '/public/csat/tok' })
    t.equal(res.statusCode, 429)
    t.match(res.json(), { error: 'rate_limited', code: 'RATE_LIMITED', request_id: String })
    t.match(res.json().message, /retry in \d+ s/)
    t.ok(Number(res.headers['retry-after']) >= 1, `Retry-After ${res.headers['retry-after']}`)
    t.equal((await h.app.inject({ method: 'GET', url: '/public/kb/a' })).statusCode, 200, 'other prefix unaffected')
    t.equal(await metricValue(h.app, 'gateway_rate_limit_dropped_total', { scope: 'prefix:/public/csat/' }), 3)

    const agent = await accessToken(seedUser(h))
    const burst = []
    for (let i = 0; i < 4; i++) {
      burst.push((await h.app.inject({ method: 'GET', url: '/api/v1/ai/status', headers: bearer(agent) })).statusCode)
    }
    t.same(burst, [200, 200, 429, 429], 'burst window (2 per second)')

    const keyed = []
    for (let i = 0; i < 3; i++) {
      keyed.push(
        (await h.app.inject({ method: 'GET', url: '/public/kb/a', headers: { 'x-api-key': 'k1' } })).statusCode,
      )
    }
    t.same(keyed, [200, 200, 429], 'per header key')
    const other = await h.app.inject({ method: 'GET', url: '/public/kb/a', headers: { 'x-api-key': 'k2' } })
    t.equal(other.statusCode, 200, 'another key has its own budget')
    t.equal(await metricValue(h.app, 'gateway_rate_limit_dropped_total', { scope: 'header:x-api-key' }), 1)
    for (let i = 0; i < 5; i++) t.equal((await h.app.inject({ method: 'GET', url: '/health' })).statusCode, 200)
  })
}

t.test('global limit and disabled limits', async (t) => {
  const h = await harness(t, { env: { RATE_LIMITS_JSON: limits({ global: { requests_per_minute: 2, burst: 10 } }) } })
  const codes = []
  for (let i = 0; i < 3; i++) codes.push((await h.app.inject({ method: 'GET', url: '/public/kb/a' })).statusCode)
  t.same(codes, [200, 200, 429])
  t.equal(await metricValue(h.app, 'gateway_rate_limit_dropped_total', { scope: 'global' }), 1)
  const off = await harness(t, {
    env: { RATE_LIMITS_JSON: limits({ enabled: false, global: { requests_per_minute: 1, burst: 1 } }) },
  })
  for (let i = 0; i < 3; i++) t.equal((await off.app.inject({ method: 'GET', url: '/public/kb/a' })).statusCode, 200)
})

t.test(
  'Redis: every window of a request in one round trip, each with an expiry; an outage lets requests through',
  async (t) => {
    const cache = redisCache()
    t.teardown(() => cache.close())
    const h = await harness(t, { env: { RATE_LIMITS_JSON: limits() }, cache })
    const redis = cache.redis!
    const send = redis.sendCommand.bind(redis)
    const sent: string[] = []
    redis.sendCommand = ((command: { name: string }) => {
      sent.push(command.name)
      return send(command as never)
    }) as typeof redis.sendCommand
    const warm = await h.app.inject({ method: 'GET', url: '/public/kb/a', headers: { 'x-api-key': 'k1' } })
    t.equal(warm.statusCode, 200)
    sent.length = 0
    const res = await h.app.inject({ method: 'GET', url: '/public/kb/a', headers: { 'x-api-key': 'k1' } })
    t.equal(res.statusCode, 200)
    t.same(sent, ['evalsha'], 'global + /public/ + x-api-key, two windows each: one command')
    for (const key of ['global|m|127.0.0.1', 'global|s|127.0.0.1', 'prefix:/public/|m|127.0.0.1']) {
      const ttl = await redis.pttl(`${cache.prefix}rl:${key}`)
      t.ok(ttl > 0 && ttl <= 60_000, `${key} expires (${ttl} ms)`)
    }

    const down = redisCache()
    await down.close()
    const d = await harness(t, {
      env: { RATE_LIMITS_JSON: limits({ global: { requests_per_minute: 1, burst: 1 } }) },
      cache: down,
    })
    const codes = []
    for (let i = 0; i < 3; i++) codes.push((await d.app.inject({ method: 'GET', url: '/public/kb/a' })).statusCode)
    t.same(codes, [200, 429, 429], 'Redis unreachable: not an outage of the API, and still limited (in memory)')

    // A Redis that stops answering (paused, not disconnected) must not stall requests either.
    const admin = redisCache()
    t.teardown(() => admin.close())
    await admin.redis!.call('CLIENT', 'PAUSE', '700', 'ALL')
    const started = Date.now()
    const stalled = await h.app.inject({ method: 'GET', url: '/public/kb/a', headers: { 'x-api-key': 'k2' } })
    const ms = Date.now() - started
    t.equal(stalled.statusCode, 200, 'limiter stalled: the request goes through')
    t.ok(ms < 600, `answered after the cache's 250 ms command timeout, not when Redis woke up (${ms} ms)`)
  },
)

t.test(
  'Redis stalls: limits move to memory on this replica (its share of each), and back when Redis answers',
  async (t) => {
    const cache = redisCache()
    t.teardown(() => cache.close())
    const h = await harness(t, {
      cache,
      env: {
        GATEWAY_REPLICAS: '2',
        RATE_LIMITS_JSON: limits({
          global: { requests_per_minute: 1000, burst: 1000 },
          header_keys: [{ header: 'x-api-key', requests_per_minute: 6, burst: 100 }],
        }),
      },
    })
    const admin = redisCache()
    t.teardown(() => admin.close())
    await admin.redis!.call('CLIENT', 'PAUSE', '1500', 'ALL')
    const codes: number[] = []
    for (let i = 0; i < 5; i++) {
      codes.push(
        (await h.app.inject({ method: 'GET', url: '/public/kb/a', headers: { 'x-api-key': 'outage' } })).statusCode,
      )
    }
    t.same(codes, [200, 200, 200, 429, 429], 'half of the 6/min key limit on each of 2 replicas while Redis is away')
    t.equal(
      await metricValue(h.app, 'gateway_rate_limit_backend_switches_total', { to: 'memory' }),
      1,
      'the switch is counted',
    )
    t.equal(await metricValue(h.app, 'gateway_rate_limit_backend', { backend: 'memory' }), 1)
    await new Promise((r) => setTimeout(r, 2600)) // the pause ends, the next probe finds Redis
    t.equal(await metricValue(h.app, 'gateway_rate_limit_backend_switches_total', { to: 'redis' }), 1, 'back to Redis')
    t.equal(await metricValue(h.app, 'gateway_rate_limit_backend', { backend: 'redis' }), 1)
    const back = await h.app.inject({ method: 'GET', url: '/public/kb/a', headers: { 'x-api-key': 'after' } })
    t.equal(back.statusCode, 200)
    const after = createHash('sha256').update('after').digest('hex').slice(0, 24)
    t.equal(await cache.redis!.get(`${cache.prefix}rl:header:x-api-key|m|${after}`), '1', 'counting in Redis again')
  },
)

for (const kind of ['memory', 'redis'] as const) {
  t.test(`failed logins are limited per login name, whatever the address (${kind})`, async (t) => {
    const cache = kind === 'redis' ? redisCache() : undefined
    if (cache) t.teardown(() => cache.close())
    const h = await harness(t, { env: { LOGIN_FAILURES_MAX: '3', TRUST_PROXY: 'true' }, ...(cache ? { cache } : {}) })
    const login = (username: string, password: string, ip: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        payload: { username, password },
      })
    const codes: number[] = []
    for (let i = 0; i < 5; i++) codes.push((await login('Victim', 'guess', `198.51.100.${i + 1}`)).statusCode)
    t.same(codes, [401, 401, 401, 429, 429], 'three failures from three addresses, then refused')
    const locked = await login('victim', 'right', '203.0.113.9')
    t.equal(locked.statusCode, 429, 'even with the right password, until the window passes')
    t.ok(Number(locked.headers['retry-after']) > 0)
    t.equal(locked.json().code, 'RATE_LIMITED')
    t.equal((await login('someone-else', 'right', '198.51.100.1')).statusCode, 200, 'other accounts unaffected')
    t.equal((await login('other', 'guess', '198.51.100.1')).statusCode, 401)
    t.equal((await login('other', 'right', '198.51.100.1')).statusCode, 200, 'a success clears the count')
    for (let i = 0; i < 3; i++) await login('other', 'guess', '198.51.100.1')
    t.equal((await login('other', 'guess', '198.51.100.1')).statusCode, 429)
  })
}
