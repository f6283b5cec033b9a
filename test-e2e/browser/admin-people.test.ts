// The admin area's People section in a real browser (Debian's Chromium) against the embedded default: the admin
// creates an agent (the set-password link shown once; opened in a fresh browser context it leads to the console's
// set-password page, where the person sets a password — a mismatch refused in words — and logs in with it; a second
// use is refused on the page and by the API), edits its capacity, skills and
// department (the API shows the new values), revokes its sessions (its token then refused by the gateway) and
// deactivates it (its login then refused), and the audit log has the changes; an agent sees no People link, the URL
// says "Not permitted" and the API refuses it. axe clean. Every wait is on a role, a name or a text: no sleeps.

import { randomBytes } from 'node:crypto'
import t from 'tap'
import { login } from '../harness/auth.ts'
import { client, until } from '../harness/http.ts'
import { platformOperator } from '../harness/platform-operator.ts'
import {
  checkAxe,
  consoleSystem,
  launchBrowser,
  loginAs,
  newPage,
  shellReady,
  submitLogin,
  WAIT_MS,
} from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)
const api = client(system.url)
const suffix = randomBytes(3).toString('hex')
const admin = await login(api, system.admin.username, system.admin.password)
const agent = await login(api, system.agent.username, system.agent.password)

t.test('an admin creates an agent, edits it, revokes its sessions and deactivates it', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin)
  const rail = page.getByRole('navigation', { name: 'Console' })
  await rail.getByRole('link', { name: 'People' }).click()
  await page.getByRole('heading', { name: 'People', level: 1 }).waitFor({ timeout: WAIT_MS })
  t.equal(new URL(page.url()).pathname, '/admin/people', 'the People link opens /admin/people')
  const table = page.getByRole('table', { name: 'Agents and operators' })
  await table.waitFor({ timeout: WAIT_MS })
  await checkAxe(t, page, 'the people list')

  // create: the one-time link
  const username = `people_ui_${suffix}`
  const form = page.getByRole('form', { name: 'Add a person' })
  await form.getByRole('textbox', { name: 'Username' }).fill(username)
  await form.getByRole('textbox', { name: 'E-mail' }).fill(`${username}@example.test`)
  await form.getByRole('textbox', { name: 'Full name' }).fill(`People UI ${suffix}`)
  await form.getByRole('combobox', { name: 'Role' }).selectOption('agent')
  await form.getByRole('button', { name: 'Create' }).click()
  const linkBox = page.getByRole('region', { name: 'Set-password link' })
  await linkBox.waitFor({ timeout: WAIT_MS })
  t.ok(await linkBox.getByRole('button', { name: 'Copy link' }).isVisible(), 'a copy button')
  const link = new URL(await linkBox.getByRole('textbox', { name: 'Set-password link' }).inputValue())
  t.equal(link.pathname, '/set-password', "the link leads to the console's set-password page")
  const token = link.searchParams.get('token') ?? ''
  t.ok(token.length >= 20, 'the link carries a token')
  await checkAxe(t, page, 'the one-time link')
  await linkBox.getByRole('button', { name: 'Done' }).click()
  await linkBox.waitFor({ state: 'detached', timeout: WAIT_MS })
  t.equal(await page.getByText(token).count(), 0, 'the link is gone once dismissed')

  // the recipient opens the link in a browser of their own, sets a password and logs in with it
  const password = `Pw-${suffix}-people-1!`
  const theirs = await newPage(t, browser, system)
  await theirs.goto(link.pathname + link.search)
  const setForm = theirs.getByRole('form', { name: 'Set your password' })
  await setForm.waitFor({ timeout: WAIT_MS })
  await checkAxe(t, theirs, 'the set-password page')
  await setForm.getByLabel('New password').fill(password)
  await setForm.getByLabel('Repeat the password').fill(`${password}?`)
  await setForm.getByRole('button', { name: 'Set password' }).click()
  await setForm.getByRole('alert').filter({ hasText: 'The two passwords differ.' }).waitFor({ timeout: WAIT_MS })
  await setForm.getByLabel('Repeat the password').fill(password)
  await setForm.getByRole('button', { name: 'Set password' }).click()
  await setForm
    .getByRole('status')
    .filter({ hasText: `Password set for ${username}.` })
    .waitFor({ timeout: WAIT_MS })
  t.equal(new URL(theirs.url()).search, '', 'the used token leaves the address bar')
  await setForm.getByRole('button', { name: 'Go to log in' }).click()
  await submitLogin(theirs, { username, password })
  await shellReady(theirs)
  t.pass('the new agent logs in to the console with the password it set')
  // a second use, on the page: refused in words
  await theirs.goto(link.pathname + link.search)
  await setForm.getByLabel('New password').fill(`${password}x`)
  await setForm.getByLabel('Repeat the password').fill(`${password}x`)
  await setForm.getByRole('button', { name: 'Set password' }).click()
  await setForm.getByRole('alert').filter({ hasText: 'This link is not valid' }).waitFor({ timeout: WAIT_MS })
  const again = await api.post('/api/v1/auth/set-password', { token, password: `${password}x` })
  t.equal(again.status, 400, 'a second use is refused')
  t.equal(again.body.code ?? again.body.error, 'IDENTITY_SET_PASSWORD_TOKEN_INVALID', again.text)
  const person = await login(api, username, password)
  t.equal(person.user.role, 'agent')
  t.equal((await api.get('/api/agents/me', { token: person.token })).status, 200, 'the new agent signs in and works')

  // edit capacity, skills and department
  const row = table.getByRole('row').filter({ hasText: username })
  await row.waitFor({ timeout: WAIT_MS })
  await row.getByRole('button', { name: `Edit People UI ${suffix}` }).click()
  const editor = page.getByRole('region', { name: `Edit People UI ${suffix}` })
  await editor.waitFor({ timeout: WAIT_MS })
  await editor.getByRole('spinbutton', { name: 'Capacity (max concurrent)' }).fill('7')
  await editor.getByRole('textbox', { name: 'Skills (comma-separated)' }).fill('billing, vip')
  await editor.getByRole('textbox', { name: 'Department' }).fill('Care')
  await editor.getByRole('button', { name: 'Save' }).click()
  await editor.getByRole('status').filter({ hasText: 'Saved' }).waitFor({ timeout: WAIT_MS })
  const me = await api.get('/api/agents/me', { token: person.token })
  t.equal(me.body.max_concurrent, 7, 'the API shows the new capacity')
  t.same(me.body.skills, ['billing', 'vip'], 'and the new skills')
  t.equal(me.body.department, 'Care', 'and the department')
  await row.getByText('billing, vip').waitFor({ timeout: WAIT_MS })
  await checkAxe(t, page, 'the person editor')

  // revoke sessions: its token refused by the gateway
  await editor.getByRole('button', { name: 'Revoke sessions' }).click()
  await editor.getByRole('status').filter({ hasText: 'Sessions revoked' }).waitFor({ timeout: WAIT_MS })
  await until('the revoked token refused', async () => {
    const res = await api.get('/api/agents/me', { token: person.token })
    return res.status === 401 ? res : undefined
  })
  t.pass('the revoked session token is refused (401)')

  // change role: the API shows it
  await editor.getByRole('combobox', { name: 'Role' }).selectOption('supervisor')
  await editor.getByRole('button', { name: 'Change role' }).click()
  await editor.getByRole('status').filter({ hasText: 'Role changed' }).waitFor({ timeout: WAIT_MS })
  const state = await api.get(`/api/security/users/${person.user.id}`, { token: admin.token })
  t.equal(state.body.role, 'supervisor', 'the API shows the new role')
  await row.getByRole('cell', { name: 'Supervisor' }).waitFor({ timeout: WAIT_MS })

  // deactivate: its login refused
  await editor.getByRole('button', { name: 'Deactivate' }).click()
  await editor.getByRole('status').filter({ hasText: 'Deactivated' }).waitFor({ timeout: WAIT_MS })
  await row.getByRole('cell', { name: 'Deactivated' }).waitFor({ timeout: WAIT_MS })
  await editor.getByRole('button', { name: 'Reactivate' }).waitFor({ timeout: WAIT_MS })
  const refused = await api.post('/api/v1/auth/login', { username, password })
  t.equal(refused.status, 403, `a deactivated person's login is refused: ${refused.text}`)

  // the audit log
  for (const action of [
    'security.users_create',
    'security.users_role',
    'security.users_status',
    'security.sessions_revoke_all',
  ]) {
    await until(`${action} in the audit log`, async () => {
      const res = await api.get(`/api/audit/logs?action=${action}&page_size=50`, { token: admin.token })
      return (res.body.data as any[] | undefined)?.find((r) => r.resource_id === person.user.id)
    })
    t.pass(`${action} is in the audit log`)
  }
})

t.test(
  'a platform operator makes a person a platform-wide administrator and back; a tenant-bound admin may not',
  async (t) => {
    const operator = await platformOperator(system, api, suffix)
    const username = `plat_${suffix}`
    const name = `Plat ${suffix}`
    const password = `Pw-plat-${suffix}-0123456789`
    const made = await api.post(
      '/api/security/users',
      { username, email: `${username}@e2e.example.com`, name, role: 'agent', password },
      { token: admin.token },
    )
    t.equal(made.status, 201, made.text)
    const id = made.body.user.id as string
    const stateOf = async () =>
      (await api.post('/api/security/users/query', { user_ids: [id] }, { token: operator.login.token })).body.items[0]
    const openEditor = async (page: Awaited<ReturnType<typeof newPage>>) => {
      const row = page
        .getByRole('table', { name: 'Agents and operators' })
        .getByRole('row')
        .filter({ hasText: username })
      await row.getByRole('button', { name: `Edit ${name}` }).click()
      const editor = page.getByRole('region', { name: `Edit ${name}` })
      await editor.getByRole('button', { name: 'Change role' }).waitFor({ timeout: WAIT_MS })
      return { row, editor }
    }

    // the demo admin's session is bound to its tenant (it acts as that tenant's administrator): no such control,
    // and the API refuses the grant anyway
    const tenantBound = await newPage(t, browser, system)
    await loginAs(tenantBound, system.admin, '/admin/people')
    const bound = await openEditor(tenantBound)
    t.equal(
      await bound.editor.getByRole('checkbox', { name: 'Platform-wide administrator' }).count(),
      0,
      'no platform-wide control for a tenant-bound session',
    )
    const refused = await api.put(
      `/api/security/users/${id}/role`,
      { role: 'admin', platform_admin: true },
      { token: admin.token },
    )
    t.equal(refused.status, 403, refused.text)
    t.equal(refused.body.code, 'IDENTITY_ROLE_NOT_GRANTABLE')

    // the platform operator (a session bound to no tenant) grants it on the page
    const page = await newPage(t, browser, system)
    await loginAs(page, operator, '/admin/people')
    const { row, editor } = await openEditor(page)
    const platform = editor.getByRole('checkbox', { name: 'Platform-wide administrator' })
    t.ok(await platform.isDisabled(), 'only an administrator can be platform-wide')
    await editor.getByRole('combobox', { name: 'Role' }).selectOption('admin')
    await platform.check()
    await checkAxe(t, page, 'the platform-wide administrator control')
    await editor.getByRole('button', { name: 'Change role' }).click()
    await editor.getByRole('status').filter({ hasText: 'Role changed' }).waitFor({ timeout: WAIT_MS })
    t.match(await stateOf(), { role: 'admin', admin_tenant_id: '' }, 'the API has a platform-wide administrator')
    await row.getByRole('cell', { name: 'Administrator (platform-wide)' }).waitFor({ timeout: WAIT_MS })
    const theirs = await login(api, username, password)
    const claims = JSON.parse(Buffer.from(theirs.token.split('.')[1]!, 'base64url').toString())
    t.equal(claims.admin_reach, 'platform', "the person's next token is a platform administrator's")
    const record = await until('the grant in the audit log', async () => {
      const res = await api.get(`/api/audit/logs?action=security.users_role&page_size=50`, {
        token: operator.login.token, // its act is recorded in its own (unscoped) scope
      })
      return (res.body.data as any[] | undefined)?.find((r) => r.resource_id === id && r.success) // not the refused attempt
    })
    const after = typeof record.after_json === 'string' ? JSON.parse(record.after_json) : record.after_json
    t.match(after, { role: 'admin', admin_tenant_id: '' }, 'audited with its reach')

    // and back to agent
    await editor.getByRole('combobox', { name: 'Role' }).selectOption('agent')
    t.ok(await platform.isDisabled(), 'the control off for an agent')
    await editor.getByRole('button', { name: 'Change role' }).click()
    await row.getByRole('cell', { name: 'Agent', exact: true }).waitFor({ timeout: WAIT_MS })
    t.match(await stateOf(), { role: 'agent', admin_tenant_id: '' }, 'the API has an agent again')
  },
)

t.test('an agent sees no People link; the URL says not permitted and the API refuses', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.agent)
  const rail = page.getByRole('navigation', { name: 'Console' })
  await rail.getByRole('link', { name: 'Tickets' }).waitFor({ timeout: WAIT_MS })
  t.equal(await rail.getByRole('link', { name: 'People' }).count(), 0, 'no People link')
  t.equal(await rail.getByRole('link', { name: /settings/i }).count(), 0, 'no Settings link')
  await page.goto('/admin/people')
  await page.getByRole('heading', { name: 'Not permitted' }).waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('table').count(), 0, 'nothing of the screen shown')
  await checkAxe(t, page, '/admin/people for an agent')
  const query = await api.post('/api/security/users/query', { user_ids: [agent.user.id] }, { token: agent.token })
  t.equal(query.status, 403, 'the API refuses the user query')
  const create = await api.post(
    '/api/security/users',
    { username: `nope_${suffix}`, email: `nope_${suffix}@example.test`, role: 'agent' },
    { token: agent.token },
  )
  t.equal(create.status, 403, 'and the create')
})
