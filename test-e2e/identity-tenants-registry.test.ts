// Tenants and workspaces are records (issue 14 §4) end to end through the gateway, in both run modes: the seeded
// demo registry, `switchboard tenant create|list|disable|enable` against the running system, self-registration and
// login refused for unknown or disabled scopes, and a disabled tenant's tokens refused at the gateway until it is
// enabled again. The operator side (second admin, roles, last admin) is identity-operators.test.ts.
import { mintServiceToken } from '@switchboard/cli'
import { login, register } from './harness/auth.ts'
import { switchboard } from './harness/cli.ts'
import { until } from './harness/http.ts'
import { identityActors } from './harness/identity-actors.ts'
import { decodeJwt, isError, refusedWithin } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'

inEachMode('identity tenant registry', {}, async (t, system) => {
  const { api, suffix, admin, demo } = await identityActors(system)
  const tenant = `reg${suffix}`
  const inSupport = { 'x-tenant-id': tenant, 'x-workspace-id': 'support' }
  const inSales = { 'x-tenant-id': tenant, 'x-workspace-id': 'sales' }
  // What `switchboard token mint --service e2e --permission '*'` prints: an unscoped platform service.
  const { token: service } = await mintServiceToken({ service: 'e2e', permissions: ['*'], env: system.env })
  const asService = (headers: Record<string, string> = {}) => ({ token: service, headers })
  const cli = (...args: string[]) => switchboard(['tenant', ...args, '--gateway', system.url], system.env)

  t.test('the embedded default seeds demo/main as registered records', async (t) => {
    const demoTenant = await api.get(`/api/security/tenants/${system.tenant_id}`, asService())
    t.equal(demoTenant.status, 200, demoTenant.text)
    t.match(demoTenant.body, {
      id: system.tenant_id,
      status: 'active',
      settings: { public_registration: true, widget_enabled: true },
    })
    const ws = await api.get(`/api/security/tenants/${system.tenant_id}/workspaces/${system.workspace_id}`, asService())
    t.match(ws.body, { id: system.workspace_id, tenant_id: system.tenant_id, status: 'active' })

    // The demo admin's token is scoped to demo/main: it reads its own tenant and manages none.
    const own = await api.get(`/api/security/tenants/${system.tenant_id}`, { token: admin.token })
    t.equal(own.status, 200)
    const list = await api.get('/api/security/tenants', { token: admin.token })
    t.same(
      list.body.data.map((x: any) => x.id),
      [system.tenant_id],
    )
    isError(
      t,
      await api.post('/api/security/tenants', { id: `mine${suffix}` }, { token: admin.token }),
      403,
      'IDENTITY_PLATFORM_ONLY',
      'a tenant-bound admin creates no tenant',
    )
  })

  t.test('switchboard tenant create / list, then who may enter', async (t) => {
    const created = await cli('create', tenant, '--name', `Registry ${suffix}`, '--workspace', 'support:Support')
    t.match(created.stdout, new RegExp(`created tenant ${tenant} \\(Registry ${suffix}\\) with workspaces support`))
    const ws = await api.post(`/api/security/tenants/${tenant}/workspaces`, { id: 'sales' }, asService())
    t.equal(ws.status, 201, ws.text)
    const listed = JSON.parse((await cli('list', '--json')).stdout)
    t.ok(
      listed.items.some((x: any) => x.id === tenant && x.status === 'active'),
      'listed by the CLI',
    )
    const audit = await until('the audit record of the CLI create', async () => {
      const res = await api.get('/api/audit/logs?action=security.tenants_create&success=true', asService())
      return (res.body.data as any[] | undefined)?.find((r) => r.resource_id === tenant)
    })
    t.equal(audit.actor_user_id, 'service:switchboard-cli', 'audited as the CLI service')

    isError(
      t,
      await register(api, `victim_${suffix}`, { 'x-tenant-id': `victim${suffix}`, 'x-workspace-id': 'main' }),
      404,
      'IDENTITY_TENANT_NOT_FOUND',
      'self-registration into an unknown tenant',
    )
    isError(
      t,
      await register(api, `victim_${suffix}`, { 'x-tenant-id': tenant, 'x-workspace-id': 'nope' }),
      404,
      'IDENTITY_WORKSPACE_NOT_FOUND',
      'into an unknown workspace',
    )
    const reg = await register(api, `regcust_${suffix}`, inSupport)
    t.equal(reg.status, 201, reg.text)
    t.match(decodeJwt(reg.body.token).payload, { tenant_id: tenant, workspace_id: 'support' })
    isError(
      t,
      await api.post('/api/v1/auth/login', {
        username: admin.user.username,
        password: system.admin.password,
        tenant_id: `nowhere${suffix}`,
        workspace_id: 'x',
      }),
      404,
      'IDENTITY_TENANT_NOT_FOUND',
      'an admin logging in to a tenant that does not exist',
    )

    // A customer of sales (made by the platform service), then sales disabled: login selecting it is refused.
    const salesCust = await api.post(
      '/api/customers',
      {
        name: 'Sales customer',
        email: `sales_${suffix}@e2e.example.com`,
        username: `sales_${suffix}`,
        password: `Pw-sales-${suffix}-0123456789`,
      },
      asService(inSales),
    )
    t.equal(salesCust.status, 201, salesCust.text)
    const off = await api.post(`/api/security/tenants/${tenant}/workspaces/sales/disable`, undefined, asService())
    t.equal(off.body.status, 'disabled', off.text)
    isError(
      t,
      await api.post('/api/v1/auth/login', {
        username: `sales_${suffix}`,
        password: `Pw-sales-${suffix}-0123456789`,
        tenant_id: tenant,
        workspace_id: 'sales',
      }),
      403,
      'IDENTITY_WORKSPACE_DISABLED',
      'login selecting a disabled workspace',
    )
    isError(t, await register(api, `late_${suffix}`, inSales), 403, 'IDENTITY_WORKSPACE_DISABLED', 'registration too')
    isError(
      t,
      await api.post('/api/customers', { name: 'x', email: `x_${suffix}@e2e.example.com` }, asService(inSales)),
      403,
      'IDENTITY_WORKSPACE_DISABLED',
      'and new records',
    )
    await api.put(`/api/security/tenants/${tenant}`, { settings: { public_registration: false } }, asService())
    isError(
      t,
      await register(api, `closed_${suffix}`, inSupport),
      403,
      'IDENTITY_REGISTRATION_CLOSED',
      'a closed tenant',
    )
    await api.put(`/api/security/tenants/${tenant}`, { settings: { public_registration: true } }, asService())
  })

  t.test("a disabled tenant's tokens are refused at the gateway, and accepted again once enabled", async (t) => {
    const password = `Pw-regcust_${suffix}-0123456789`
    const session = await login(api, `regcust_${suffix}`, password)
    const me = () => api.get('/api/v1/auth/me', { token: session.token })
    t.equal((await me()).status, 200)
    const disabled = await cli('disable', tenant)
    t.equal(disabled.stdout.trim(), `tenant ${tenant} disabled`)
    const { reply, ms } = await refusedWithin(me, 2000)
    t.equal(reply.status, 401, `the token is refused (${ms} ms)`)
    isError(
      t,
      await api.post('/api/v1/auth/login', { username: `regcust_${suffix}`, password }),
      403,
      'IDENTITY_TENANT_DISABLED',
      'its users cannot log in',
    )
    isError(t, await register(api, `after_${suffix}`, inSupport), 403, 'IDENTITY_TENANT_DISABLED')
    t.equal((await api.get('/api/v1/auth/me', { token: admin.token, headers: demo })).status, 200, 'demo is untouched')

    await cli('enable', tenant)
    await until('the token accepted again', async () => ((await me()).status === 200 ? true : undefined))
    t.equal((await login(api, `regcust_${suffix}`, password)).user.username, `regcust_${suffix}`, 'and logins')
  })
})
