// The service-to-service client against real HTTP servers: it signs the principal the gateway would (its own, a
// scoped one, or the caller's it acts for), goes to another replica once when a connection is refused, and turns a
// dead or slow service into a dependency error (502/504), never a hang.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { verifyInternalPrincipal } from '@switchboard/auth'
import { PRINCIPAL_HEADER, type Principal } from '@switchboard/contracts'
import t from 'tap'
import { createServiceClient, ServiceUnavailableError, serviceUrlsFromEnv } from '../src/index.ts'

const secret = 'internal-secret-for-the-client-0123456789'

async function server(handler: (principal: Principal, body: string, path: string) => unknown, delayMs = 0) {
  const s: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => {
      body += c
    })
    req.on('end', async () => {
      const principal = await verifyInternalPrincipal(secret, String(req.headers[PRINCIPAL_HEADER]))
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs))
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(handler(principal, body, req.url ?? '')))
    })
  })
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, close: () => s.close() }
}

async function deadUrl() {
  const s = createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`
  await new Promise((r) => s.close(r))
  return url
}

t.test('signs its own principal, a scoped one, or the caller it acts for', async (t) => {
  const up = await server((principal, body, path) => ({ principal, body: body ? JSON.parse(body) : null, path }))
  t.teardown(up.close)
  const client = createServiceClient({ service: 'svc', urls: [up.url], internalSecret: secret, self: 'hub' })
  t.teardown(client.close)
  const own = await client.call<any>('POST', '/internal/x', { a: 1 })
  t.equal(own.status, 200)
  t.match(own.body, {
    principal: { user_id: 'hub', kind: 'service', tenant_id: '' },
    body: { a: 1 },
    path: '/internal/x',
  })
  const scoped = await client.call<any>('GET', '/internal/y', undefined, {
    scope: { tenant_id: 'acme', workspace_id: 'support' },
  })
  t.match(scoped.body.principal, { kind: 'service', tenant_id: 'acme', workspace_id: 'support' })
  const agent = { ...own.body.principal, user_id: 'agent-7', kind: 'agent', tenant_id: 'acme', workspace_id: 'w' }
  const acting = await client.call<any>('GET', '/api/z', undefined, { as: agent })
  t.match(acting.body.principal, { user_id: 'agent-7', kind: 'agent' }, 'for the caller')
})

t.test('a refused connection goes once to another replica; dead or slow services are dependency errors', async (t) => {
  const up = await server(() => ({ ok: true }))
  t.teardown(up.close)
  const dead = await deadUrl()
  const client = createServiceClient({ service: 'svc', urls: [dead, up.url], internalSecret: secret, self: 'hub' })
  t.teardown(client.close)
  for (let i = 0; i < 4; i++) t.equal((await client.call('GET', '/x')).status, 200, `call ${i}: answered`)

  const allDead = createServiceClient({ service: 'svc', urls: [dead], internalSecret: secret, self: 'hub' })
  t.teardown(allDead.close)
  const refused = await allDead.call('GET', '/x').catch((e: unknown) => e)
  t.ok(refused instanceof ServiceUnavailableError)
  t.equal((refused as ServiceUnavailableError).statusCode, 502)

  const slow = await server(() => ({}), 500)
  t.teardown(slow.close)
  const impatient = createServiceClient({
    service: 'svc',
    urls: [slow.url],
    internalSecret: secret,
    self: 'hub',
    timeoutMs: 100,
  })
  t.teardown(impatient.close)
  const timedOut = await impatient.call('GET', '/x').catch((e: unknown) => e)
  t.equal((timedOut as ServiceUnavailableError).statusCode, 504)
})

t.test('addresses from the same UPSTREAM_<SERVICE> the gateway reads', async (t) => {
  t.same(serviceUrlsFromEnv({ UPSTREAM_REALTIME_VOICE: 'http://a:1/, http://b:2' }, 'realtime-voice'), [
    'http://a:1',
    'http://b:2',
  ])
  t.same(serviceUrlsFromEnv({}, 'conversations'), [])
})
