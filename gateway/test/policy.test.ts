import { request } from 'node:http'
import type { ClaimsInput } from '@switchboard/auth'
import { AUDIT_RECORDED_TYPE, type AuditRecordData, type Envelope, PRINCIPAL_HEADER } from '@switchboard/contracts'
import { waitFor } from '@switchboard/testing'
import t from 'tap'
import { accessToken, bearer, type Harness, harness, seedUser } from './fixtures/gateway.ts'

async function as(h: Harness, claims: ClaimsInput, method: string, url: string, headers: Record<string, string> = {}) {
  const res = await h.app.inject({
    method: method as 'GET',
    url,
    headers: { ...bearer(await accessToken(claims)), ...headers },
    ...(method === 'GET' ? {} : { payload: {} }),
  })
  return { status: res.statusCode, json: res.json(), headers: res.headers }
}

t.test('route classes', async (t) => {
  const h = await harness(t)
  const anonymous = [
    '/public/kb/x',
    '/public/csat/tok',
    '/help/acme/support/search',
    '/csat/tok',
    '/api/v1/auth/login',
    '/api/v1/auth/register',
    '/api/v1/auth/refresh',
  ]
  for (const url of anonymous) {
    const res = await h.app.inject({ method: 'POST', url, payload: {} })
    t.equal(res.statusCode, 200, `${url} anonymous`)
    t.equal(res.json().principal, null, `${url}: no principal forwarded`)
  }
  // uploads: anonymous visitors pass without a principal; a token, when sent, is verified and its principal forwarded
  const upload = await h.app.inject({ method: 'GET', url: '/uploads/abc' })
  t.equal(upload.statusCode, 200, '/uploads anonymous')
  t.equal(upload.json().principal, null)
  const uploader = seedUser(h, { claims: { roles: ['customer'] } })
  const withToken = await as(h, uploader, 'GET', '/uploads/abc')
  t.equal(withToken.json.principal.kind, 'end_user', '/uploads with a token: its principal travels upstream')
  const badToken = await h.app.inject({ method: 'GET', url: '/uploads/abc', headers: { authorization: 'Bearer nope' } })
  t.equal(badToken.statusCode, 401, '/uploads with a bad token: refused, not treated as anonymous')
  for (const url of ['/api/v1/auth/sessions', '/api/v1/ai/query', '/api/tickets', '/api/v1/metrics/ingest']) {
    const res = await h.app.inject({ method: 'GET', url })
    t.equal(res.statusCode, 401, `${url} needs a token`)
    t.equal(res.json().code, 'TOKEN_MISSING')
  }
  const customer = seedUser(h, { claims: { roles: ['customer'] } })
  t.equal((await as(h, customer, 'GET', '/api/v1/auth/sessions')).status, 200, 'end user: auth self-service')
  t.equal((await as(h, customer, 'GET', '/api/v1/auth/sessions')).json.principal.kind, 'end_user')
  const refusals: [string, string][] = [
    ['GET', '/api/tickets'],
    ['GET', '/api/v1/ai/status'],
    ['GET', '/api/v1/ws/stats'],
    ['GET', '/api/v1/webrtc/stats'],
    ['POST', '/api/v1/metrics/ingest'],
  ]
  for (const [m, url] of refusals) {
    const r = await as(h, customer, m, url)
    t.equal(r.status, 403, `end user ${m} ${url}`)
    t.equal(r.json.code, 'PRINCIPAL_KIND_FORBIDDEN')
  }
  const agent = seedUser(h)
  t.equal((await as(h, agent, 'GET', '/api/v1/ai/status')).status, 200, 'agent: AI')
  t.equal(
    (await as(h, agent, 'GET', '/api/v1/ws/stats')).json.code,
    'UPSTREAM_NOT_CONFIGURED',
    'agent: ws stats passes policy',
  )
  t.equal((await as(h, agent, 'POST', '/api/v1/metrics/ingest')).status, 403, 'agent: metrics ingest is service only')
  const admin = seedUser(h, { claims: { roles: ['admin'], tenant_id: '', workspace_id: '' } })
  t.equal((await as(h, admin, 'POST', '/api/v1/metrics/ingest')).status, 403, 'admin: metrics ingest is service only')
})

t.test('unknown paths, ambiguous paths, unconfigured services', async (t) => {
  const h = await harness(t)
  const agent = seedUser(h)
  t.equal((await h.app.inject({ method: 'GET', url: '/nowhere' })).json().code, 'ROUTE_NOT_FOUND')
  t.equal((await as(h, agent, 'GET', '/api/nothing-here')).status, 404)
  t.equal((await as(h, agent, 'GET', '/api/ticketsx')).status, 404, 'prefixes match whole segments')
  // inject() normalises dot segments itself, so these go over a real socket.
  const base = await h.app.listen({ port: 0, host: '127.0.0.1' })
  const token = await accessToken(agent)
  for (const path of [
    '/api/tickets/../audit/logs',
    '/api/tickets/%2e%2e/audit/logs',
    '/api/tickets//x',
    '/api/tickets/a\\b',
  ]) {
    const status = await new Promise<number>((resolve, reject) => {
      const { hostname, port } = new URL(base)
      const req = request({ hostname, port, path, headers: bearer(token) }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end()
    })
    t.equal(status, 400, `${path} refused`)
  }
  t.equal((await as(h, agent, 'GET', '/api/%74ickets')).status, 400)
  const r = await as(h, agent, 'GET', '/api/voice/protocols')
  t.equal(r.status, 503)
  t.equal(r.json.code, 'UPSTREAM_NOT_CONFIGURED')
})

t.test('permissions and refusal audit', async (t) => {
  const h = await harness(t)
  // handed to the audit service (here the upstream's stand-in of its hand-over endpoint), not published on the bus
  const audits: Envelope<AuditRecordData>[] = h.upstream.audit.records
  const agent = seedUser(h)
  t.equal((await as(h, agent, 'POST', '/api/tickets')).status, 200, 'agent writes tickets')
  t.equal((await as(h, agent, 'GET', '/api/customers')).status, 200, 'agent reads customers')
  const denied = await as(h, agent, 'POST', '/api/customers/c42/notes')
  t.equal(denied.status, 403)
  t.equal(denied.json.code, 'PERMISSION_DENIED')
  t.equal((await as(h, agent, 'GET', '/api/audit/logs')).status, 403, 'agent cannot read audit')
  t.equal((await as(h, agent, 'GET', '/api/security/users/u1')).status, 403)
  const customer = seedUser(h, { claims: { roles: ['customer'] } })
  t.equal((await as(h, customer, 'DELETE', '/api/tickets/t9')).status, 403)
  const admin = seedUser(h, { claims: { roles: ['admin'] } })
  t.equal((await as(h, admin, 'GET', '/api/audit/logs')).status, 200, 'admin: *')
  const scoped = seedUser(h, { claims: { roles: [], principal_kind: 'service', permissions: ['audit.*'] } })
  t.equal((await as(h, scoped, 'GET', '/api/audit/logs')).status, 200, 'explicit resource wildcard')
  t.equal((await as(h, scoped, 'GET', '/api/tickets')).status, 403)
  await as(h, agent, 'POST', '/api/tickets', { 'x-tenant-id': 'other' }) // scope conflict on a write: 403
  await h.app.inject({ method: 'POST', url: '/api/tickets' }) // 401: not audited
  await waitFor(async () => (audits.length >= 3 ? true : undefined))
  await new Promise((r) => setTimeout(r, 50))
  t.equal(audits.length, 3, 'the three refused writes after authentication')
  const first = audits[0]!
  t.equal(first.type, AUDIT_RECORDED_TYPE)
  t.match(first.data, {
    actor_user_id: agent.user_id,
    principal_kind: 'agent',
    action: 'customers.notes',
    resource_type: 'customers',
    resource_id: 'c42',
    route: '/api/customers/:id/notes',
    method: 'POST',
    status_code: 403,
    success: false,
  })
  t.equal(first.tenant_id, 'acme')
  t.equal(audits[1]!.data.principal_kind, 'end_user')
  t.equal(audits[1]!.data.action, 'tickets.delete')
  t.equal(audits[2]!.data.action, 'tickets.create')
})

t.test('scope guard', async (t) => {
  const h = await harness(t)
  const agent = seedUser(h)
  const admin = seedUser(h, { claims: { roles: ['admin'], tenant_id: '', workspace_id: '' } })
  const end = seedUser(h, { claims: { roles: ['customer'], tenant_id: '', workspace_id: '' } })
  const rows: [string, ClaimsInput, string, Record<string, string>, string][] = [
    ['agent, token scope', agent, '/api/tickets', {}, '200 acme/support'],
    ['agent, same header', agent, '/api/tickets', { 'x-tenant-id': 'acme' }, '200 acme/support'],
    ['agent, other tenant header', agent, '/api/tickets', { 'x-tenant-id': 'evil' }, '403 SCOPE_CONFLICT'],
    ['agent, other workspace query', agent, '/api/tickets?workspace_id=x', {}, '403 SCOPE_CONFLICT'],
    ['header vs query', agent, '/api/tickets?tenant_id=b', { 'x-tenant-id': 'acme' }, '400 SCOPE_SELECTOR_CONFLICT'],
    ['repeated query', agent, '/api/tickets?tenant_id=acme&tenant_id=b', {}, '400 SCOPE_SELECTOR_INVALID'],
    ['admin narrows', admin, '/api/tickets', { 'x-tenant-id': 't1', 'x-workspace-id': 'w1' }, '200 t1/w1'],
    ['admin unscoped', admin, '/api/tickets', {}, '200 /'],
    ['admin workspace only', admin, '/api/tickets?workspace_id=w', {}, '400 SCOPE_WORKSPACE_WITHOUT_TENANT'],
    ['end user widens', end, '/api/v1/auth/sessions', { 'x-tenant-id': 'acme' }, '403 SCOPE_WIDENING'],
    ['end user plain', end, '/api/v1/auth/sessions', {}, '200 /'],
  ]
  for (const [name, claims, url, headers, expected] of rows) {
    const r = await as(h, claims, 'GET', url, headers)
    const got =
      r.status === 200
        ? `200 ${r.json.principal.tenant_id}/${r.json.principal.workspace_id}`
        : `${r.status} ${r.json.code}`
    t.equal(got, expected, name)
  }
})

t.test('forwarded headers', async (t) => {
  const h = await harness(t)
  const agent = seedUser(h)
  const res = await h.app.inject({
    method: 'GET',
    url: '/api/tickets',
    headers: {
      ...bearer(await accessToken(agent)),
      [PRINCIPAL_HEADER]: 'forged',
      'x-request-id': 'client-req-1',
      'x-device-id': 'dev-1',
      'user-agent': 'ua/1',
      'x-forwarded-for': '6.6.6.6',
      cookie: 'a=b',
    },
  })
  const echo = res.json()
  t.equal(res.headers['x-request-id'], 'client-req-1', 'request id echoed')
  t.equal(echo.headers['x-request-id'], 'client-req-1', 'and forwarded')
  t.equal(echo.headers['x-device-id'], 'dev-1')
  t.equal(echo.headers['user-agent'], 'ua/1')
  t.equal(echo.headers['x-forwarded-for'], '127.0.0.1', 'client XFF not trusted by default')
  t.equal(echo.headers['x-forwarded-host'], 'localhost:80', 'the host the client addressed, for public pages')
  const page = await h.app.inject({
    method: 'GET',
    url: '/help/acme/support',
    headers: { host: 'help.example.com', 'x-forwarded-host': 'evil.example' },
  })
  t.equal(
    page.json().headers['x-forwarded-host'],
    'help.example.com',
    "the client's own X-Forwarded-Host is not trusted",
  )
  t.equal(echo.headers.authorization, undefined)
  t.equal(echo.headers.cookie, undefined)
  t.not(echo.headers[PRINCIPAL_HEADER], 'forged')
  t.equal(echo.principal.user_id, agent.user_id, 'the gateway-signed principal verifies upstream')
  const anon = await h.app.inject({ method: 'GET', url: '/public/kb/a', headers: { [PRINCIPAL_HEADER]: 'forged' } })
  t.equal(anon.json().headers[PRINCIPAL_HEADER], undefined, 'forged principal stripped on anonymous routes')
  const bad = await h.app.inject({ method: 'GET', url: '/public/kb/a', headers: { 'x-request-id': 'bad id\u0001' } })
  t.not(bad.headers['x-request-id'], 'bad id\u0001', 'malformed request id replaced')
})
