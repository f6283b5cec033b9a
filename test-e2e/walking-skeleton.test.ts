// The walking skeleton, end to end through the gateway over real HTTP, in both run modes: auth sessions and
// token rotation, principal kinds and permissions, tenancy, and the audit trail of management writes.
import { randomBytes } from 'node:crypto'
import { mintServiceToken } from '@switchboard/cli'
import { login, register } from './harness/auth.ts'
import { client, type Reply, until } from './harness/http.ts'
import { inEachMode } from './harness/modes.ts'
import { createTicket, realCustomer } from './harness/tickets-kit.ts'

const ERROR_KEYS = ['code', 'error', 'message', 'request_id']

/**
 * Revocations reach the gateway as identity's events (docs/architecture.md §1, rule 3), on every replica within
 * about 100 ms (docs/api.md §2). In the fleet that is NATS between two processes, so a request sent the instant
 * the logout returns may still pass; the bound leaves room for a loaded 2-core CI machine. The time it took is
 * printed with the assertion.
 */
const REVOCATION_BOUND_MS = 500

async function refusedWithin(call: () => Promise<Reply>, boundMs: number): Promise<{ reply: Reply; ms: number }> {
  const started = Date.now()
  for (;;) {
    const reply = await call()
    const ms = Date.now() - started
    if (reply.status === 401 || ms > boundMs) return { reply, ms }
    await new Promise((r) => setTimeout(r, 10))
  }
}

inEachMode('walking skeleton', {}, async (t, system) => {
  const api = client(system.url)
  const suffix = randomBytes(3).toString('hex')
  const admin = await login(api, system.admin.username, system.admin.password)
  const agent = await login(api, system.agent.username, system.agent.password)
  const scope = { 'x-tenant-id': system.tenant_id, 'x-workspace-id': system.workspace_id }

  t.test('operational endpoints answer on the gateway', async (t) => {
    t.equal((await api.get('/health')).status, 200)
    const ready = await api.get('/ready')
    t.equal(ready.status, 200, ready.text)
    const metrics = await api.get('/metrics')
    t.equal(metrics.status, 200)
    t.match(metrics.text, /# TYPE /, 'a text exposition format')
  })

  t.test('auth sessions: two devices, refresh rotation, sessions list, logout-others, logout-current', async (t) => {
    const username = `walker_${suffix}`
    const reg = await register(api, username)
    t.equal(reg.status, 201, reg.text)
    t.equal(reg.body.token_type, 'Bearer')
    t.ok(reg.body.token && reg.body.refresh_token)
    t.not(reg.body.token, reg.body.refresh_token)

    const deviceA = await login(api, username, reg.password, `device-a-${suffix}`)
    const deviceB = await login(api, username, reg.password, `device-b-${suffix}`)

    // A client sends its device id on every call; a refresh without it would re-derive the fingerprint.
    const refreshed = await api.post(
      '/api/v1/auth/refresh',
      { refresh_token: deviceA.refresh_token },
      { headers: { 'x-device-id': `device-a-${suffix}` } },
    )
    t.equal(refreshed.status, 200, refreshed.text)
    t.not(refreshed.body.refresh_token, deviceA.refresh_token, 'a new refresh token')
    const reused = await api.post('/api/v1/auth/refresh', { refresh_token: deviceA.refresh_token })
    t.equal(reused.status, 401, 'the rotated refresh token is refused')
    t.same(Object.keys(reused.body).sort(), ERROR_KEYS, 'error body')
    t.equal(reused.headers.get('x-request-id'), reused.body.request_id, 'request id echoed')
    const older = await refusedWithin(() => api.get('/api/v1/auth/me', { token: deviceA.token }), REVOCATION_BOUND_MS)
    t.equal(older.reply.status, 401, `the session's older access token stops working (after ${older.ms} ms)`)

    const current = refreshed.body.token as string
    t.equal((await api.get('/api/v1/auth/me', { token: current })).status, 200)
    t.equal(
      (await api.get('/api/v1/auth/me', { token: refreshed.body.refresh_token })).status,
      401,
      'a refresh token is never a bearer token',
    )

    const sessions = await api.get('/api/v1/auth/sessions', { token: current })
    t.equal(sessions.status, 200, sessions.text)
    t.equal(sessions.body.count, 3, 'register, device A, device B')
    t.equal(sessions.body.items.length, 3)
    t.equal(sessions.body.items.filter((s: { is_current: boolean }) => s.is_current).length, 1, 'exactly one current')
    const fingerprints = sessions.body.items.map((s: { device_fingerprint: string }) => s.device_fingerprint)
    t.ok(fingerprints.includes(`device-a-${suffix}`) && fingerprints.includes(`device-b-${suffix}`), 'X-Device-ID kept')

    const others = await api.post('/api/v1/auth/sessions/logout-others', undefined, { token: current })
    t.equal(others.status, 200, others.text)
    t.equal(others.body.count, 2)
    const b = await refusedWithin(() => api.get('/api/v1/auth/me', { token: deviceB.token }), REVOCATION_BOUND_MS)
    t.equal(b.reply.status, 401, `device B is logged out (after ${b.ms} ms)`)
    const after = await api.get('/api/v1/auth/sessions', { token: current })
    t.equal(after.body.items.filter((s: { status: string }) => s.status === 'active').length, 1)

    const out = await api.post('/api/v1/auth/sessions/logout-current', undefined, { token: current })
    t.equal(out.status, 200, out.text)
    t.equal(out.body.status, 'revoked')
    const gone = await refusedWithin(() => api.get('/api/v1/auth/me', { token: current }), REVOCATION_BOUND_MS)
    t.equal(gone.reply.status, 401, `the same token is refused (after ${gone.ms} ms)`)
    t.match(gone.reply.body, { code: String }, 'with an error code')
  })

  t.test('principal kinds and permissions', async (t) => {
    const customer = await register(api, `customer_${suffix}`)
    t.equal(customer.status, 201, customer.text)
    const forbidden = await api.get('/api/tickets', { token: customer.body.token })
    t.equal(forbidden.status, 403, 'an end user is refused on management /api/*')
    t.same(Object.keys(forbidden.body).sort(), ERROR_KEYS)

    t.equal((await api.get('/api/tickets', { token: agent.token })).status, 200, 'an agent reads tickets')
    t.equal((await api.get('/api/audit/logs', { token: agent.token })).status, 403, 'an agent has no audit.read')
    const revoke = await api.post(`/api/security/users/${customer.body.user.id}/revoke-tokens`, undefined, {
      token: agent.token,
    })
    t.equal(revoke.status, 403, 'an agent has no security.write')
    t.equal((await api.get('/api/audit/logs', { token: admin.token })).status, 200, 'admin has *')
    t.equal((await api.get('/api/tickets')).status, 401, 'no token')
  })

  const ticketBody = { title: `Printer on fire ${suffix}`, priority: 'high' }

  t.test("another tenant's ticket is answered as not found", async (t) => {
    const { token: service } = await mintServiceToken({
      service: 'e2e',
      permissions: ['tickets.*', 'customers.*'],
      env: system.env,
    })
    const other = { 'x-tenant-id': `acme${suffix}`, 'x-workspace-id': 'support' }
    // a ticket names a customer of its workspace, made through identity
    const customer = await realCustomer(api, { token: service, headers: other }, `acme_cust_${suffix}`)
    const created = await createTicket(
      api,
      { ...ticketBody, customer_id: customer.user_id },
      { token: service, headers: other },
    )
    t.equal(created.status, 201, created.text)
    t.equal(created.body.tenant_id, `acme${suffix}`)
    const id = created.body.id
    t.equal(
      (await api.get(`/api/tickets/${id}`, { token: service, headers: other })).status,
      200,
      'visible in its scope',
    )
    const fromDemo = await api.get(`/api/tickets/${id}`, { token: agent.token })
    t.equal(fromDemo.status, 404, "the demo agent can't see acme's ticket")
    const missing = await api.get(`/api/tickets/${id.replace(/.$/, (c: string) => (c === '0' ? '1' : '0'))}`, {
      token: agent.token,
    })
    t.equal(missing.status, 404)
    t.equal(fromDemo.body.code, missing.body.code, 'same body as a record that does not exist')
    const widen = await api.get(`/api/tickets/${id}`, { token: agent.token, headers: other })
    t.equal(widen.status, 403, 'an agent cannot select another scope')
  })

  t.test('ticket create and close are audited with before/after; a failed write with success=false', async (t) => {
    const customer = await realCustomer(api, { token: admin.token }, `demo_cust_${suffix}`)
    const created = await createTicket(
      api,
      { ...ticketBody, customer_id: customer.user_id },
      { token: agent.token, headers: scope },
    )
    t.equal(created.status, 201, created.text)
    const id = created.body.id as string
    const closed = await api.post(`/api/tickets/${id}/close`, { reason: 'e2e' }, { token: agent.token })
    t.equal(closed.status, 200, closed.text)
    t.equal(closed.body.status, 'closed')
    const again = await api.post(`/api/tickets/${id}/close`, { reason: 'twice' }, { token: agent.token })
    t.equal(again.status, 409, 'closing a closed ticket conflicts')

    const find = (query: string, pick: (r: any) => boolean) =>
      until(`audit ${query}`, async () => {
        const res = await api.get(`/api/audit/logs?${query}`, { token: admin.token })
        if (res.status !== 200) throw new Error(`${res.status} ${res.text}`)
        return (res.body.data as any[]).find(pick)
      })
    const create = await find('action=tickets.create', (r) => r.resource_id === id)
    t.equal(create.success, true)
    t.equal(create.status_code, 201)
    t.equal(create.method, 'POST')
    t.equal(create.tenant_id, system.tenant_id)
    t.equal(create.principal_kind, 'agent')

    const close = await find('action=tickets.close&success=true', (r) => r.resource_id === id)
    t.ok(close.before_json, 'a before snapshot')
    t.ok(close.after_json, 'an after snapshot')
    const before = typeof close.before_json === 'string' ? JSON.parse(close.before_json) : close.before_json
    const after = typeof close.after_json === 'string' ? JSON.parse(close.after_json) : close.after_json
    t.not(before.status, 'closed')
    t.equal(after.status, 'closed')
    const diff = await api.get(`/api/audit/logs/${close.id}/diff`, { token: admin.token })
    t.equal(diff.status, 200, diff.text)
    t.ok(diff.body.diff.changed_paths.includes('status'), 'the diff names status')

    const failed = await find(
      'action=tickets.close&success=false',
      (r) => r.resource_id === id || r.route?.includes('close'),
    )
    t.equal(failed.success, false)
    t.equal(failed.status_code, 409)
  })

  t.test('X-Request-ID is carried through', async (t) => {
    const id = `e2e-${suffix}`
    const res = await api.get('/api/tickets', { token: agent.token, headers: { 'x-request-id': id } })
    t.equal(res.headers.get('x-request-id'), id)
  })
})
