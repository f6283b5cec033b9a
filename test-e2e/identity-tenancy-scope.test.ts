// Tenancy of identity's callers end to end through the gateway, in both run modes: the scope a caller acts in
// (a platform admin's bindings and its unscoped token narrowed by selectors; the scope selector rules, conflict and
// widening included, on /api/* and on login) and end users refused on /api/*. That tenant B's records are
// answered to tenant A as missing ones is identity-tenancy-records.test.ts.
import { randomUUID } from 'node:crypto'
import { login, register } from './harness/auth.ts'
import { decodeJwt, forge, isError, likeMissing } from './harness/identity-kit.ts'
import { tenancyActors } from './harness/identity-tenants.ts'
import { inEachMode } from './harness/modes.ts'

inEachMode('identity tenancy scope', {}, async (t, system) => {
  const {
    api,
    suffix,
    secret,
    demo,
    tenantB,
    inB,
    inC,
    service,
    svcB,
    adminA,
    agentA,
    custPassword,
    custB,
    custBLogin,
    custA,
  } = await tenancyActors(system)

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
    // The error body plus the chooser's list (docs/api.md §2 "Choosing a tenant/workspace at login").
    const several = await loginAs({})
    t.equal(several.status, 400, several.text)
    t.match(several.body, { error: 'bad_request', code: 'IDENTITY_SCOPE_REQUIRED', request_id: String })
    t.same(
      several.body.scopes.map((s: { tenant_id: string; workspace_id: string; kind: string }) =>
        [s.tenant_id, s.workspace_id, s.kind].join('/'),
      ),
      [`${tenantB}/support/agent`, `${inC['x-tenant-id']}/${inC['x-workspace-id']}/customer`],
      'two bindings and none named: the two scopes to choose from',
    )
  })
})
