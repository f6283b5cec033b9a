import { principalKind } from '@switchboard/auth'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { as, claimsOf, identityApp, loginUser, PASSWORD, registerUser, tokenState } from '../helpers/app.ts'
import { callers, recordEvents, who } from '../helpers/directory.ts'

/** The principal the gateway derives from `token`, optionally narrowed by selectors (admin and service tokens). */
async function asToken(token: string, scope?: { tenant_id: string; workspace_id: string }) {
  const c = claimsOf(token)
  // Written out whole: testPrincipal would take an unscoped token narrowed by selectors for a scoped one.
  return as({
    user_id: c.sub,
    kind: principalKind({ roles: c.roles, principal_kind: c.principal_kind }),
    roles: c.roles,
    permissions: c.permissions ?? [],
    tenant_id: scope?.tenant_id ?? c.tenant_id,
    workspace_id: scope?.workspace_id ?? c.workspace_id,
    token_tenant_id: c.tenant_id,
    token_workspace_id: c.workspace_id,
    session_id: c.session_id,
    jti: c.jti,
  })
}

const acmeSupport = { tenant_id: 'acme', workspace_id: 'support' }

inEachStorageMode(t, 'operators: accounts, roles, the last admin', async (t, mode) => {
  const { app, svc } = await identityApp(t, mode)
  const c = await callers()
  const rec = await recordEvents(svc.bus)
  t.teardown(() => rec.stop())
  const req = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
  const code = (res: { json(): any }) => res.json().code
  const operator = (headers: Record<string, string>, body: Record<string, unknown>) =>
    req('POST', '/api/security/users', headers, { email: `${body.username}@ops.test`, ...body })
  const setRole = (headers: Record<string, string>, id: string, body: Record<string, unknown>) =>
    req('PUT', `/api/security/users/${id}/role`, headers, body)

  const root = await registerUser(app, 'root') // the platform's first administrator: unbound, unscoped
  await req('POST', '/api/security/tenants', c.platform, {
    id: 'acme',
    workspaces: [{ id: 'support' }, { id: 'sales' }],
  })
  const rootToken = (await loginUser(app, 'root')).body.token
  const asRootInAcme = await asToken(rootToken, acmeSupport)
  const alice = { id: '', token: '' }
  const bob = { id: '', token: '' }

  await t.test('a platform admin creates a tenant administrator with a password', async (t) => {
    const res = await operator(asRootInAcme, { username: 'alice', name: 'Alice', role: 'admin', password: PASSWORD })
    t.equal(res.statusCode, 201, res.body)
    t.match(res.json(), {
      user: { username: 'alice', name: 'Alice', role: 'admin', status: 'active', admin_tenant_id: 'acme' },
      tenant_id: 'acme',
      workspace_id: 'support',
      agent_id: String,
      set_password: null,
    })
    alice.id = res.json().user.id
    const audit = await rec.audit('security.users_create', alice.id)
    t.equal(audit.request_json.password, '[REDACTED]')
    t.match(audit.after_json, { user: { role: 'admin', admin_tenant_id: 'acme' }, link_expires_at: null })
    await rec.find('identity.user.registered', (d: any) => d.user_id === alice.id && d.role === 'admin')
    await rec.find('identity.agent.upserted', (d: any) => d.user_id === alice.id)
    const login = await loginUser(app, 'alice')
    t.equal(login.res.statusCode, 200)
    alice.token = login.body.token
    t.match(claimsOf(alice.token), { tenant_id: 'acme', workspace_id: 'support', roles: ['admin'], permissions: ['*'] })
    t.notOk('admin_reach' in claimsOf(alice.token), "a tenant administrator's token has no platform claim")
    const aliceRefreshed = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refresh_token: login.body.refresh_token },
    })
    t.equal(aliceRefreshed.statusCode, 200, aliceRefreshed.body)
    t.notOk('admin_reach' in claimsOf(aliceRefreshed.json().token), 'nor does its refreshed one')
    t.equal(claimsOf(rootToken).admin_reach, 'platform', "the platform admin's unscoped token carries the claim")

    const dup = await operator(asRootInAcme, { username: 'alice', role: 'agent' })
    t.equal(dup.statusCode, 409)
    t.equal(code(dup), 'IDENTITY_DUPLICATE_USER')
    t.equal((await operator(asRootInAcme, { username: 'cust1', role: 'customer' })).statusCode, 400, 'staff roles only')
    const noScope = await operator(await asToken(rootToken), { username: 'nowhere', role: 'agent' })
    t.equal(noScope.statusCode, 400, 'an agent needs a workspace')
    const platformAgent = await operator(asRootInAcme, { username: 'pax', role: 'agent', platform_admin: true })
    t.equal(code(platformAgent), 'IDENTITY_INVALID_INPUT', 'platform_admin is for admins')
  })

  await t.test('a tenant administrator creates an agent with a one-time set-password link', async (t) => {
    const asAlice = await asToken(alice.token)
    const res = await operator(asAlice, { username: 'bob', role: 'agent' })
    t.equal(res.statusCode, 201, res.body)
    const link = res.json().set_password
    t.match(link, { token: String, expires_at: String, path: '/api/v1/auth/set-password' })
    const hours = (Date.parse(link.expires_at) - Date.now()) / 3600_000
    t.ok(hours > 23.9 && hours <= 24, 'valid for 24 h')
    bob.id = res.json().user.id
    const audit = await rec.audit('security.users_create', bob.id)
    t.notOk(JSON.stringify(audit).includes(link.token), 'the token is not in the audit record')
    const stored = await svc.db.selectFrom('password_tokens').selectAll().where('user_id', '=', bob.id).execute()
    t.equal(stored.length, 1)
    t.not(stored[0]?.token_hash, link.token, 'only a hash is stored')

    t.equal((await loginUser(app, 'bob')).res.statusCode, 401, 'no usable password yet')
    const set = (token: string, password = PASSWORD) =>
      req('POST', '/api/v1/auth/set-password', {}, { token, password })
    t.equal((await set(link.token, 'short')).statusCode, 400, 'password rules apply')
    const done = await set(link.token)
    t.equal(done.statusCode, 200, done.body)
    t.same(done.json(), { user_id: bob.id, username: 'bob' })
    const reuse = await set(link.token, 'another password 1')
    t.equal(reuse.statusCode, 400, 'single use')
    t.equal(code(reuse), 'IDENTITY_SET_PASSWORD_TOKEN_INVALID')
    t.equal(code(await set('made-up-token')), 'IDENTITY_SET_PASSWORD_TOKEN_INVALID')
    await svc.db
      .updateTable('password_tokens')
      .set({ used_at: null, expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute()
    t.equal(code(await set(link.token)), 'IDENTITY_SET_PASSWORD_TOKEN_INVALID', 'expired')
    const login = await loginUser(app, 'bob')
    t.equal(login.res.statusCode, 200)
    bob.token = login.body.token
    t.match(claimsOf(bob.token), { roles: ['agent'], tenant_id: 'acme', workspace_id: 'support' })

    const grant = await operator(asAlice, { username: 'boss2', role: 'admin', platform_admin: true })
    t.equal(grant.statusCode, 403, 'no platform admin from a tenant administrator')
    t.equal(code(grant), 'IDENTITY_ROLE_NOT_GRANTABLE')
    t.equal((await operator(await asToken(bob.token), { username: 'x1', role: 'agent' })).statusCode, 403, 'agents no')
    // Staff given security.write by a custom permission table manages accounts, but grants no admin.
    const writer = await as(
      who({ kind: 'agent', tenant_id: 'acme', workspace_id: 'support', permissions: ['security.*'] }),
    )
    const xx2 = await operator(writer, { username: 'xx2', role: 'agent', password: PASSWORD })
    t.equal(xx2.statusCode, 201)
    const adminByAgent = await operator(writer, { username: 'xx3', role: 'admin', password: PASSWORD })
    t.equal(code(adminByAgent), 'IDENTITY_ROLE_NOT_GRANTABLE')
    t.equal(code(await setRole(writer, xx2.json().user.id, { role: 'admin' })), 'IDENTITY_ROLE_NOT_GRANTABLE')
  })

  await t.test('a supervisor is staff of kind agent with the supervise permission', async (t) => {
    const res = await operator(await asToken(alice.token), { username: 'sue', role: 'supervisor', password: PASSWORD })
    t.equal(res.statusCode, 201, res.body)
    const claims = claimsOf((await loginUser(app, 'sue')).body.token)
    t.match(claims, { roles: ['supervisor'], tenant_id: 'acme', workspace_id: 'support' })
    t.notOk(claims.principal_kind, 'kind follows from the role: agent')
    t.equal(principalKind(claims as any), 'agent')
    for (const p of ['workspace.supervise', 'statistics.read', 'shift.*', 'tickets.write', 'customers.read']) {
      t.ok(claims.permissions.includes(p), p)
    }
    t.notOk(claims.permissions.includes('security.write'))
  })

  await t.test('a role change raises token_version and is announced and audited', async (t) => {
    const before = await tokenState(app, { user_id: bob.id })
    const oldVersion = claimsOf(bob.token).token_version
    const res = await setRole(await asToken(alice.token), bob.id, { role: 'supervisor' })
    t.equal(res.statusCode, 200, res.body)
    t.match(res.json(), { user_id: bob.id, username: 'bob', role: 'supervisor', admin_tenant_id: '' })
    const after = await tokenState(app, { user_id: bob.id })
    t.equal(after.user?.token_version, (before.user?.token_version ?? 0) + 1)
    t.ok((after.user?.token_version ?? 0) > oldVersion, "the old token's version is below the user's: refused")
    await rec.find('identity.user.role_changed', (d: any) => d.user_id === bob.id && d.role === 'supervisor')
    const audit = await rec.audit('security.users_role', bob.id)
    t.same([audit.before_json.role, audit.after_json.role], ['agent', 'supervisor'])
    const same = await setRole(await asToken(alice.token), bob.id, { role: 'supervisor' })
    t.equal(same.json().token_version, after.user?.token_version, 'the same role again changes nothing')
    t.match(claimsOf((await loginUser(app, 'bob')).body.token), { roles: ['supervisor'] })
  })

  await t.test('the last active administrator of a tenant stays', async (t) => {
    const asRoot = await asToken(rootToken)
    const demote = await setRole(asRoot, alice.id, { role: 'agent' })
    t.equal(demote.statusCode, 409, 'alice is the only administrator of acme')
    t.equal(code(demote), 'IDENTITY_LAST_ADMIN')
    const off = await req('PUT', `/api/security/users/${alice.id}/status`, asRoot, { status: 'inactive' })
    t.equal(code(off), 'IDENTITY_LAST_ADMIN', 'nor deactivated')

    // A second administrator: now one may demote the other (dual control has two people to work with).
    const carl = await operator(await asToken(alice.token), { username: 'carl', role: 'admin', password: PASSWORD })
    t.equal(carl.statusCode, 201, carl.body)
    t.equal(carl.json().user.admin_tenant_id, 'acme')
    const carlToken = (await loginUser(app, 'carl')).body.token
    const byCarl = await setRole(await asToken(carlToken), alice.id, { role: 'agent' })
    t.equal(byCarl.statusCode, 200, byCarl.body)
    t.match(byCarl.json(), { role: 'agent', admin_tenant_id: '' })
    const self = await setRole(await asToken(carlToken), carl.json().user.id, { role: 'agent' })
    t.equal(code(self), 'IDENTITY_LAST_ADMIN', 'carl is the last one now')
    const back = await setRole(await asToken(carlToken), alice.id, { role: 'admin' })
    t.match(
      back.json(),
      { role: 'admin', admin_tenant_id: 'acme' },
      'a tenant administrator grants admin of its tenant',
    )
  })

  await t.test('the last active platform administrator stays', async (t) => {
    // Bound in acme too (an agent record), so a caller narrowed to acme sees it.
    t.equal((await req('POST', '/api/agents', asRootInAcme, { user_id: root.body.user.id })).statusCode, 201)
    // With that one binding its login is scoped to acme/support (the demo admin's case) and still platform-wide.
    const rootScoped = claimsOf((await loginUser(app, 'root')).body.token)
    t.match(rootScoped, { tenant_id: 'acme', workspace_id: 'support', admin_reach: 'platform' }, 'scoped, platform')
    const demote = await setRole(c.platform, root.body.user.id, { role: 'customer' })
    t.equal(demote.statusCode, 409)
    t.match(demote.json(), { code: 'IDENTITY_LAST_ADMIN', message: /platform/ })
    const narrow = await setRole(c.platformInAcme, root.body.user.id, { role: 'admin' })
    t.equal(code(narrow), 'IDENTITY_LAST_ADMIN', 'narrowing it to one tenant counts as losing it')
    const off = await req('PUT', `/api/security/users/${root.body.user.id}/status`, c.platform, { status: 'inactive' })
    t.equal(code(off), 'IDENTITY_LAST_ADMIN')
    const second = await operator(c.platform, {
      username: 'ops',
      role: 'admin',
      platform_admin: true,
      password: PASSWORD,
    })
    t.equal(second.statusCode, 201, second.body)
    t.match(second.json(), { user: { admin_tenant_id: '' }, agent_id: null, tenant_id: '', workspace_id: '' })
    const opsLogin = await loginUser(app, 'ops')
    t.match(
      claimsOf(opsLogin.body.token),
      { tenant_id: '', workspace_id: '', roles: ['admin'], admin_reach: 'platform' },
      'unscoped',
    )
    const now = await setRole(await asToken(opsLogin.body.token), root.body.user.id, { role: 'customer' })
    t.equal(now.statusCode, 200, 'with a second platform administrator, the first can go')
    const back = await setRole(c.platform, root.body.user.id, { role: 'admin', platform_admin: true })
    t.match(back.json(), { role: 'admin', admin_tenant_id: '' })
    t.equal(
      code(await setRole(c.platform, root.body.user.id, { role: 'admin' })),
      undefined,
      'an admin keeps its reach',
    )

    // Narrowing a platform admin to one tenant takes the claim away: the old tokens (which carry it) are refused
    // (token_version + 1), and its next login has none.
    const opsVersion = claimsOf(opsLogin.body.token).token_version
    const opsAgent = await req('POST', '/api/agents', asRootInAcme, { user_id: second.json().user.id })
    t.equal(opsAgent.statusCode, 201, 'bound in acme, so a caller narrowed to acme sees it')
    const narrowOps = await setRole(c.platformInAcme, second.json().user.id, { role: 'admin' })
    t.match(narrowOps.json(), { role: 'admin', admin_tenant_id: 'acme' }, narrowOps.body)
    const opsState = await tokenState(app, { user_id: second.json().user.id })
    t.ok((opsState.user?.token_version ?? 0) > opsVersion, 'the platform-claim token is below the version: refused')
    const opsAgain = await loginUser(app, 'ops')
    t.equal(opsAgain.res.statusCode, 200, opsAgain.res.body)
    t.notOk('admin_reach' in claimsOf(opsAgain.body.token), 'a tenant administrator now: no platform claim')
  })

  await t.test('a tenant administrator manages its own tenant only', async (t) => {
    const asAlice = await asToken((await loginUser(app, 'alice')).body.token)
    // The platform admin bound in acme is visible there, but out of a tenant administrator's reach.
    const demoteRoot = await setRole(asAlice, root.body.user.id, { role: 'agent' })
    t.equal(demoteRoot.statusCode, 403)
    t.equal(code(demoteRoot), 'IDENTITY_ROLE_NOT_GRANTABLE')
    const offRoot = await req('PUT', `/api/security/users/${root.body.user.id}/status`, asAlice, { status: 'inactive' })
    t.equal(code(offRoot), 'IDENTITY_ROLE_NOT_GRANTABLE')
    t.equal(
      code(await setRole(asAlice, bob.id, { role: 'admin', platform_admin: true })),
      'IDENTITY_ROLE_NOT_GRANTABLE',
    )

    // A user of acme who is also a customer of globex: its role is global, so acme's admin may not change it.
    const dual = await req('POST', '/api/customers', asRootInAcme, {
      name: 'Dee',
      email: 'dee@acme.test',
      username: 'dee',
      password: PASSWORD,
    })
    const inGlobex = await asToken(rootToken, { tenant_id: 'globex', workspace_id: 'main' })
    t.equal((await req('POST', '/api/agents', inGlobex, { user_id: dual.json().user_id })).statusCode, 201)
    const grant = await setRole(asAlice, dual.json().user_id, { role: 'admin' })
    t.equal(code(grant), 'IDENTITY_ROLE_NOT_GRANTABLE')
    t.match(grant.json().message, /another tenant/)
    const globexOnly = await req('POST', '/api/customers', inGlobex, { name: 'Gus', email: 'gus@globex.test' })
    const foreign = await setRole(asAlice, globexOnly.json().user_id, { role: 'agent' })
    const missing = await setRole(asAlice, 'no-such-user', { role: 'agent' })
    t.equal(foreign.statusCode, 404, "another tenant's user answers like a missing one")
    t.same([code(foreign), foreign.json().message], [code(missing), missing.json().message])

    // Its login stays in its tenant: any workspace there, never another tenant, never unscoped.
    const sales = await loginUser(app, 'alice', {}, { tenant_id: 'acme', workspace_id: 'sales' })
    t.match(claimsOf(sales.body.token), { tenant_id: 'acme', workspace_id: 'sales' })
    const globex = await loginUser(app, 'alice', {}, { tenant_id: 'globex', workspace_id: 'main' })
    t.equal(globex.res.statusCode, 403)
    t.equal(code(globex.res), 'IDENTITY_SCOPE_NOT_BOUND')
  })

  await t.test('a staff role needs an agent record: a customer is bound first, not promoted', async (t) => {
    const cora = await req('POST', '/api/customers', c.platformInAcme, {
      name: 'Cora',
      email: 'cora@acme.test',
      username: 'cora',
      password: PASSWORD,
    })
    t.equal(cora.statusCode, 201, cora.body)
    const id = cora.json().user_id as string
    const versionBefore = (await tokenState(app, { user_id: id })).user?.token_version
    for (const body of [{ role: 'supervisor' }, { role: 'agent' }, { role: 'admin', platform_admin: true }]) {
      const refused = await setRole(c.platformInAcme, id, body)
      t.equal(refused.statusCode, 409, `${JSON.stringify(body)}: ${refused.body}`)
      t.match(refused.json(), {
        code: 'IDENTITY_AGENT_REQUIRED',
        message: new RegExp(`role ${body.role} needs an agent record.*POST /api/agents`),
      })
    }
    const state = await req('GET', `/api/security/users/${id}`, c.platformInAcme)
    t.equal(state.json().role, 'customer', 'nothing changed')
    t.equal((await tokenState(app, { user_id: id })).user?.token_version, versionBefore, 'no token revoked')
    t.notOk(claimsOf((await loginUser(app, 'cora')).body.token).permissions?.includes('tickets.write'), 'a customer')

    // Bound as an agent of acme/support (POST /api/agents makes a customer an agent), it may be promoted.
    t.equal((await req('POST', '/api/agents', c.platformInAcme, { user_id: id })).statusCode, 201)
    const promoted = await setRole(c.platformInAcme, id, { role: 'supervisor' })
    t.equal(promoted.statusCode, 200, promoted.body)
    const claims = claimsOf((await loginUser(app, 'cora', {}, acmeSupport)).body.token)
    t.match(claims, { roles: ['supervisor'], tenant_id: 'acme', workspace_id: 'support' })
    t.notOk('principal_kind' in claims, 'signed in through its agent record, not as an end user')
    t.ok(claims.permissions.includes('workspace.supervise'), 'with the supervisor’s permissions')
    await rec.find('identity.user.role_changed', (d: any) => d.user_id === id && d.role === 'supervisor')
    const changes = rec.events.filter((e) => e.type === 'identity.user.role_changed' && (e.data as any).user_id === id)
    t.same(
      changes.map((e) => (e.data as any).role),
      ['agent', 'supervisor'],
      'the refused changes announced nothing: the binding, then the promotion',
    )

    // A platform administrator with no binding at all signs in unscoped and needs no agent record; an agent would.
    const lone = await operator(c.platform, {
      username: 'lone',
      role: 'admin',
      platform_admin: true,
      password: PASSWORD,
    })
    t.equal(lone.statusCode, 201, lone.body)
    const loneId = lone.json().user.id as string
    t.equal((await setRole(c.platform, loneId, { role: 'admin', platform_admin: true })).statusCode, 200)
    t.equal(code(await setRole(c.platform, loneId, { role: 'agent' })), 'IDENTITY_AGENT_REQUIRED')
  })
})
