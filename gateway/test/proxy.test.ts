import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { accessToken, bearer, harness, metricValue, seedUser } from './fixtures/gateway.ts'
import { deadUrl, startUpstream } from './fixtures/upstream.ts'

t.test('upstream failures become the error body', async (t) => {
  const dead = await deadUrl()
  const h = await harness(t, { env: { UPSTREAM_AUDIT: dead } })
  const admin = await accessToken(seedUser(h, { claims: { roles: ['admin'] } }))

  const down = await h.app.inject({ method: 'GET', url: '/api/audit/logs', headers: bearer(admin) })
  t.equal(down.statusCode, 502)
  t.match(down.json(), { error: 'bad_gateway', code: 'UPSTREAM_UNAVAILABLE', request_id: String })
  const downPost = await h.app.inject({ method: 'POST', url: '/api/audit/x', headers: bearer(admin), payload: {} })
  t.equal(downPost.statusCode, 502)

  const started = Date.now()
  const slow = await h.app.inject({ method: 'GET', url: '/api/tickets/slow/1', headers: bearer(admin) })
  t.equal(slow.statusCode, 504, 'upstream slower than UPSTREAM_TIMEOUT_MS (500)')
  t.equal(slow.json().code, 'UPSTREAM_TIMEOUT')
  t.ok(Date.now() - started < 1400, 'answered at the timeout, not when the upstream finished')

  const said503 = await h.app.inject({ method: 'GET', url: '/api/tickets/answer-503', headers: bearer(admin) })
  t.equal(said503.statusCode, 503, "the upstream's own 503 passes through")
  t.equal(said503.json().code, 'UPSTREAM_SAID_503')

  t.equal(await metricValue(h.app, 'gateway_upstream_errors_total', { service: 'audit', kind: 'unavailable' }), 2)
  t.equal(await metricValue(h.app, 'gateway_upstream_errors_total', { service: 'tickets', kind: 'timeout' }), 1)
})

t.test('round-robin over replicas; a dead one is skipped, not answered with 502', async (t) => {
  const h = await harness(t)
  const other = await startUpstream()
  t.teardown(() => other.close())
  const h2 = await harness(t, { upstream: h.upstream, env: { UPSTREAM_TICKETS: `${h.upstream.url},${other.url}` } })
  const token = await accessToken(seedUser(h))
  for (let i = 0; i < 4; i++) await h2.app.inject({ method: 'GET', url: '/api/tickets', headers: bearer(token) })
  t.equal(other.requests.length, 2, 'alternates between the two replicas')
  const dead = await deadUrl()
  const h3 = await harness(t, { upstream: h.upstream, env: { UPSTREAM_TICKETS: `${h.upstream.url},${dead}` } })
  const statuses = []
  for (let i = 0; i < 4; i++) {
    statuses.push((await h3.app.inject({ method: 'GET', url: '/api/tickets', headers: bearer(token) })).statusCode)
  }
  t.same(statuses, [200, 200, 200, 200], 'the refused connection went to the live replica')
})

t.test('CORS allowlist', async (t) => {
  const h = await harness(t, { env: { CORS_ORIGINS: 'https://console.example.com, https://app.example.com' } })
  const ok = await h.app.inject({ method: 'GET', url: '/public/kb/a', headers: { origin: 'https://app.example.com' } })
  t.equal(ok.headers['access-control-allow-origin'], 'https://app.example.com')
  t.match(String(ok.headers['access-control-expose-headers']), /x-request-id/)
  const evil = await h.app.inject({ method: 'GET', url: '/public/kb/a', headers: { origin: 'https://evil.example' } })
  t.equal(evil.headers['access-control-allow-origin'], undefined, 'unlisted origin gets no CORS headers')
  const pre = await h.app.inject({
    method: 'OPTIONS',
    url: '/api/tickets',
    headers: {
      origin: 'https://console.example.com',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    },
  })
  t.equal(pre.statusCode, 204, 'preflight answered by the gateway, no token needed')
  t.equal(pre.headers['access-control-allow-origin'], 'https://console.example.com')
  t.match(String(pre.headers['access-control-allow-methods']), /POST/)
  const any = await harness(t, { upstream: h.upstream, env: { CORS_ORIGINS: '*' } })
  const star = await any.app.inject({ method: 'GET', url: '/public/kb/a', headers: { origin: 'https://x.example' } })
  t.equal(star.headers['access-control-allow-origin'], '*')
})

t.test('answers over 256 KiB or of unknown length stream through; hop-by-hop headers stay behind', async (t) => {
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/api/tickets/export')) {
      res.writeHead(200, { 'content-type': 'text/csv', 'keep-alive': 'timeout=5', 'x-kept': 'yes' })
      let i = 0
      const write = () => {
        while (i < 40) {
          i++
          if (!res.write(`${'x'.repeat(10_000)}\n`)) return void res.once('drain', write)
        }
        res.end('end\n')
      }
      write()
      return
    }
    if (req.url?.startsWith('/api/tickets/big')) {
      const body = 'y'.repeat(300_000)
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(body.length) })
      res.end(body)
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const h = await harness(t)
  const h2 = await harness(t, {
    upstream: h.upstream,
    env: { UPSTREAM_TICKETS: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
  })
  const token = await accessToken(seedUser(h))
  const url = await h2.app.listen({ port: 0, host: '127.0.0.1' })
  const chunked = await fetch(`${url}/api/tickets/export`, { headers: bearer(token) })
  t.equal(chunked.status, 200)
  t.equal((await chunked.text()).length, 40 * 10_001 + 4, 'every chunk arrived')
  t.equal(chunked.headers.get('x-kept'), 'yes')
  t.not(chunked.headers.get('keep-alive'), 'timeout=5', "the upstream's Keep-Alive is not the client's")
  const big = await h2.app.inject({ method: 'GET', url: '/api/tickets/big', headers: bearer(token) })
  t.equal(big.statusCode, 200)
  t.equal(big.body.length, 300_000)
  t.equal(big.headers['content-length'], '300000')
})
