import { systemCaller } from '@switchboard/platform'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { denyToken } from '../../src/commands/revocation.ts'
import { as, identityApp, PASSWORD, principal, registerUser, tokenState } from '../helpers/app.ts'

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

// An anonymous visitor names the e-mail: the answer must not tell whether an account has it anywhere else (another
// tenant's customer, a staff account), and no account outside the scope may be bound or touched.
inEachStorageMode(
  t,
  'internal widget customers: an e-mail held outside the scope makes a contact here, like a new one',
  async (t, mode) => {
    const { app } = await identityApp(t, mode)
    const root = await registerUser(app, 'root') // the first account: a platform admin, staff
    t.equal(root.body.user.role, 'admin')
    const platform = await as(principal())
    for (const id of ['initech', 'hooli']) {
      const made = await app.inject({
        method: 'POST',
        url: '/api/security/tenants',
        headers: platform,
        payload: { id, workspaces: [{ id: 'desk' }] },
      })
      t.equal(made.statusCode, 201, made.body)
    }
    const staffOf = (tenant_id: string) => as(principal({ tenant_id, workspace_id: 'desk' }))
    const directory = async (tenant_id: string, username: string) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/customers',
        headers: await staffOf(tenant_id),
        payload: { name: username, username, email: `${username}@example.com`, password: PASSWORD },
      })
      t.equal(res.statusCode, 201, res.body)
      return res.json() as { id: string; user_id: string }
    }
    const hooli = await directory('hooli', 'gavin')
    const local = await directory('initech', 'peter')
    const before = await tokenState(app, { user_id: hooli.user_id })
    const tickets = await as(
      principal({
        user_id: 'tickets',
        tenant_id: 'initech',
        workspace_id: 'desk',
        token_tenant_id: '',
        token_workspace_id: '',
      }),
    )
    const ask = (email: string) =>
      app.inject({
        method: 'POST',
        url: '/internal/widget/customers',
        payload: { email, name: 'Visitor' },
        headers: tickets,
      })
    const customer = async (id: string) =>
      (await app.inject({ method: 'GET', url: `/api/customers/${id}`, headers: await staffOf('initech') })).json()

    const cases = [
      ['another tenant', 'Gavin@Example.com'],
      ['staff', 'root@example.com'],
      ['nobody', 'new@example.com'],
    ] as const
    const made: Record<string, { customer_id: string; user_id: string }> = {}
    for (const [who, email] of cases) {
      const res = await ask(email)
      t.equal(res.statusCode, 201, `${who}: ${res.body}`)
      const body = res.json()
      t.match(body, { customer_id: String, user_id: String, created: true }, who)
      t.not(body.user_id, hooli.user_id, `${who}: not the other tenant's account`)
      t.not(body.user_id, root.body.user.id, `${who}: not the staff account`)
      t.match(await customer(body.customer_id), {
        tenant_id: 'initech',
        workspace_id: 'desk',
        user_id: body.user_id,
        email: email.toLowerCase(),
        source: 'widget',
      })
      const again = await ask(email.toUpperCase())
      t.equal(again.statusCode, 200, `${who}: a second message`)
      t.same(again.json(), { ...body, created: false }, `${who}: the same contact, reused`)
      made[who] = body
    }
    const contact = await app.inject({
      method: 'POST',
      url: '/api/security/users/query',
      headers: platform,
      payload: { user_ids: [made.nobody?.user_id] },
    })
    t.match(contact.json().items[0], { role: 'customer', status: 'active' }, "a contact's account")
    const contactLogin = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { username: 'new@example.com', password: PASSWORD },
    })
    t.equal(contactLogin.statusCode, 401, 'the visitor e-mail is no login')
    const registered = await registerUser(app, 'new')
    t.equal(registered.res.statusCode, 201, 'nor does it block the owner from registering')

    const reused = await ask('peter@example.com')
    t.equal(reused.statusCode, 200, "this scope's customer")
    t.same(reused.json(), { customer_id: local.id, user_id: local.user_id, created: false })

    // the other tenant's account: untouched, still its own, still logs in
    t.same(await tokenState(app, { user_id: hooli.user_id }), before, 'token state untouched')
    const theirs = await app.inject({
      method: 'GET',
      url: `/api/customers/${hooli.id}`,
      headers: await staffOf('hooli'),
    })
    t.match(theirs.json(), { user_id: hooli.user_id, email: 'gavin@example.com', tenant_id: 'hooli' })
    const listed = await app.inject({ method: 'GET', url: '/api/customers', headers: await staffOf('hooli') })
    t.equal(listed.json().total, 1, 'no record added to the other tenant')
    const login = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { username: 'gavin', password: PASSWORD },
    })
    t.equal(login.statusCode, 200, login.body)
    t.equal(login.json().user.id, hooli.user_id)
  },
)
