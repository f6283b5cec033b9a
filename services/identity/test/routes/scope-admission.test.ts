import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { as, claimsOf, identityApp, loginUser, registerUser } from '../helpers/app.ts'
import { callers, createMember, recordEvents, who } from '../helpers/directory.ts'

const inScope = (tenant: string, workspace: string) => ({ 'x-tenant-id': tenant, 'x-workspace-id': workspace })

inEachStorageMode(t, 'tenants and workspaces are records: who may enter them', async (t, mode) => {
  const { app, svc } = await identityApp(t, mode)
  const c = await callers()
  const rec = await recordEvents(svc.bus)
  t.teardown(() => rec.stop())
  const req = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
  const code = (res: { json(): any }) => res.json().code
  await registerUser(app, 'root') // the first user is the platform admin; later ones are customers
  const created = await req('POST', '/api/security/tenants', c.platform, {
    id: 'acme',
    workspaces: [{ id: 'support' }, { id: 'sales' }, { id: 'billing' }],
  })
  t.equal(created.statusCode, 201, created.body)

  await t.test('self-registration: unknown → 404, disabled → 403, closed → 403', async (t) => {
    const victim = await registerUser(app, 'mallory', {}, inScope('victimcorp', 'main'))
    t.equal(victim.res.statusCode, 404, 'X-Tenant-ID: victimcorp no longer makes a customer there')
    t.equal(code(victim.res), 'IDENTITY_TENANT_NOT_FOUND')
    t.equal((await loginUser(app, 'mallory')).res.statusCode, 401, 'and no account was left behind')
    const noWs = await registerUser(app, 'mallory', {}, inScope('acme', 'nowhere'))
    t.equal(noWs.res.statusCode, 404)
    t.equal(code(noWs.res), 'IDENTITY_WORKSPACE_NOT_FOUND')
    const viaBody = await registerUser(app, 'mallory', { tenant_id: 'victimcorp', workspace_id: 'main' })
    t.equal(code(viaBody.res), 'IDENTITY_TENANT_NOT_FOUND', 'through the body as well')

    t.equal((await req('POST', '/api/security/tenants/acme/workspaces/sales/disable', c.platform)).statusCode, 200)
    const wsOff = await registerUser(app, 'mallory', {}, inScope('acme', 'sales'))
    t.equal(wsOff.res.statusCode, 403)
    t.equal(code(wsOff.res), 'IDENTITY_WORKSPACE_DISABLED')

    await req('PUT', '/api/security/tenants/acme', c.platform, { settings: { public_registration: false } })
    const closed = await registerUser(app, 'mallory', {}, inScope('acme', 'support'))
    t.equal(closed.res.statusCode, 403)
    t.equal(code(closed.res), 'IDENTITY_REGISTRATION_CLOSED')
    await req('PUT', '/api/security/tenants/acme', c.platform, { settings: { public_registration: true } })
    await req('PUT', '/api/security/tenants/acme/workspaces/support', c.platform, {
      settings: { public_registration: false },
    })
    t.equal(
      code((await registerUser(app, 'mallory', {}, inScope('acme', 'support'))).res),
      'IDENTITY_REGISTRATION_CLOSED',
    )
    await req('PUT', '/api/security/tenants/acme/workspaces/support', c.platform, {
      settings: { public_registration: true },
    })

    await req('POST', '/api/security/tenants/acme/disable', c.platform)
    const tOff = await registerUser(app, 'mallory', {}, inScope('acme', 'support'))
    t.equal(tOff.res.statusCode, 403)
    t.equal(code(tOff.res), 'IDENTITY_TENANT_DISABLED')
    await req('POST', '/api/security/tenants/acme/enable', c.platform)

    const ok = await registerUser(app, 'sam', {}, inScope('acme', 'support'))
    t.equal(ok.res.statusCode, 201, ok.res.body)
    t.match(claimsOf(ok.body.token), { tenant_id: 'acme', workspace_id: 'support' })
    const unscoped = await registerUser(app, 'nomad')
    t.equal(unscoped.res.statusCode, 201, 'registration without a scope is unchanged')
  })

  await t.test('login and refresh: a disabled scope refuses, an unknown named one is 404', async (t) => {
    const sam = await loginUser(app, 'sam')
    t.equal(sam.res.statusCode, 200)
    await req('POST', '/api/security/tenants/acme/workspaces/support/disable', c.platform)
    const only = await loginUser(app, 'sam')
    t.equal(only.res.statusCode, 403, 'the only binding is in a disabled workspace')
    t.equal(code(only.res), 'IDENTITY_WORKSPACE_DISABLED')
    const named = await loginUser(app, 'sam', inScope('acme', 'support'))
    t.equal(code(named.res), 'IDENTITY_WORKSPACE_DISABLED')
    const refreshed = await req('POST', '/api/v1/auth/refresh', {}, { refresh_token: sam.body.refresh_token })
    t.equal(refreshed.statusCode, 403, 'no new tokens in a disabled workspace')
    t.equal(code(refreshed), 'IDENTITY_WORKSPACE_DISABLED')
    await req('POST', '/api/security/tenants/acme/disable', c.platform)
    t.equal(code((await loginUser(app, 'sam')).res), 'IDENTITY_TENANT_DISABLED', 'the tenant is named first')
    await req('POST', '/api/security/tenants/acme/enable', c.platform)
    await req('POST', '/api/security/tenants/acme/workspaces/support/enable', c.platform)
    t.equal((await loginUser(app, 'sam')).res.statusCode, 200, 'enabled again: welcome back')
    const again = await req('POST', '/api/v1/auth/refresh', {}, { refresh_token: sam.body.refresh_token })
    t.equal(again.statusCode, 200, 'and the refresh token works again')

    // Two bindings, one in a disabled workspace: login without a name takes the other; naming it is refused.
    const dana = await createMember(
      app,
      await as(who({ kind: 'service', ...inScopeIds('acme', 'support') })),
      'Dana',
      'acme.test',
    )
    const bound = await req(
      'POST',
      '/api/agents',
      // a platform service narrowed to billing: it may bind any user
      await as(
        who({
          kind: 'service',
          tenant_id: 'acme',
          workspace_id: 'billing',
          token_tenant_id: '',
          token_workspace_id: '',
        }),
      ),
      { user_id: dana.user_id },
    )
    t.equal(bound.statusCode, 201, bound.body)
    await req('POST', '/api/security/tenants/acme/workspaces/billing/disable', c.platform)
    const plain = await loginUser(app, 'dana')
    t.equal(plain.res.statusCode, 200, plain.res.body)
    t.match(claimsOf(plain.body.token), { tenant_id: 'acme', workspace_id: 'support' })
    const billing = await loginUser(app, 'dana', inScope('acme', 'billing'))
    t.equal(billing.res.statusCode, 403, 'login selecting a disabled workspace')
    t.equal(code(billing.res), 'IDENTITY_WORKSPACE_DISABLED')

    // The platform admin may name any scope, but only one that exists and is active.
    const nowhere = await loginUser(app, 'root', {}, { tenant_id: 'nowhere', workspace_id: 'x' })
    t.equal(nowhere.res.statusCode, 404, 'an admin logging in to a tenant that does not exist')
    t.equal(code(nowhere.res), 'IDENTITY_TENANT_NOT_FOUND')
    t.equal(
      code((await loginUser(app, 'root', {}, { tenant_id: 'acme', workspace_id: 'x' })).res),
      'IDENTITY_WORKSPACE_NOT_FOUND',
    )
    t.equal(
      code((await loginUser(app, 'root', {}, { tenant_id: 'acme', workspace_id: 'billing' })).res),
      'IDENTITY_WORKSPACE_DISABLED',
    )
    const rootIn = await loginUser(app, 'root', {}, { tenant_id: 'acme', workspace_id: 'sales' })
    t.equal(rootIn.res.statusCode, 403, 'sales is still disabled')
    const rootOk = await loginUser(app, 'root', {}, { tenant_id: 'acme', workspace_id: 'support' })
    t.match(claimsOf(rootOk.body.token), { tenant_id: 'acme', workspace_id: 'support', roles: ['admin'] })
    t.equal((await loginUser(app, 'root')).res.statusCode, 200, 'unscoped as before')
    // A customer naming a tenant that does not exist: not found rather than "not bound".
    t.equal(code((await loginUser(app, 'sam', inScope('nowhere', 'x'))).res), 'IDENTITY_TENANT_NOT_FOUND')
    t.equal(code((await loginUser(app, 'sam', inScope('acme', 'sales'))).res), 'IDENTITY_WORKSPACE_DISABLED')
  })

  await t.test('records: admin and service register an unknown scope; a disabled one refuses them', async (t) => {
    const svcGlobex = await as(who({ kind: 'service', ...inScopeIds('globex', 'main') }))
    const made = await req('POST', '/api/customers', svcGlobex, { name: 'Gil', email: 'gil@globex.test' })
    t.equal(made.statusCode, 201, made.body)
    const tenant = await req('GET', '/api/security/tenants/globex', c.platform)
    t.match(tenant.json(), { id: 'globex', name: 'globex', status: 'active' }, 'registered on first use')
    await rec.find('identity.tenant.upserted', (d: any) => d.tenant_id === 'globex')
    await rec.find('identity.workspace.upserted', (d: any) => d.tenant_id === 'globex' && d.workspace_id === 'main')
    await rec.find('identity.scope.status_changed', (d: any) => d.tenant_id === 'globex' && d.workspace_id === 'main')
    const acmeNew = await req(
      'POST',
      '/api/customers',
      await as(who({ kind: 'admin', ...inScopeIds('acme', 'desk') })),
      {
        name: 'Ann',
        email: 'ann@acme.test',
      },
    )
    t.equal(acmeNew.statusCode, 201, "an admin's record makes its workspace known")
    t.equal((await req('GET', '/api/security/tenants/acme/workspaces/desk', c.platform)).statusCode, 200)

    // Anyone else (an agent whose table grants customers.write) cannot conjure a tenant.
    const writer = await as(
      who({ kind: 'agent', ...inScopeIds('initrode', 'main'), permissions: ['customers.write', 'agents.write'] }),
    )
    const refused = await req('POST', '/api/customers', writer, { name: 'Ivo', email: 'ivo@initrode.test' })
    t.equal(refused.statusCode, 404)
    t.equal(code(refused), 'IDENTITY_TENANT_NOT_FOUND')

    await req('POST', '/api/security/tenants/globex/disable', c.platform)
    const off = await req('POST', '/api/customers', svcGlobex, { name: 'Gia', email: 'gia@globex.test' })
    t.equal(off.statusCode, 403, 'a disabled tenant refuses every creation')
    t.equal(code(off), 'IDENTITY_TENANT_DISABLED')
    const user = (await registerUser(app, 'gus')).body.user.id
    const agent = await req('POST', '/api/agents', svcGlobex, { user_id: user })
    t.equal(code(agent), 'IDENTITY_TENANT_DISABLED')
    const sales = await req('POST', '/api/agents', await as(who({ kind: 'service', ...inScopeIds('acme', 'sales') })), {
      user_id: user,
    })
    t.equal(code(sales), 'IDENTITY_WORKSPACE_DISABLED')
  })
})

/** The effective and token scope of a principal pinned to one workspace. */
function inScopeIds(tenant_id: string, workspace_id: string) {
  return { tenant_id, workspace_id, token_tenant_id: tenant_id, token_workspace_id: workspace_id }
}
