import { systemCaller } from '@switchboard/platform'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { denyToken } from '../../src/commands/revocation.ts'
import { as, identityApp, principal, registerUser, tokenState } from '../helpers/app.ts'

inEachStorageMode(t, 'internal token-state endpoints', async (t, mode) => {
  const { app, svc } = await identityApp(t, mode)
  const { body } = await registerUser(app, 'root')

  const anonymous = await app.inject({
    method: 'GET',
    url: '/internal/token-state',
    query: { user_id: body.user.id },
  })
  t.equal(anonymous.statusCode, 401)
  const asAdmin = await app.inject({
    method: 'GET',
    url: '/internal/token-state',
    query: { user_id: body.user.id },
    headers: await as(principal({ kind: 'admin', user_id: body.user.id, roles: ['admin'] })),
  })
  t.equal(asAdmin.statusCode, 403)
  t.match(asAdmin.json(), { code: 'IDENTITY_SERVICE_ONLY' })

  t.same(await tokenState(app, { user_id: 'missing', session_id: 'missing' }), { user: null, session: null })
  t.same(await tokenState(app, {}), { user: null, session: null })

  const now = Date.now()
  for (const [jti, offset] of [
    ['j-live', 3600_000],
    ['j-dead', -1000],
  ] as const) {
    await svc.transaction(systemCaller(), (tx) =>
      denyToken(tx, {
        jti,
        user_id: body.user.id,
        session_id: 's1',
        token_use: 'access',
        expires_at: new Date(now + offset).toISOString(),
        revoked_by: 'test',
        reason: 'test',
      }),
    )
  }
  const denied = await app.inject({
    method: 'GET',
    url: '/internal/token-state/denied',
    headers: await as(principal()),
  })
  t.equal(denied.statusCode, 200)
  t.same(denied.json(), {
    items: [
      {
        jti: 'j-live',
        user_id: body.user.id,
        session_id: 's1',
        token_use: 'access',
        expires_at: new Date(now + 3600_000).toISOString(),
      },
    ],
  })
})

inEachStorageMode(t, 'internal widget-scope: may a widget start sessions in this tenant/workspace', async (t, mode) => {
  const { app } = await identityApp(t, mode)
  const platform = await as(principal())
  const created = await app.inject({
    method: 'POST',
    url: '/api/security/tenants',
    headers: platform,
    payload: {
      id: 'initech',
      workspaces: [{ id: 'desk' }, { id: 'sales', settings: { widget_enabled: false } }, { id: 'lab' }],
    },
  })
  t.equal(created.statusCode, 201, created.body)
  const off = await app.inject({
    method: 'POST',
    url: '/api/security/tenants/initech/workspaces/lab/disable',
    headers: platform,
  })
  t.equal(off.statusCode, 200, off.body)

  const ask = async (query: Record<string, string>, headers: Record<string, string> | null = platform) =>
    app.inject({ method: 'GET', url: '/internal/widget-scope', query, ...(headers ? { headers } : {}) })

  const open = await ask({ tenant_id: 'initech', workspace_id: 'desk' })
  t.equal(open.statusCode, 200)
  t.same(open.json(), { tenant_id: 'initech', workspace_id: 'desk' })

  const cases: Array<[Record<string, string>, number, string]> = [
    [{ tenant_id: 'initech', workspace_id: 'sales' }, 403, 'IDENTITY_WIDGET_DISABLED'],
    [{ tenant_id: 'initech', workspace_id: 'lab' }, 403, 'IDENTITY_WORKSPACE_DISABLED'],
    [{ tenant_id: 'initech', workspace_id: 'nowhere' }, 404, 'IDENTITY_WORKSPACE_NOT_FOUND'],
    [{ tenant_id: 'hooli', workspace_id: 'desk' }, 404, 'IDENTITY_TENANT_NOT_FOUND'],
    [{ tenant_id: 'initech' }, 400, 'VALIDATION_FAILED'],
    [{ tenant_id: 'initech', workspace_id: 'a/b' }, 400, 'VALIDATION_FAILED'],
  ]
  for (const [query, status, code] of cases) {
    const res = await ask(query)
    t.equal(res.statusCode, status, JSON.stringify(query))
    t.equal(res.json().code, code, JSON.stringify(query))
  }

  const admin = await ask(
    { tenant_id: 'initech', workspace_id: 'desk' },
    await as(principal({ kind: 'admin', roles: ['admin'] })),
  )
  t.equal(admin.statusCode, 403, 'service principals only')
  t.equal(admin.json().code, 'IDENTITY_SERVICE_ONLY')
  t.equal((await ask({ tenant_id: 'initech', workspace_id: 'desk' }, null)).statusCode, 401, 'not without a principal')
})

inEachStorageMode(
  t,
  "internal widget customers: a widget's message finds or makes the e-mail's customer",
  async (t, mode) => {
    const { app } = await identityApp(t, mode)
    const platform = await as(principal())
    const created = await app.inject({
      method: 'POST',
      url: '/api/security/tenants',
      headers: platform,
      payload: { id: 'initech', workspaces: [{ id: 'desk' }, { id: 'sales', settings: { widget_enabled: false } }] },
    })
    t.equal(created.statusCode, 201, created.body)
    const tickets = (workspace_id: string, tenant_id = 'initech') =>
      as(principal({ user_id: 'tickets', tenant_id, workspace_id, token_tenant_id: '', token_workspace_id: '' }))
    const ask = async (payload: object, headers: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/internal/widget/customers', payload, headers })

    const made = await ask({ email: 'Vera@Example.com', name: 'Vera' }, await tickets('desk'))
    t.equal(made.statusCode, 201, made.body)
    t.match(made.json(), { customer_id: String, user_id: String, created: true })
    const again = await ask({ email: 'vera@example.com' }, await tickets('desk'))
    t.equal(again.statusCode, 200)
    t.same(again.json(), { ...made.json(), created: false }, 'the same customer, by e-mail')
    const listed = await app.inject({
      method: 'GET',
      url: `/api/customers/${made.json().customer_id}`,
      headers: await as(principal({ tenant_id: 'initech', workspace_id: 'desk' })),
    })
    t.match(listed.json(), { email: 'vera@example.com', name: 'Vera', source: 'widget' })

    const off = await ask({ email: 'ann@example.com' }, await tickets('sales'))
    t.equal(off.statusCode, 403)
    t.equal(off.json().code, 'IDENTITY_WIDGET_DISABLED')
    const unknown = await ask({ email: 'ann@example.com' }, await tickets('desk', 'hooli'))
    t.equal(unknown.statusCode, 404)
    t.equal(unknown.json().code, 'IDENTITY_TENANT_NOT_FOUND')
    const bad = await ask({ email: 'not-an-email' }, await tickets('desk'))
    t.equal(bad.statusCode, 400)
    const admin = await ask(
      { email: 'ann@example.com' },
      await as(principal({ kind: 'admin', roles: ['admin'], tenant_id: 'initech', workspace_id: 'desk' })),
    )
    t.equal(admin.statusCode, 403, 'service principals only')
  },
)
