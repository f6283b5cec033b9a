import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { as } from '../helpers/app.ts'
import { directoryFixture, errorShape, who } from '../helpers/directory.ts'

inEachStorageMode(t, 'tenant registry', async (t, mode) => {
  const { who: c, rec, req } = await directoryFixture(t, mode)
  const platformAdmin = await as(who({ kind: 'admin' }))
  const initechAdmin = await as(who({ kind: 'admin', tenant_id: 'initech', workspace_id: 'desk' }))

  await t.test('create: a tenant and its first workspaces, each announced', async (t) => {
    const res = await req('POST', '/api/security/tenants', platformAdmin, {
      id: 'initech',
      name: 'Initech',
      settings: { public_registration: false },
      workspaces: [
        { id: 'desk', name: 'Help desk' },
        { id: 'sales', settings: { widget_enabled: false } },
      ],
    })
    t.equal(res.statusCode, 201, res.body)
    t.match(res.json(), {
      id: 'initech',
      name: 'Initech',
      status: 'active',
      settings: { public_registration: false, widget_enabled: true },
      created_at: String,
      workspaces: [
        { id: 'desk', tenant_id: 'initech', name: 'Help desk', status: 'active' },
        { id: 'sales', name: 'sales', settings: { public_registration: true, widget_enabled: false } },
      ],
    })
    const upserted = await rec.find('identity.tenant.upserted', (d: any) => d.tenant_id === 'initech')
    t.same(upserted.data, {
      tenant_id: 'initech',
      name: 'Initech',
      status: 'active',
      settings: { public_registration: false, widget_enabled: true },
    })
    t.equal(upserted.tenant_id, 'initech', "the event carries the tenant's scope")
    const ws = await rec.find('identity.workspace.upserted', (d: any) => d.workspace_id === 'sales')
    t.match(ws, { tenant_id: 'initech', workspace_id: 'sales', data: { settings: { widget_enabled: false } } })
    await rec.find('identity.scope.status_changed', (d: any) => d.tenant_id === 'initech' && d.workspace_id === '')
    await rec.find('identity.scope.status_changed', (d: any) => d.workspace_id === 'desk' && d.active === true)
    const audit = await rec.find('audit.record.recorded', (d: any) => d.action === 'security.tenants_create')
    t.equal(audit.data.after_json.name, 'Initech')
    t.equal(audit.tenant_id, 'initech', "the audit record carries the tenant's scope")

    const again = await req('POST', '/api/security/tenants', platformAdmin, { id: 'initech' })
    t.equal(again.statusCode, 409)
    t.equal(again.json().code, 'IDENTITY_TENANT_EXISTS')
    for (const id of ['Initech', 'x', '-lead', 'a.b', 'ä-corp']) {
      const bad = await req('POST', '/api/security/tenants', platformAdmin, { id })
      t.equal(bad.statusCode, 400, `id ${id} is no slug`)
    }
    const dup = await req('POST', '/api/security/tenants', platformAdmin, {
      id: 'hooli',
      workspaces: [{ id: 'a1' }, { id: 'a1' }],
    })
    t.equal(dup.statusCode, 409, 'a workspace named twice')
    t.equal((await req('GET', '/api/security/tenants/hooli', platformAdmin)).statusCode, 404, 'nothing was made')
  })

  await t.test('reads: paginated list, one tenant, its workspaces', async (t) => {
    await req('POST', '/api/security/tenants', c.platform, { id: 'umbrella', workspaces: [{ id: 'lab' }] })
    const list = await req('GET', '/api/security/tenants?page_size=1', platformAdmin)
    t.equal(list.statusCode, 200)
    t.match(list.json(), { total: 2, page: 1, page_size: 1, pages: 2, data: [{ id: 'initech' }] })
    const got = await req('GET', '/api/security/tenants/umbrella', c.platform)
    t.match(got.json(), { id: 'umbrella', status: 'active' })
    const workspaces = await req('GET', '/api/security/tenants/initech/workspaces', platformAdmin)
    t.same(
      workspaces.json().data.map((w: any) => w.id),
      ['desk', 'sales'],
    )
    const one = await req('GET', '/api/security/tenants/initech/workspaces/desk', platformAdmin)
    t.match(one.json(), { id: 'desk', tenant_id: 'initech', name: 'Help desk' })
    const missing = await req('GET', '/api/security/tenants/initech/workspaces/nope', platformAdmin)
    t.equal(missing.json().code, 'IDENTITY_WORKSPACE_NOT_FOUND')
    t.equal((await req('GET', '/api/security/tenants/nope', platformAdmin)).json().code, 'IDENTITY_TENANT_NOT_FOUND')
  })

  await t.test('a tenant-bound admin reads its own tenant only and writes nothing', async (t) => {
    t.equal((await req('GET', '/api/security/tenants/initech', initechAdmin)).statusCode, 200)
    t.equal((await req('GET', '/api/security/tenants/initech/workspaces/desk', initechAdmin)).statusCode, 200)
    const list = await req('GET', '/api/security/tenants', initechAdmin)
    t.same(
      list.json().data.map((x: any) => x.id),
      ['initech'],
      'the list holds its tenant only',
    )
    const foreign = await req('GET', '/api/security/tenants/umbrella', initechAdmin)
    const missing = await req('GET', '/api/security/tenants/no-such', initechAdmin)
    t.equal(foreign.statusCode, 404)
    t.same({ ...errorShape(foreign), message: '' }, { ...errorShape(missing), message: '' }, 'like a missing one')
    t.equal((await req('GET', '/api/security/tenants/umbrella/workspaces', initechAdmin)).statusCode, 404)
    for (const [method, url, body] of [
      ['POST', '/api/security/tenants', { id: 'mine' }],
      ['PUT', '/api/security/tenants/initech', { name: 'x' }],
      ['POST', '/api/security/tenants/initech/disable', undefined],
      ['POST', '/api/security/tenants/initech/workspaces', { id: 'w2' }],
      ['PUT', '/api/security/tenants/initech/workspaces/desk', { name: 'x' }],
      ['POST', '/api/security/tenants/initech/workspaces/desk/disable', undefined],
    ] as const) {
      const res = await req(method, url, initechAdmin, body)
      t.equal(res.statusCode, 403, `${method} ${url}`)
      t.equal(res.json().code, 'IDENTITY_PLATFORM_ONLY')
    }
    const scopedService = await as(who({ kind: 'service', tenant_id: 'initech', workspace_id: 'desk' }))
    t.equal((await req('PUT', '/api/security/tenants/initech', scopedService, { name: 'x' })).statusCode, 403)
    t.equal((await req('GET', '/api/security/tenants', c.acmeAgent)).statusCode, 403, 'agents lack security.read')
  })

  await t.test('update merges settings; disable and enable announce the status once', async (t) => {
    const upd = await req('PUT', '/api/security/tenants/initech', platformAdmin, {
      name: 'Initech Corp',
      settings: { widget_enabled: false },
    })
    t.equal(upd.statusCode, 200)
    t.match(upd.json(), { name: 'Initech Corp', settings: { public_registration: false, widget_enabled: false } })
    const audit = await rec.audit('security.tenants_update', 'initech')
    t.equal(audit.before_json.name, 'Initech')
    t.equal(audit.after_json.name, 'Initech Corp')
    t.equal((await req('PUT', '/api/security/tenants/initech', platformAdmin, {})).statusCode, 400, 'empty update')
    t.equal(
      (await req('PUT', '/api/security/tenants/initech', platformAdmin, { status: 'disabled' })).statusCode,
      400,
      'status changes through /disable and /enable',
    )

    const off = await req('POST', '/api/security/tenants/initech/disable', platformAdmin)
    t.equal(off.statusCode, 200)
    t.equal(off.json().status, 'disabled')
    await rec.find('identity.scope.status_changed', (d: any) => d.tenant_id === 'initech' && d.active === false)
    const offAudit = await rec.audit('security.tenants_disable', 'initech')
    t.same([offAudit.before_json, offAudit.after_json], [{ status: 'active' }, { status: 'disabled' }])
    const twice = await req('POST', '/api/security/tenants/initech/disable', platformAdmin)
    t.equal(twice.json().status, 'disabled', 'idempotent')
    const wsOff = await req('POST', '/api/security/tenants/umbrella/workspaces/lab/disable', c.platform)
    t.equal(wsOff.json().status, 'disabled')

    const scopes = await req('GET', '/internal/token-state/scopes', c.platform)
    t.equal(scopes.statusCode, 200)
    t.same(scopes.json(), {
      items: [
        { tenant_id: 'initech', workspace_id: '', active: false },
        { tenant_id: 'umbrella', workspace_id: 'lab', active: false },
      ],
    })
    t.equal((await req('GET', '/internal/token-state/scopes', platformAdmin)).statusCode, 403, 'services only')

    t.equal((await req('POST', '/api/security/tenants/initech/enable', platformAdmin)).json().status, 'active')
    const tenantStatus = () =>
      rec.events
        .filter((e) => e.type === 'identity.scope.status_changed')
        .map((e) => e.data as { tenant_id: string; workspace_id: string; active: boolean })
        .filter((d) => d.tenant_id === 'initech' && d.workspace_id === '')
        .map((d) => d.active)
    await waitFor(() => (tenantStatus().length >= 3 ? true : undefined))
    t.same(tenantStatus(), [true, false, true], 'created, disabled, enabled: the repeated disable said nothing')
    t.same((await req('GET', '/internal/token-state/scopes', c.platform)).json().items, [
      { tenant_id: 'umbrella', workspace_id: 'lab', active: false },
    ])

    const wsNew = await req('POST', '/api/security/tenants/initech/workspaces', platformAdmin, { id: 'field' })
    t.equal(wsNew.statusCode, 201)
    t.equal(
      (await req('POST', '/api/security/tenants/initech/workspaces', platformAdmin, { id: 'field' })).statusCode,
      409,
    )
    t.equal(
      (await req('POST', '/api/security/tenants/nope/workspaces', platformAdmin, { id: 'field' })).json().code,
      'IDENTITY_TENANT_NOT_FOUND',
    )
    const wsUpd = await req('PUT', '/api/security/tenants/initech/workspaces/field', platformAdmin, {
      settings: { public_registration: false },
    })
    t.match(wsUpd.json(), { settings: { public_registration: false, widget_enabled: true } })
    await rec.find(
      'identity.workspace.upserted',
      (d: any) => d.workspace_id === 'field' && !d.settings.public_registration,
    )
  })
})
