import { connect as connectTcp } from 'node:net'
import { IdentityEvents } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { wsConnect as connect, startWsEcho, wsOpened } from '@switchboard/testing'
import t, { type Test } from 'tap'
import { accessToken, bearer, type Harness, harness, metricValue, seedUser } from './fixtures/gateway.ts'
import { deadUrl, INTERNAL_SECRET } from './fixtures/upstream.ts'

async function setup(t: Test, env: Record<string, string> = {}) {
  const ws = await startWsEcho({ internalSecret: INTERNAL_SECRET })
  t.teardown(() => ws.close())
  const h = await harness(t, { env: { UPSTREAM_REALTIME_VOICE: ws.url, ...env } })
  const url = await h.app.listen({ port: 0, host: '127.0.0.1' })
  return { h, ws, url }
}

t.test('anonymous and authenticated connections are relayed both ways', async (t) => {
  const { h, url } = await setup(t)
  const anon = wsOpened(await connect(url, '/api/v1/ws?session_id=s-1'), t)
  t.equal(anon.hello.principal, null, 'no token: anonymous, no principal upstream')
  t.equal(anon.hello.url, '/api/v1/ws?session_id=s-1', 'path and query reach the service')
  t.match(anon.hello.request_id, /.+/, 'request id travels with the handshake')
  t.equal(anon.hello.forwarded_for, '127.0.0.1')
  anon.ws.send(JSON.stringify({ type: 'text-message', data: 'hi' }))
  t.same(JSON.parse(String(await anon.next())), { type: 'text-message', data: 'hi' }, 'text echoed as text')
  anon.ws.send(Buffer.from([1, 2, 3]))
  t.same(await anon.next(), Buffer.from([1, 2, 3]), 'binary stays binary')
  t.equal(await metricValue(h.app, 'gateway_websocket_connections'), 1)

  const claims = seedUser(h)
  const token = await accessToken(claims)
  const agent = wsOpened(await connect(url, '/api/v1/ws', { headers: bearer(token) }), t)
  t.match(agent.hello.principal, { user_id: claims.user_id, kind: 'agent', tenant_id: 'acme' }, 'principal upstream')
  t.equal(agent.hello.authorization, undefined, 'the access token itself is not forwarded')

  const browser = wsOpened(await connect(url, '/api/v1/ws', { protocols: ['switchboard.v1', `bearer.${token}`] }), t)
  t.match(browser.hello.principal, { user_id: claims.user_id }, 'token offered as a bearer sub-protocol')
  t.equal(browser.hello.protocols, 'switchboard.v1', 'the bearer entry is not offered upstream')
  t.equal(browser.ws.protocol, 'switchboard.v1', "the client gets the upstream's choice")

  t.equal(await metricValue(h.app, 'gateway_websocket_connections'), 3)
  t.equal(await metricValue(h.app, 'gateway_websocket_messages_total', { direction: 'to_upstream' }), 2)
  anon.ws.close(1000)
  await anon.closed
  await waitFor(async () => (await metricValue(h.app, 'gateway_websocket_connections')) === 2)
  t.pass('a closed connection leaves the gauge')
})

t.test('refusals are HTTP answers before the upgrade', async (t) => {
  const { h, url } = await setup(t, { WS_MAX_CONNECTIONS: '1' })
  const plain = await fetch(`${url}/api/v1/ws`)
  t.equal(plain.status, 426, 'plain HTTP on the WebSocket path')
  t.equal(((await plain.json()) as { code: string }).code, 'UPGRADE_REQUIRED')

  const bad = await connect(url, '/api/v1/ws', { headers: { authorization: 'Bearer not.a.jwt' } })
  t.match(bad, { status: 401, body: { code: String } }, 'a token that is present must be valid')
  const badProtocol = await connect(url, '/api/v1/ws', { protocols: ['switchboard.v1', 'bearer.junk'] })
  t.match(badProtocol, { status: 401 }, 'in the sub-protocol as well')
  const expired = await accessToken(seedUser(h), 60, Date.now() - 3_600_000)
  t.match(await connect(url, '/api/v1/ws', { headers: bearer(expired) }), { status: 401 })
  const inQuery = await connect(url, `/api/v1/ws?access_token=${await accessToken(seedUser(h))}`)
  t.match(inQuery, { status: 401, body: { code: 'TOKEN_IN_QUERY' } })

  const refused = await connect(url, '/api/v1/ws?refuse=403')
  t.match(refused, { status: 403, body: { code: 'REFUSED_BY_UPSTREAM' } }, "the upstream's refusal passes through")

  const first = wsOpened(await connect(url), t)
  t.match(await connect(url), { status: 503, body: { code: 'WEBSOCKET_CAPACITY' } }, 'over WS_MAX_CONNECTIONS')
  first.ws.close()
  await first.closed

  const other = await connect(url, '/api/tickets/x', { headers: bearer(await accessToken(seedUser(h))) })
  t.match(other, { status: 400, body: { code: 'WEBSOCKET_NOT_SERVED' } }, 'an upgrade aimed at an HTTP route')

  t.match(
    await connect(url, '/api/v1/ws', { protocols: [`bearer.${await accessToken(seedUser(h))}`] }),
    {
      status: 400,
      body: { code: 'SUBPROTOCOL_REQUIRED' },
    },
    'a bearer entry alone: nothing could be echoed but the token',
  )
  const head = await rawUpgrade(url, '/api/v1/ws', 'HEAD')
  t.equal(head.status, 426, 'a HEAD is never upgraded')

  // Only /api/v1/ws takes upgrades; after any HTTP answer to one, the gateway closes the socket itself.
  for (const [path, status] of [
    ['/api/tickets/x', 400],
    ['/nowhere', 400],
    ['/health', 400],
    ['/openapi.json', 400],
    ['/api/v1/ws?refuse=409', 409],
  ] as const) {
    t.match(await rawUpgrade(url, path), { status, closed: true }, `${path}: ${status}, then the socket is closed`)
  }
})

t.test('upstream failures: 502, 504, 503', async (t) => {
  const dead = await deadUrl()
  const { url } = await setup(t, { WS_HANDSHAKE_TIMEOUT_MS: '300' })
  const started = Date.now()
  t.match(await connect(url, '/api/v1/ws?hang=1'), { status: 504, body: { code: 'UPSTREAM_TIMEOUT' } })
  t.ok(Date.now() - started < 2000, 'answered at the handshake timeout')
  const down = await harness(t, { env: { UPSTREAM_REALTIME_VOICE: dead } })
  const downUrl = await down.app.listen({ port: 0, host: '127.0.0.1' })
  t.match(await connect(downUrl), { status: 502, body: { code: 'UPSTREAM_UNAVAILABLE' } })
  const none = await harness(t)
  const noneUrl = await none.app.listen({ port: 0, host: '127.0.0.1' })
  t.match(await connect(noneUrl), { status: 503, body: { code: 'UPSTREAM_NOT_CONFIGURED' } })
})

t.test('a dead hub replica: handshakes go to the live one, and it is ejected', async (t) => {
  const live = await startWsEcho({ internalSecret: INTERNAL_SECRET })
  t.teardown(() => live.close())
  const dead = await deadUrl()
  const h = await harness(t, { env: { UPSTREAM_REALTIME_VOICE: `${dead},${live.url}`, UPSTREAM_EJECT_MS: '60000' } })
  const url = await h.app.listen({ port: 0, host: '127.0.0.1' })
  for (let i = 0; i < 6; i++) {
    const opened = wsOpened(await connect(url, `/api/v1/ws?n=${i}`), t)
    t.equal(opened.hello.url, `/api/v1/ws?n=${i}`, `connection ${i} reached the live replica`)
    opened.ws.close(1000)
    await opened.closed
  }
  const metrics = (await h.app.inject({ url: '/metrics' })).body
  t.match(metrics, /gateway_upstream_ejections_total\{service="realtime-voice"\} 1/)
  t.match(
    metrics,
    /gateway_upstream_retries_total\{service="realtime-voice"\} 1/,
    'one retry, then the dead one is left out',
  )
})

t.test('closing travels both ways with its code; size and rate limits; upstream death', async (t) => {
  const { ws: upstream, url } = await setup(t, { WS_MAX_MESSAGE_BYTES: '1024', WS_MAX_MESSAGES_PER_SECOND: '10' })
  const a = wsOpened(await connect(url), t)
  a.ws.send('close:4000')
  t.same(await a.closed, { code: 4000, reason: 'asked to' }, "the service's close code reaches the client")

  const b = wsOpened(await connect(url), t)
  b.ws.close(4100, 'leaving')
  await b.closed
  await waitFor(async () => upstream.closes.some((c) => c.code === 4100))
  t.match(
    upstream.closes,
    [{ code: 4000 }, { code: 4100, reason: 'leaving' }],
    "the client's close code reaches the service",
  )

  const c = wsOpened(await connect(url), t)
  c.ws.send('x'.repeat(2000))
  t.equal((await c.closed).code, 1009, 'a frame over WS_MAX_MESSAGE_BYTES closes with 1009')

  const bare = wsOpened(await connect(url), t)
  bare.ws.send('close')
  t.same(await bare.closed, { code: 1000, reason: '' }, 'a close frame without a code is a normal close')

  const d = wsOpened(await connect(url), t)
  d.ws.send('die')
  t.same(await d.closed, { code: 1011, reason: 'upstream connection lost' }, 'an upstream that vanished → 1011')

  const f = wsOpened(await connect(url), t)
  for (let i = 0; i < 12; i++) f.ws.send(`m${i}`)
  t.same(await f.closed, { code: 1008, reason: 'message rate exceeded' }, 'over WS_MAX_MESSAGES_PER_SECOND → 1008')

  const e = wsOpened(await connect(url), t)
  e.ws.send('burst:500')
  for (let i = 0; i < 500; i++) if ((await e.next()) !== `m${i}`) return t.fail(`message ${i} lost or reordered`)
  t.pass('500 messages from the service arrive in order')
})

t.test('token end: revocation event and expiry close the socket with 4401', async (t) => {
  const { h, url } = await setup(t)
  const claims = seedUser(h)
  const live = wsOpened(await connect(url, '/api/v1/ws', { headers: bearer(await accessToken(claims)) }), t)
  const bystander = wsOpened(await connect(url, '/api/v1/ws', { headers: bearer(await accessToken(seedUser(h))) }), t)
  await publishUserState(h, { user_id: claims.user_id, active: true, token_version: 2, seq: 9 })
  t.same(await live.closed, { code: 4401, reason: 'token version revoked' }, 'revoked while connected')
  bystander.ws.send('still here')
  t.equal(await bystander.next(), 'still here', "another user's socket stays open")

  const short = wsOpened(await connect(url, '/api/v1/ws', { headers: bearer(await accessToken(seedUser(h), 2)) }), t)
  t.same(await short.closed, { code: 4401, reason: 'token expired' }, 'closed when the access token expires')
})

t.test('shutdown tells clients to go elsewhere (1001); the path has its own rate limit', async (t) => {
  const limits = { enabled: true, global: { requests_per_minute: 1000, burst: 1000 }, header_keys: [] }
  const prefixes = [{ prefix: '/api/v1/ws', requests_per_minute: 2, burst: 10 }]
  const { h, url } = await setup(t, { RATE_LIMITS_JSON: JSON.stringify({ ...limits, prefixes }) })
  const a = wsOpened(await connect(url), t)
  wsOpened(await connect(url), t)
  t.match(await connect(url), { status: 429, body: { code: 'RATE_LIMITED' } }, 'third upgrade in a minute')
  await h.app.close()
  t.equal((await a.closed).code, 1001)
})

t.test('races with the handshake: revocation, a client reset, shutdown; per-client cap', async (t) => {
  const { h, ws: upstream, url } = await setup(t, { WS_MAX_CONNECTIONS_PER_CLIENT: '2' })
  // Revoked while the upstream half was being opened: checked again as it joins.
  const claims = seedUser(h)
  const pending = connect(url, '/api/v1/ws?delay=300', { headers: bearer(await accessToken(claims)), greeting: false })
  await new Promise((r) => setTimeout(r, 100))
  await publishUserState(h, { user_id: claims.user_id, active: true, token_version: 2, seq: 9 })
  const racing = wsOpened(await pending, t)
  t.same(await racing.closed, { code: 4401, reason: 'token version revoked' }, 'revoked during the handshake')

  // The client resets its connection while the upstream half is still opening: no upstream socket is left.
  const before = upstream.handshakes
  const reset = connectTcp(Number(new URL(url).port), '127.0.0.1', () =>
    reset.write(
      'GET /api/v1/ws?delay=200 HTTP/1.1\r\nHost: gw\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    ),
  )
  await new Promise((r) => setTimeout(r, 50))
  reset.resetAndDestroy()
  await waitFor(async () => upstream.handshakes > before)
  await waitFor(async () => upstream.openCount() === 0)
  t.pass('the upstream half of a client gone mid-handshake is closed')

  const one = wsOpened(await connect(url), t)
  wsOpened(await connect(url), t)
  t.match(await connect(url), { status: 429, body: { code: 'WEBSOCKET_CLIENT_CAPACITY' } }, 'third from one client')
  one.ws.close()
  await waitFor(async () => (await metricValue(h.app, 'gateway_websocket_connections')) === 1)

  // Shutdown while a handshake is in flight: the newcomer is refused, and close() does not hang.
  const inFlight = connect(url, '/api/v1/ws?delay=300', { greeting: false })
  await new Promise((r) => setTimeout(r, 100))
  const started = Date.now()
  await h.app.close()
  t.ok(Date.now() - started < 2000, `close() finished in ${Date.now() - started} ms`)
  const late = await inFlight
  t.ok('status' in late ? late.status === 503 : (await late.closed).code === 1001, 'the in-flight client is sent away')
  await waitFor(async () => upstream.openCount() === 0)
  t.pass('and its upstream half is closed')
})

async function publishUserState(
  h: Harness,
  user: { user_id: string; active: boolean; token_version: number; seq: number },
) {
  const type = IdentityEvents.userTokenState.type
  const data = { user: { ...user, token_valid_after: null }, reason: 'revoke' }
  const envelope = newEnvelope({
    type,
    tenant_id: '',
    workspace_id: '',
    actor: { user_id: 'system', kind: 'service' },
    data,
  })
  await h.bus.publish(type.startsWith('identity.') ? type : `identity.${type}`, envelope)
}

/** An upgrade request on a bare TCP socket: the status line, and whether the server closed within 1 s. */
function rawUpgrade(base: string, path: string, method = 'GET') {
  const { port } = new URL(base)
  return new Promise<{ status: number; closed: boolean }>((resolve) => {
    const socket = connectTcp(Number(port), '127.0.0.1', () =>
      socket.write(
        `${method} ${path} HTTP/1.1\r\nHost: gw\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      ),
    )
    let head = ''
    socket.on('data', (d: Buffer) => (head += d.toString()))
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      socket.destroy()
    }, 1000)
    socket.on('close', () => {
      clearTimeout(timer)
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]), closed: !timedOut })
    })
  })
}

async function waitFor(check: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error('condition not reached in 2 s')
}
