// Tenancy of identity's surface end to end through the gateway, in both run modes: every endpoint that takes
// an id answers tenant A's callers about tenant B's records exactly as about records that don't exist (and
// changes nothing in B); the scope selector rules; end users refused on /api/*.
import { randomBytes, randomUUID } from 'node:crypto'
import { mintServiceToken } from '@switchboard/cli'
import type { Test } from 'tap'
import { login, register } from './harness/auth.ts'
import { client, type Reply, until } from './harness/http.ts'
import { decodeJwt, ERROR_KEYS, forge, isError, sameAs } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi

inEachMode('identity tenancy', {}, async (t, system) => {
  const api = client(system.url)
  const suffix = randomBytes(3).toString('hex')
  const secret = system.env.JWT_SECRET!
  const demo = { 'x-tenant-id': system.tenant_id, 'x-workspace-id': system.workspace_id }
  const tenantB = `acme${suffix}`
  const inB = { 'x-tenant-id': tenantB, 'x-workspace-id': 'support' }
  const inC = { 'x-tenant-id': `globex${suffix}`, 'x-workspace-id': 'sales' }

  // A platform-level service principal (what `switchboard token mint --service e2e --permission '*'` prints):
  // unscoped, so it names B's scope with the selector headers.
  const { token: service } = await mintServiceToken({ service: 'e2e', permissions: ['*'], env: system.env })
  const svcB = { token: service, headers: inB }
  const adminA = await login(api, system.admin.username, system.admin.password)
  const agentA = await login(api, system.agent.username, system.agent.password)
  const asA = { token: adminA.token }
  const must = (r: Reply, status: number, what: string) => {
    if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`)
    return r.body
  }

  // Tenant B: a customer with a password, and an agent (registered as B's customer, then promoted in B).
  const custPassword = `Pw-b-${suffix}-0123456789`
  const custB = must(
    await api.post(
      '/api/customers',
      {
        name: `B customer ${suffix}`,
        email: `bcust_${suffix}@e2e.example.com`,
        username: `bcust_${suffix}`,
        password: custPassword,
        tags: ['b'],
      },
      svcB,
    ),
    201,
    'customer in B',
  )
  const custBLogin = await login(api, `bcust_${suffix}`, custPassword)
  const custBSession = decodeJwt(custBLogin.token).payload.session_id as string
  const regB = await register(api, `bagent_${suffix}`, inB)
  const agentB = must(
    await api.post('/api/agents', { user_id: regB.body.user.id, department: 'b-dept' }, svcB),
    201,
    'agent in B',
  )
  const agentBLogin = await login(api, `bagent_${suffix}`, regB.password)
  // Tenant A (demo): a customer record and its user.
  const custA = must(
    await api.post('/api/customers', { name: `A customer ${suffix}`, email: `acust_${suffix}@e2e.example.com` }, asA),
    201,
    'customer in A',
  )

  t.test('tenant B exists as its own scope', async (t) => {
    t.equal(custB.tenant_id, tenantB)
    t.equal(agentB.tenant_id, tenantB)
    t.match(
      decodeJwt(custBLogin.token).payload,
      { tenant_id: tenantB, workspace_id: 'support' },
      'B login is scoped to B',
    )
    t.match(decodeJwt(agentBLogin.token).payload, { tenant_id: tenantB, roles: ['agent'] })
    t.match(decodeJwt(adminA.token).payload, { tenant_id: system.tenant_id, workspace_id: system.workspace_id })
    t.equal((await api.get(`/api/customers/${custB.id}`, svcB)).status, 200, 'visible in its own scope')
    t.equal((await api.get(`/api/agents/${agentB.id}`, { token: agentBLogin.token })).status, 200, "to B's agent")
  })

  /** 404 for B's record, with the same body as for a record that does not exist. */
  async function likeMissing(t: Test, label: string, foreign: () => Promise<Reply>, missing: () => Promise<Reply>) {
    const f = await foreign()
    const m = await missing()
    t.equal(f.status, 404, `${label}: 404 (got ${f.status} ${f.text.slice(0, 160)})`)
    t.same(Object.keys(f.body ?? {}).sort(), ERROR_KEYS, `${label}: error body`)
    // A message may echo the requested id (`audit record <id> not found`); the template must be the same.
    const shape = (r: Reply) => ({ ...sameAs(r), message: String(r.body?.message).replace(UUID, '<id>') })
    t.same(shape(f), shape(m), `${label}: same status, error, code and message as a missing id`)
  }

  t.test("tenant A's admin gets B's ids answered as missing, on every identity endpoint with an id", async (t) => {
    const missing = randomUUID()
    const user = custB.user_id as string
    const post = (path: string, body?: unknown) => api.post(path, body, asA)
    const put = (path: string, body?: unknown) => api.put(path, body, asA)
    const get = (path: string) => api.get(path, asA)
    const forUser = (f: (id: string) => Promise<Reply>) => [() => f(user), () => f(missing)] as const
    const forCustomer = (f: (id: string) => Promise<Reply>) => [() => f(custB.id), () => f(missing)] as const
    const forAgent = (f: (id: string) => Promise<Reply>) => [() => f(agentB.id), () => f(missing)] as const
    // A JWT we signed for a user that does not exist: the denylist's "missing" twin of B's real token.
    const ghostToken = forge(custBLogin.token, { secret, claims: { sub: missing, user_id: missing } })

    const cases: Array<[string, readonly [() => Promise<Reply>, () => Promise<Reply>]]> = [
      ['GET /api/security/users/:id', forUser((id) => get(`/api/security/users/${id}`))],
      ['GET /api/security/users/:id/sessions', forUser((id) => get(`/api/security/users/${id}/sessions`))],
      [
        'POST /api/security/users/:id/sessions/revoke',
        forUser((id) => post(`/api/security/users/${id}/sessions/revoke`, { session_id: custBSession })),
      ],
      [
        'POST /api/security/users/:id/sessions/revoke-all',
        forUser((id) => post(`/api/security/users/${id}/sessions/revoke-all`, {})),
      ],
      ['POST /api/security/users/:id/revoke-tokens', forUser((id) => post(`/api/security/users/${id}/revoke-tokens`))],
      ['POST /api/security/users/query', forUser((id) => post('/api/security/users/query', { user_ids: [id] }))],
      [
        'POST /api/security/users/query (with a visible id)',
        forUser((id) => post('/api/security/users/query', { user_ids: [custA.user_id, id] })),
      ],
      [
        'POST /api/security/users/revoke-tokens (batch with a visible id)',
        forUser((id) => post('/api/security/users/revoke-tokens', { user_ids: [custA.user_id, id] })),
      ],
      [
        "POST /api/security/users/:id/sessions/revoke (A's user, B's session)",
        [
          () => post(`/api/security/users/${custA.user_id}/sessions/revoke`, { session_id: custBSession }),
          () => post(`/api/security/users/${custA.user_id}/sessions/revoke`, { session_id: missing }),
        ],
      ],
      [
        'POST /api/security/tokens/revoke',
        [
          () => post('/api/security/tokens/revoke', { token: custBLogin.token }),
          () => post('/api/security/tokens/revoke', { token: ghostToken }),
        ],
      ],
      ['GET /api/customers/:id', forCustomer((id) => get(`/api/customers/${id}`))],
      ['PUT /api/customers/:id', forCustomer((id) => put(`/api/customers/${id}`, { name: 'hijacked' }))],
      ['PUT /api/customers/:id/tags', forCustomer((id) => put(`/api/customers/${id}/tags`, { tags: ['hijacked'] }))],
      ['GET /api/customers/:id/notes', forCustomer((id) => get(`/api/customers/${id}/notes`))],
      ['POST /api/customers/:id/notes', forCustomer((id) => post(`/api/customers/${id}/notes`, { content: 'x' }))],
      ['POST /api/customers/:id/revoke-tokens', forCustomer((id) => post(`/api/customers/${id}/revoke-tokens`))],
      ['GET /api/agents/:id', forAgent((id) => get(`/api/agents/${id}`))],
      ['PUT /api/agents/:id', forAgent((id) => put(`/api/agents/${id}`, { department: 'hijacked' }))],
      ['POST /api/agents/:id/online', forAgent((id) => post(`/api/agents/${id}/online`))],
      ['POST /api/agents/:id/offline', forAgent((id) => post(`/api/agents/${id}/offline`))],
      ['PUT /api/agents/:id/status', forAgent((id) => put(`/api/agents/${id}/status`, { status: 'busy' }))],
      ['POST /api/agents/:id/revoke-tokens', forAgent((id) => post(`/api/agents/${id}/revoke-tokens`))],
      ['POST /api/agents (a user of B)', forUser((id) => post('/api/agents', { user_id: id }))],
    ]
    for (const [label, [foreign, absent]] of cases) await likeMissing(t, label, foreign, absent)
    t.comment(`${cases.length} endpoints`)

    // An agent of A reading B's records: the same.
    const asAgent = (path: string) => () => api.get(path, { token: agentA.token })
    await likeMissing(
      t,
      'agent: GET /api/customers/:id',
      asAgent(`/api/customers/${custB.id}`),
      asAgent(`/api/customers/${missing}`),
    )
    await likeMissing(
      t,
      'agent: GET /api/agents/:id',
      asAgent(`/api/agents/${agentB.id}`),
      asAgent(`/api/agents/${missing}`),
    )

    // Lists leave B out.
    const customers = await api.get(`/api/customers?search=${suffix}&page_size=200`, asA)
    t.same(
      customers.body.data.map((c: any) => c.id),
      [custA.id],
      "A's customer list has A's customer only",
    )
    const agents = await api.get('/api/agents?department=b-dept', asA)
    t.equal(agents.body.total, 0, "A's agent list has no B agent")
  })

  t.test('nothing in B changed, and the denylist list is bound to scope too', async (t) => {
    t.equal((await api.get('/api/v1/auth/me', { token: custBLogin.token })).status, 200, "B customer's token works")
    t.equal((await api.get(`/api/agents/${agentB.id}`, { token: agentBLogin.token })).status, 200, "B agent's too")
    const c = await api.get(`/api/customers/${custB.id}`, svcB)
    t.match(c.body, { name: `B customer ${suffix}`, tags: ['b'] }, 'name and tags untouched')
    t.equal((await api.get(`/api/customers/${custB.id}/notes`, svcB)).body.count, 0, 'no note added')
    const a = await api.get(`/api/agents/${agentB.id}`, svcB)
    t.match(a.body, { department: 'b-dept', status: agentB.status }, 'department and status untouched')
    const state = await api.get(`/api/security/users/${custB.user_id}`, svcB)
    t.equal(state.body.token_version, decodeJwt(custBLogin.token).payload.token_version, 'token_version untouched')
    const sessions = await api.get(`/api/security/users/${custB.user_id}/sessions`, svcB)
    t.equal(sessions.body.items.find((s: any) => s.session_id === custBSession)?.status, 'active', 'session active')
    const denied = await api.get(`/api/security/tokens/revoked?user_id=${custB.user_id}`, svcB)
    t.equal(denied.body.total, 0, "B's token was not denylisted")
    const cA = await api.get(`/api/security/users/${custA.user_id}`, asA)
    t.equal(cA.body.token_version, 1, "the batch with one foreign id changed not even A's user")

    // B denylists a token of its own; A's list does not show the record, B's does.
    const second = await login(api, `bcust_${suffix}`, custPassword)
    t.equal((await api.post('/api/security/tokens/revoke', { token: second.token }, svcB)).status, 200)
    const fromB = await api.get(`/api/security/tokens/revoked?user_id=${custB.user_id}`, svcB)
    t.equal(fromB.body.total, 1, 'listed in B')
    const fromA = await api.get(`/api/security/tokens/revoked?user_id=${custB.user_id}`, asA)
    t.equal(fromA.status, 200)
    t.equal(fromA.body.total, 0, 'not listed in A')
    const jti = decodeJwt(second.token).payload.jti
    t.equal((await api.get(`/api/security/tokens/revoked?jti=${jti}`, asA)).body.total, 0, 'not even by jti')
  })

  t.test("B's audit records are missing for A", async (t) => {
    const record = await until("B's customers.create audit record", async () => {
      const res = await api.get('/api/audit/logs?action=customers.create', svcB)
      return (res.body.data as any[]).find((r) => r.resource_id === custB.id)
    })
    t.equal(record.tenant_id, tenantB)
    await likeMissing(
      t,
      'GET /api/audit/logs/:id',
      () => api.get(`/api/audit/logs/${record.id}`, asA),
      () => api.get(`/api/audit/logs/${randomUUID()}`, asA),
    )
    const listed = await api.get('/api/audit/logs?action=customers.create&limit=200', asA)
    t.notOk(
      listed.body.data.some((r: any) => r.resource_id === custB.id),
      "not in A's list",
    )
  })

  t.test('a platform admin: several bindings, an unscoped token that narrows with selectors', async (t) => {
    // Give the seeded admin a second binding (an agent record in B): now a login naming no scope is unscoped.
    const bound = await api.post('/api/agents', { user_id: adminA.user.id, department: 'platform' }, svcB)
    t.equal(bound.status, 201, bound.text)
    const unscoped = await login(api, system.admin.username, system.admin.password)
    t.match(decodeJwt(unscoped.token).payload, { tenant_id: '', workspace_id: '' }, 'an unscoped admin token')
    const asU = (headers: Record<string, string> = {}) => ({ token: unscoped.token, headers })
    t.equal((await api.get(`/api/customers/${custB.id}`, asU(inB))).status, 200, 'narrowed to B: sees B')
    await likeMissing(
      t,
      'narrowed to A: B customer',
      () => api.get(`/api/customers/${custB.id}`, asU(demo)),
      () => api.get(`/api/customers/${randomUUID()}`, asU(demo)),
    )
    const noScope = await api.post(
      '/api/customers',
      { name: 'nowhere', email: `nowhere_${suffix}@e2e.example.com` },
      asU(),
    )
    isError(t, noScope, 400, undefined, 'creating a scoped record without naming a scope')
    t.match(noScope.body.message, /tenant_id/, 'names the missing selector')
    const inBAgain = await api.post('/api/customers', { name: 'B2', email: `b2_${suffix}@e2e.example.com` }, asU(inB))
    t.equal(inBAgain.status, 201, inBAgain.text)
    t.equal(inBAgain.body.tenant_id, tenantB, 'created in the named scope')

    // The same admin logging in naming B gets B's scope, and A's records are missing there.
    const namedB = await api.post('/api/v1/auth/login', {
      username: system.admin.username,
      password: system.admin.password,
      tenant_id: tenantB,
      workspace_id: 'support',
    })
    t.equal(namedB.status, 200, namedB.text)
    t.match(decodeJwt(namedB.body.token).payload, { tenant_id: tenantB, workspace_id: 'support' })
    const asB = { token: namedB.body.token }
    t.equal((await api.get(`/api/customers/${custB.id}`, asB)).status, 200)
    for (const [label, foreign, absent] of [
      ['B admin: A customer', `/api/customers/${custA.id}`, `/api/customers/${randomUUID()}`],
      ['B admin: A user', `/api/security/users/${custA.user_id}`, `/api/security/users/${randomUUID()}`],
    ] as const) {
      await likeMissing(
        t,
        label,
        () => api.get(foreign, asB),
        () => api.get(absent, asB),
      )
    }
  })

  t.test('scope selector rules', async (t) => {
    const svc = (headers: Record<string, string>, query = '') =>
      api.get(`/api/customers${query}`, { token: service, headers })
    isError(
      t,
      await svc({ 'x-tenant-id': tenantB, 'x-workspace-id': 'support' }, `?tenant_id=other${suffix}`),
      400,
      'SCOPE_SELECTOR_CONFLICT',
      'header and query selectors disagree',
    )
    // The gateway joins disagreeing copies into one value, which then fails the slug check: 400 either way.
    const repeated = await svc({}, `?tenant_id=${tenantB}&tenant_id=other${suffix}`)
    isError(t, repeated, 400, undefined, 'a repeated query selector disagreeing with itself')
    t.match(repeated.body.code, /^SCOPE_SELECTOR_(CONFLICT|INVALID)$/)
    isError(t, await svc({ 'x-workspace-id': 'support' }), 400, 'SCOPE_WORKSPACE_WITHOUT_TENANT', 'a workspace alone')
    isError(t, await svc({ 'x-tenant-id': '../etc' }), 400, 'SCOPE_SELECTOR_INVALID', 'a selector that is no slug')
    t.equal((await svc(inB, `?tenant_id=${tenantB}`)).status, 200, 'agreeing header and query')

    isError(
      t,
      await api.get('/api/customers', { token: adminA.token, headers: inB }),
      403,
      'SCOPE_CONFLICT',
      'a scoped admin naming another tenant',
    )
    isError(
      t,
      await api.get(`/api/security/users/${custB.user_id}?tenant_id=${tenantB}`, { token: adminA.token }),
      403,
      'SCOPE_CONFLICT',
      'the same through the query',
    )
    t.equal((await api.get('/api/customers', { token: adminA.token, headers: demo })).status, 200, 'naming its own')
    isError(
      t,
      await api.get('/api/agents', { token: agentA.token, headers: inB }),
      403,
      'SCOPE_CONFLICT',
      'an agent naming another tenant',
    )
    const writeConflict = await api.post(
      `/api/customers/${custB.id}/notes`,
      { content: 'x' },
      {
        token: adminA.token,
        headers: inB,
      },
    )
    isError(t, writeConflict, 403, 'SCOPE_CONFLICT', 'a write naming another tenant')

    // Widening: a principal without a token scope that is not admin/service may not add one.
    const loner = await register(api, `loner_${suffix}`)
    t.equal(loner.status, 201, loner.text)
    t.equal(decodeJwt(loner.body.token).payload.tenant_id, '', 'an unbound customer has an unscoped token')
    isError(
      t,
      await api.get('/api/v1/auth/me', { token: loner.body.token, headers: demo }),
      403,
      'SCOPE_WIDENING',
      'an end user adding a scope',
    )
    t.equal((await api.get('/api/v1/auth/me', { token: loner.body.token })).status, 200, 'and without one it passes')
    // Identity never issues an agent an unscoped token (an agent always has its record's scope), so the agent
    // case is a correctly signed token of the real agent with the scope claims emptied.
    const wideAgent = forge(agentA.token, { secret, claims: { tenant_id: '', workspace_id: '' } })
    isError(
      t,
      await api.get('/api/customers', { token: wideAgent, headers: inB }),
      403,
      'SCOPE_WIDENING',
      'an agent adding a scope',
    )
    isError(
      t,
      await api.get(`/api/customers?tenant_id=${tenantB}&workspace_id=support`, { token: wideAgent }),
      403,
      'SCOPE_WIDENING',
      'through the query as well',
    )

    // Login and register read selectors too.
    const conflict = await api.post(
      '/api/v1/auth/login',
      { username: `bcust_${suffix}`, password: custPassword, tenant_id: tenantB, workspace_id: 'support' },
      { headers: demo },
    )
    isError(t, conflict, 400, 'IDENTITY_SCOPE_SELECTOR_CONFLICT', 'login body and header disagree')
    const notBound = await api.post(
      '/api/v1/auth/login',
      { username: `bcust_${suffix}`, password: custPassword },
      { headers: demo },
    )
    isError(t, notBound, 403, 'IDENTITY_SCOPE_NOT_BOUND', "a customer of B naming A's scope")
  })

  t.test('end-user tokens are refused on /api/*', async (t) => {
    const endUser = { token: custBLogin.token }
    for (const [method, path, body] of [
      ['GET', '/api/customers'],
      ['GET', `/api/customers/${custB.id}`],
      ['GET', `/api/security/users/${custB.user_id}`],
      ['GET', `/api/security/users/${custB.user_id}/sessions`],
      ['POST', '/api/security/tokens/revoke', { token: custBLogin.token }],
      ['POST', `/api/security/users/${custB.user_id}/revoke-tokens`, {}],
      ['GET', '/api/agents'],
    ] as const) {
      const r = await api.call(method, path, { ...endUser, body })
      isError(t, r, 403, 'PRINCIPAL_KIND_FORBIDDEN', `${method} ${path}`)
    }
    t.equal((await api.get('/api/v1/auth/me', endUser)).status, 200, 'its own /api/v1/auth/* still answers')

    // A staff user signing in through a customer binding is an end user there: a customer of C (by
    // registration) made an agent of B logs in naming C.
    const dual = await register(api, `dual_${suffix}`, inC)
    t.equal(dual.status, 201, dual.text)
    t.equal((await api.post('/api/agents', { user_id: dual.body.user.id }, svcB)).status, 201)
    const loginAs = (scope: Record<string, string>) =>
      api.post('/api/v1/auth/login', { username: `dual_${suffix}`, password: dual.password }, { headers: scope })
    const viaC = await loginAs(inC)
    t.equal(viaC.status, 200, viaC.text)
    t.match(decodeJwt(viaC.body.token).payload, { principal_kind: 'end_user', roles: ['agent'] })
    isError(
      t,
      await api.get('/api/customers', { token: viaC.body.token }),
      403,
      'PRINCIPAL_KIND_FORBIDDEN',
      'an agent signed in through its customer record',
    )
    const viaB = await loginAs(inB)
    t.equal(viaB.status, 200, viaB.text)
    t.equal((await api.get('/api/customers', { token: viaB.body.token })).status, 200, 'through its agent record')
    isError(t, await loginAs({}), 400, 'IDENTITY_SCOPE_REQUIRED', 'two bindings and none named')
  })
})
