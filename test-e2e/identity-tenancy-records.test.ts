// Tenancy of identity's records end to end through the gateway, in both run modes: every endpoint that takes an
// id answers tenant A's callers about tenant B's records exactly as about records that don't exist, changes
// nothing in B, and leaves B out of A's lists (the denylist and the audit log included); creating a customer with
// an e-mail B's accounts hold is answered like a new one (a contact of A, no oracle). Which scope a caller acts in
// (selectors, bindings, end users on /api/*) is identity-tenancy-scope.test.ts.
import { randomUUID } from 'node:crypto'
import { login } from './harness/auth.ts'
import { type Reply, until } from './harness/http.ts'
import { decodeJwt, forge, likeMissing } from './harness/identity-kit.ts'
import { tenancyActors } from './harness/identity-tenants.ts'
import { inEachMode } from './harness/modes.ts'

inEachMode('identity tenancy records', { liveTimeoutMs: 240_000 }, async (t, system) => {
  const {
    api,
    suffix,
    secret,
    tenantB,
    svcB,
    adminA,
    agentA,
    asA,
    custPassword,
    custB,
    custBLogin,
    custBSession,
    agentB,
    agentBLogin,
    custA,
  } = await tenancyActors(system)

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

  t.test(
    "A creating a customer with an e-mail B's accounts hold: 201, a contact of A, as for a new e-mail",
    async (t) => {
      const keys = (o: object) => Object.keys(o).sort()
      const inB = async () => (await api.get(`/api/customers?search=${suffix}&page_size=200`, svcB)).body.total
      const beforeB = await inB()
      const cases = [
        [
          "B's customer",
          { email: `BCUST_${suffix}@e2e.example.com`, username: `acopy_${suffix}`, password: custPassword },
        ],
        ["B's agent", { email: `bagent_${suffix}@e2e.example.com` }],
        ['nobody', { email: `anew_${suffix}@e2e.example.com` }],
      ] as const
      for (const [what, body] of cases) {
        const res = await api.post('/api/customers', { name: `Copy ${suffix}`, ...body }, asA)
        t.equal(res.status, 201, `${what}: ${res.text}`)
        t.same(keys(res.body), keys(custA), `${what}: the body of any creation`)
        t.match(res.body, {
          tenant_id: system.tenant_id,
          workspace_id: system.workspace_id,
          email: body.email.toLowerCase(),
        })
        t.not(res.body.user_id, custB.user_id, `${what}: not B's customer's account`)
        t.not(res.body.user_id, agentB.user_id, `${what}: not B's agent's account`)
        const again = await api.post('/api/customers', { name: 'Again', email: body.email }, asA)
        t.same([again.status, again.body.code], [409, 'IDENTITY_CUSTOMER_EXISTS'], `${what}: now A's own customer`)
      }
      const own = await api.post('/api/customers', { name: 'Again', email: `acust_${suffix}@e2e.example.com` }, asA)
      t.same([own.status, own.body.code], [409, 'IDENTITY_CUSTOMER_EXISTS'], "A's own customer's e-mail: 409 as before")
      const noLogin = await api.post('/api/v1/auth/login', { username: `acopy_${suffix}`, password: custPassword })
      t.equal(noLogin.status, 401, "a contact is no login, whatever password A's body had")

      t.equal(await inB(), beforeB, 'no record added to B')
      t.equal((await login(api, `bcust_${suffix}`, custPassword)).user.id, custB.user_id, "B's customer still logs in")
      const agent = await api.post('/api/v1/auth/login', {
        username: `bagent_${suffix}`,
        password: `Pw-bagent_${suffix}-0123456789`,
      })
      t.equal(agent.status, 200, "B's agent still logs in")
      t.match((await api.get(`/api/customers/${custB.id}`, svcB)).body, {
        user_id: custB.user_id,
        email: `bcust_${suffix}@e2e.example.com`,
        tenant_id: tenantB,
      })
    },
  )
})
