import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { PASSWORD, registerUser, tokenState } from '../helpers/app.ts'
import { createCustomer, createMember, directoryFixture, errorShape, login } from '../helpers/directory.ts'

inEachStorageMode(t, 'customer directory', async (t, mode) => {
  const { app, who, rec, req } = await directoryFixture(t, mode)
  let customerId = ''
  let userId = ''

  await t.test('POST /api/customers creates the account and the record in scope', async (t) => {
    const res = await req('POST', '/api/customers', who.acmeAdmin, {
      name: 'Erin Example',
      email: 'Erin@Acme.test',
      phone: '+49 30 1234',
      source: 'phone',
      tags: ['vip', 'de'],
      username: 'erin',
      password: PASSWORD,
    })
    t.equal(res.statusCode, 201, res.body)
    const c = res.json()
    customerId = c.id
    userId = c.user_id
    t.same(Object.keys(c).sort(), [
      'company',
      'created_at',
      'email',
      'id',
      'industry',
      'name',
      'notes',
      'phone',
      'priority',
      'source',
      'tags',
      'tenant_id',
      'updated_at',
      'user_id',
      'workspace_id',
    ])
    t.match(c, {
      tenant_id: 'acme',
      workspace_id: 'support',
      email: 'erin@acme.test',
      source: 'phone',
      tags: ['vip', 'de'],
    })
    t.notOk('password' in c)
    const upserted = await rec.find('identity.customer.upserted', (d: any) => d.customer_id === c.id)
    t.same(upserted.data.tags, ['vip', 'de'])
    const registered = await rec.find('identity.user.registered', (d: any) => d.user_id === c.user_id)
    t.equal(registered.data.role, 'customer')
    const audit = await rec.audit('customers.create', c.id)
    t.equal(audit.request_json.password, '[REDACTED]')
    const session = await login(app, 'erin', 'phone')
    t.equal(session.user.id, userId, 'the account can log in with the given password')
  })

  await t.test('defaults, generated username, refusals', async (t) => {
    const plain = await createCustomer(app, who.acmeAdmin, { name: 'Frank', email: 'frank.f@acme.test' })
    const got = (await req('GET', `/api/customers/${plain.id}`, who.acmeAdmin)).json()
    t.same([got.source, got.tags, got.phone], ['web', [], ''])
    const user = (await req('POST', '/api/security/users/query', who.acmeAdmin, { user_ids: [plain.user_id] })).json()
    t.match(user.items[0].username, /^frank\.f-[0-9a-f]{6}$/)
    t.equal(user.items[0].role, 'customer')
    const dup = await req('POST', '/api/customers', who.acmeAdmin, { name: 'x', email: 'ERIN@acme.test' })
    t.equal(dup.statusCode, 409, "the scope's own customer's e-mail")
    t.equal(dup.json().code, 'IDENTITY_CUSTOMER_EXISTS')
    t.equal((await req('POST', '/api/customers', who.acmeAdmin, { name: 'x', email: 'not-an-email' })).statusCode, 400)
    t.equal((await req('POST', '/api/customers', who.acmeAdmin, { email: 'n@acme.test' })).statusCode, 400)
    t.equal(
      (await req('POST', '/api/customers', who.platform, { name: 'x', email: 'y@z.test' })).statusCode,
      400,
      'needs a scope',
    )
    t.equal(
      (await req('POST', '/api/customers', who.acmeAgent, { name: 'x', email: 'y@z.test' })).statusCode,
      403,
      'agents read only',
    )
  })

  await t.test('GET list: search, source, tag, scope, pagination', async (t) => {
    await createCustomer(app, who.acmeAdmin, {
      name: 'Grace 100%_off',
      email: 'grace@acme.test',
      source: 'chat',
      tags: ['vip'],
    })
    await createCustomer(app, who.globexAdmin, { name: 'Erin Globex', email: 'erin@globex.test', tags: ['vip'] })
    const list = (q: string, h = who.acmeAdmin) => req('GET', `/api/customers${q}`, h).then((r) => r.json())
    t.equal((await list('')).total, 3)
    t.same(
      (await list('?search=ERIN')).data.map((c: any) => c.id),
      [customerId],
      'case-insensitive, scoped',
    )
    t.equal((await list('?search=1234')).total, 1, 'phone searched')
    t.equal((await list('?search=acme.test')).total, 3, 'email searched')
    t.equal((await list('?search=%25_')).total, 1, 'wildcards are literal')
    t.equal((await list('?search=%25')).total, 1)
    t.equal((await list('?source=chat')).total, 1)
    t.equal((await list('?tag=vip')).total, 2)
    t.equal((await list('?tag=de')).total, 1)
    t.equal((await list('?tag=vi')).total, 0, 'tags match whole')
    t.equal((await list('?tag=vip&source=phone')).total, 1)
    const page = await list('?page=2&page_size=2')
    t.same([page.page, page.page_size, page.pages, page.data.length], [2, 2, 2, 1])
    t.equal((await list('', who.globexAdmin)).total, 1)
    t.equal((await list('', who.platform)).total, 4, 'unscoped sees all')
    t.equal((await req('GET', '/api/customers', who.acmeAgent)).statusCode, 200, 'agents may read customers')
  })

  await t.test('PUT /:id: update, event, audit before/after', async (t) => {
    const res = await req('PUT', `/api/customers/${customerId}`, who.acmeAdmin, { name: 'Erin E.', phone: '555' })
    t.equal(res.statusCode, 200, res.body)
    t.match(res.json(), { name: 'Erin E.', phone: '555', source: 'phone' })
    await rec.find('identity.customer.upserted', (d: any) => d.customer_id === customerId && d.name === 'Erin E.')
    const audit = await rec.audit('customers.update', customerId)
    t.equal(audit.before_json.name, 'Erin Example')
    t.equal(audit.after_json.name, 'Erin E.')
    t.equal((await req('PUT', `/api/customers/${customerId}`, who.acmeAdmin, {})).statusCode, 400)
    t.equal((await req('PUT', `/api/customers/${customerId}`, who.acmeAdmin, { tenant_id: 'x' })).statusCode, 400)
  })

  await t.test('notes and tags', async (t) => {
    const note = await req('POST', `/api/customers/${customerId}/notes`, who.acmeAdmin, { content: 'prefers email' })
    t.equal(note.statusCode, 201, note.body)
    t.match(note.json(), { customer_id: customerId, author_user_id: 'admin-acme', content: 'prefers email' })
    const noteAudit = await rec.audit('customers.notes', customerId)
    t.equal(noteAudit.after_json.content, 'prefers email')
    t.equal(noteAudit.before_json, null)
    const notes = (await req('GET', `/api/customers/${customerId}/notes`, who.acmeAdmin)).json()
    t.same([notes.count, notes.items[0].content], [1, 'prefers email'])
    t.equal((await req('POST', `/api/customers/${customerId}/notes`, who.acmeAdmin, { content: '' })).statusCode, 400)

    const tags = await req('PUT', `/api/customers/${customerId}/tags`, who.acmeAdmin, { tags: ['churn-risk'] })
    t.equal(tags.statusCode, 200)
    t.same(tags.json().tags, ['churn-risk'])
    const tagAudit = await rec.audit('customers.tags', customerId)
    t.same([tagAudit.before_json, tagAudit.after_json], [{ tags: ['vip', 'de'] }, { tags: ['churn-risk'] }])
    await rec.find('identity.customer.upserted', (d: any) => d.customer_id === customerId && d.tags[0] === 'churn-risk')
    t.equal(
      (await req('PUT', `/api/customers/${customerId}/tags`, who.acmeAdmin, { tags: ['a', 'a'] })).statusCode,
      400,
    )
  })

  await t.test('POST /:id/revoke-tokens', async (t) => {
    const res = await req('POST', `/api/customers/${customerId}/revoke-tokens`, who.acmeAdmin)
    t.equal(res.statusCode, 200, res.body)
    t.same(res.json(), { customer_id: customerId, token_version: 2 })
    await rec.find(
      'identity.user.token_state_changed',
      (d: any) => d.user.user_id === userId && d.user.token_version === 2,
    )
    const audit = await rec.audit('customers.revoke_tokens', customerId)
    t.same([audit.before_json.token_version, audit.after_json.token_version], [1, 2])
    t.ok(audit.after_json.token_valid_after)
  })

  await t.test("another tenant's customer is not found anywhere", async (t) => {
    const missing = errorShape(await req('GET', '/api/customers/none', who.globexAdmin))
    t.equal(missing.status, 404)
    for (const [method, url, payload] of [
      ['GET', `/api/customers/${customerId}`, undefined],
      ['PUT', `/api/customers/${customerId}`, { name: 'hijack' }],
      ['GET', `/api/customers/${customerId}/notes`, undefined],
      ['POST', `/api/customers/${customerId}/notes`, { content: 'x' }],
      ['PUT', `/api/customers/${customerId}/tags`, { tags: ['x'] }],
      ['POST', `/api/customers/${customerId}/revoke-tokens`, undefined],
    ] as const) {
      t.same(errorShape(await req(method, url, who.globexAdmin, payload)), missing, `${method} ${url}`)
    }
    const c = (await req('GET', `/api/customers/${customerId}`, who.acmeAdmin)).json()
    t.same([c.name, c.tags], ['Erin E.', ['churn-risk']], 'nothing changed')
  })
})

// Staff name the e-mail (and maybe a username): the answer must not tell whether an account outside their scope
// holds it (another tenant's customer or staff), and no such account may be bound or touched. Users' e-mails and
// usernames are unique platform-wide, so the customer is made here as a contact (no login), answered like any other.
inEachStorageMode(t, 'customer directory: an e-mail held outside the scope makes a contact here', async (t, mode) => {
  const { app, who, req } = await directoryFixture(t, mode)
  const root = await registerUser(app, 'root') // the first account: a platform admin, staff
  t.equal(root.body.user.role, 'admin')
  const gavin = await createMember(app, who.globexAdmin, 'Gavin', 'example.com')
  const peter = await createMember(app, who.acmeAdmin, 'Peter', 'example.com')
  const before = await tokenState(app, { user_id: gavin.user_id })
  const usernameOf = async (userId: string) =>
    (await req('POST', '/api/security/users/query', who.acmeAdmin, { user_ids: [userId] })).json().items[0].username
  const keys = (o: object) => Object.keys(o).sort()
  const fresh = await req('POST', '/api/customers', who.acmeAdmin, { name: 'New', email: 'new@example.com' })
  t.equal(fresh.statusCode, 201, 'an e-mail nobody has')

  const cases = [
    ["another tenant's customer", { email: 'Gavin@Example.com', username: 'gavin2', password: PASSWORD }],
    ['a staff account', { email: 'root@example.com' }],
    ["another tenant's customer's username", { email: 'hendricks@example.com', username: 'gavin' }],
  ] as const
  for (const [what, body] of cases) {
    const res = await req('POST', '/api/customers', who.acmeAdmin, { name: 'Contact', source: 'phone', ...body })
    t.equal(res.statusCode, 201, `${what}: ${res.body}`)
    const c = res.json()
    t.same(keys(c), keys(fresh.json()), `${what}: the body of a normal creation`)
    t.match(c, { tenant_id: 'acme', workspace_id: 'support', email: body.email.toLowerCase(), source: 'phone' }, what)
    t.not(c.user_id, gavin.user_id, `${what}: not the other tenant's account`)
    t.not(c.user_id, root.body.user.id, `${what}: not the staff account`)
    t.same((await req('GET', `/api/customers/${c.id}`, who.acmeAdmin)).json(), c, `${what}: found in the scope`)
    const username = await usernameOf(c.user_id)
    if ('username' in body && body.username === 'gavin2')
      t.equal(username, 'gavin2', `${what}: the username asked for, as usual`)
    else t.match(username, /^[a-z]+-[0-9a-f]{6}$/, `${what}: a username drawn from the e-mail, as usual`)
    const asked = await req('POST', '/api/customers', who.acmeAdmin, { name: 'Again', email: body.email })
    t.equal(asked.statusCode, 409, `${what}: now the scope's own customer`)
    t.equal(asked.json().code, 'IDENTITY_CUSTOMER_EXISTS')
  }
  const noLogin = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { username: 'gavin2', password: PASSWORD },
  })
  t.equal(noLogin.statusCode, 401, "a contact's account is no login, whatever password the body had")

  // the scope's own customer: 409 as before, by e-mail and by its account's username
  const own = await req('POST', '/api/customers', who.acmeAdmin, { name: 'x', email: 'PETER@example.com' })
  t.same([own.statusCode, own.json().code], [409, 'IDENTITY_CUSTOMER_EXISTS'], "this scope's customer's e-mail")
  const ownName = await req('POST', '/api/customers', who.acmeAdmin, {
    name: 'x',
    email: 'other@example.com',
    username: peter.username,
  })
  t.same([ownName.statusCode, ownName.json().code], [409, 'IDENTITY_CUSTOMER_EXISTS'], "this scope's username")
  t.match(ownName.json().message, /username/)

  // the other accounts: untouched, still their own, still log in
  t.same(await tokenState(app, { user_id: gavin.user_id }), before, 'token state untouched')
  const theirs = await req('GET', '/api/customers', who.globexAdmin)
  t.equal(theirs.json().total, 1, 'no record added to the other tenant')
  t.match(theirs.json().data[0], { id: gavin.id, user_id: gavin.user_id, email: 'gavin@example.com' })
  t.equal((await login(app, 'gavin', 'phone')).user.id, gavin.user_id, 'the other tenant customer logs in')
  t.equal((await login(app, 'root', 'desk')).user.id, root.body.user.id, 'the staff account logs in')
  const mine = await req('GET', '/api/customers?page_size=100', who.acmeAdmin)
  t.equal(mine.json().total, 5, 'peter, new and the three contacts')
})
