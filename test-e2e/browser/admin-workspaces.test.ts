// The admin area's Tenants and workspaces section in a real browser (Debian's Chromium) against the embedded
// default: a platform operator (a session bound to no tenant) creates a tenant and a workspace, switches the
// workspace's public registration and widget off (the API shows them, registration into it is then refused),
// disables it after a confirmation and switches the tenant's widget off, every change in the audit log; a platform
// administrator signed in to one tenant reads it without the write controls, and the API refuses its writes; an
// agent sees no link, the URL says "Not permitted" and the API refuses. axe clean. Every wait is on a role, a name
// or a text: no sleeps.
import { randomBytes } from 'node:crypto'
import t from 'tap'
import { login } from '../harness/auth.ts'
import { client, until } from '../harness/http.ts'
import { platformOperator } from '../harness/platform-operator.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)
const api = client(system.url)
const suffix = randomBytes(3).toString('hex')
const admin = await login(api, system.admin.username, system.admin.password)
const agent = await login(api, system.agent.username, system.agent.password)
const operator = await platformOperator(system, api, suffix)
const op = { token: operator.login.token }

t.test('a platform operator creates a tenant and a workspace, flips its switches and disables it', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, operator)
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Workspaces' }).click()
  await page.getByRole('heading', { name: 'Tenants and workspaces', level: 1 }).waitFor({ timeout: WAIT_MS })
  t.equal(new URL(page.url()).pathname, '/admin/workspaces')
  const tenants = page.getByRole('table', { name: 'Tenants' })
  await tenants.getByRole('rowheader', { name: system.tenant_id, exact: true }).waitFor({ timeout: WAIT_MS })
  const listed = await api.get('/api/security/tenants?page_size=100', op)
  t.same(
    [...(await tenants.getByRole('rowheader').allTextContents())].sort(),
    (listed.body.data as any[]).map((x) => x.id).sort(),
    'the tenants shown are the API’s',
  )
  await checkAxe(t, page, 'the tenants list')

  // a tenant
  const tenant = `acme${suffix}`
  const create = page.getByRole('form', { name: 'Create tenant' })
  await create.getByRole('textbox', { name: 'ID' }).fill(tenant)
  await create.getByRole('textbox', { name: 'Name' }).fill(`Acme ${suffix}`)
  await create.getByRole('button', { name: 'Create tenant' }).click()
  await page
    .getByRole('status')
    .filter({ hasText: `${tenant} created` })
    .waitFor({ timeout: WAIT_MS })
  const made = await api.get(`/api/security/tenants/${tenant}`, op)
  t.match(made.body, { id: tenant, name: `Acme ${suffix}`, status: 'active' }, 'the API has the tenant')

  // its workspace
  await tenants.getByRole('link', { name: `Workspaces of ${tenant}` }).click()
  const workspaces = page.getByRole('table', { name: `Workspaces of ${tenant}` })
  await page.getByText('This tenant has no workspaces.').waitFor({ timeout: WAIT_MS })
  const ws = 'support'
  const createWs = page.getByRole('form', { name: 'Create workspace' })
  await createWs.getByRole('textbox', { name: 'ID' }).fill(ws)
  await createWs.getByRole('button', { name: 'Create workspace' }).click()
  await workspaces.getByRole('rowheader', { name: ws, exact: true }).waitFor({ timeout: WAIT_MS })
  const registration = workspaces.getByRole('switch', { name: `Public registration in ${ws}` })
  const widget = workspaces.getByRole('switch', { name: `Widget in ${ws}` })
  t.ok(await registration.isChecked(), 'registration on by default')
  t.ok(await widget.isChecked(), 'the widget on by default')
  const portal = await api.get(`/public/portal/config?tenant_id=${tenant}&workspace_id=${ws}`)
  t.same(portal.body.widget.allowed_origins, [], 'no origins listed in the portal configuration')
  await workspaces.getByText('Any site (none listed)').waitFor({ timeout: WAIT_MS })
  await checkAxe(t, page, 'the workspaces of a tenant')

  // registration off: the API shows it and a visitor's registration there is refused
  await registration.click()
  await page
    .getByRole('status')
    .filter({ hasText: `Settings of ${ws} saved` })
    .waitFor({ timeout: WAIT_MS })
  await until('registration off in the API', async () => {
    const r = await api.get(`/api/security/tenants/${tenant}/workspaces/${ws}`, op)
    return r.body.settings?.public_registration === false ? r : undefined
  })
  t.notOk(await registration.isChecked(), 'the switch shows off')
  const closed = await api.post(
    '/api/v1/auth/register',
    {
      username: `visitor_${suffix}`,
      email: `visitor_${suffix}@e2e.example.com`,
      password: `Pw-v-${suffix}-0123456789`,
    },
    { headers: { 'x-tenant-id': tenant, 'x-workspace-id': ws } },
  )
  t.equal(closed.status, 403, 'a registration into it is refused')
  t.equal(closed.body.code, 'IDENTITY_REGISTRATION_CLOSED', 'registration into it is closed')

  // widget off
  await widget.click()
  await until('the widget off in the API', async () => {
    const r = await api.get(`/api/security/tenants/${tenant}/workspaces/${ws}`, op)
    return r.body.settings?.widget_enabled === false ? r : undefined
  })
  await until('the switch shows it', async () => ((await widget.isChecked()) ? undefined : true))
  t.pass('the widget switch is off in the API and on the page')

  // disable, after the confirmation
  const row = workspaces.getByRole('row').filter({ has: page.getByRole('rowheader', { name: ws, exact: true }) })
  await row.getByRole('button', { name: `Disable ${ws}` }).click()
  await row.getByText(`Disabling ${ws} signs out everyone in it at once.`).waitFor({ timeout: WAIT_MS })
  await checkAxe(t, page, 'the disable confirmation')
  await row.getByRole('button', { name: `Yes, disable ${ws}` }).click()
  await row.getByRole('cell', { name: 'Disabled' }).waitFor({ timeout: WAIT_MS })
  const disabled = await api.get(`/api/security/tenants/${tenant}/workspaces/${ws}`, op)
  t.equal(disabled.body.status, 'disabled', 'the API shows it disabled')
  await row.getByRole('button', { name: `Enable ${ws}` }).waitFor({ timeout: WAIT_MS })

  // the tenant's own widget switch (every workspace of it follows: effective is the tenant's AND the workspace's)
  await page.getByRole('link', { name: 'All tenants' }).click()
  const tenantWidget = tenants.getByRole('switch', { name: `Widget in ${tenant}` })
  t.ok(await tenantWidget.isChecked(), 'the tenant’s widget on')
  await tenantWidget.click()
  await until('the tenant’s widget off in the API', async () => {
    const r = await api.get(`/api/security/tenants/${tenant}`, op)
    return r.body.settings?.widget_enabled === false ? r : undefined
  })
  await until('its switch shows it', async () => ((await tenantWidget.isChecked()) ? undefined : true))
  t.pass('the tenant’s widget is off in the API and on the page')

  for (const [action, id] of [
    ['security.tenants_update', tenant],
    ['security.tenants_create', tenant],
    ['security.workspaces_create', `${tenant}/${ws}`],
    ['security.workspaces_update', `${tenant}/${ws}`],
    ['security.workspaces_disable', `${tenant}/${ws}`],
  ] as const) {
    const record = await until(`${action} in the audit log`, async () => {
      const res = await api.get(`/api/audit/logs?action=${action}&page_size=50`, op)
      return (res.body.data as any[] | undefined)?.find((r) => r.resource_id === id)
    })
    t.equal(record.resource_id, id, `${action} is in the audit log`)
  }
})

t.test('a platform administrator signed in to one tenant reads it; the API refuses its writes', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin, '/admin/workspaces')
  await page.getByRole('heading', { name: 'Tenants and workspaces', level: 1 }).waitFor({ timeout: WAIT_MS })
  const tenants = page.getByRole('table', { name: 'Tenants' })
  await tenants.getByRole('rowheader', { name: system.tenant_id, exact: true }).waitFor({ timeout: WAIT_MS })
  await page.getByText(/This session is bound to one tenant/).waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('form', { name: 'Create tenant' }).count(), 0, 'no create form')
  t.equal(await tenants.getByRole('button').count(), 0, 'no disable buttons')
  t.equal(await tenants.getByRole('switch').count(), 0, 'no tenant switches')
  await tenants.getByRole('link', { name: `Workspaces of ${system.tenant_id}` }).click()
  const workspaces = page.getByRole('table', { name: `Workspaces of ${system.tenant_id}` })
  await workspaces.getByRole('rowheader', { name: system.workspace_id, exact: true }).waitFor({ timeout: WAIT_MS })
  t.equal(await workspaces.getByRole('switch').count(), 0, 'no switches')
  await checkAxe(t, page, 'the read-only workspaces')
  const put = await api.put(
    `/api/security/tenants/${system.tenant_id}/workspaces/${system.workspace_id}`,
    { settings: { widget_enabled: false } },
    { token: admin.token },
  )
  t.equal(put.status, 403, 'the API refuses its change')
  t.equal(put.body.code, 'IDENTITY_PLATFORM_ONLY', 'a tenant-bound token may not change the registry')
})

t.test('an agent sees no Workspaces link; the URL says not permitted and the API refuses', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.agent)
  const rail = page.getByRole('navigation', { name: 'Console' })
  await rail.getByRole('link', { name: 'Tickets' }).waitFor({ timeout: WAIT_MS })
  t.equal(await rail.getByRole('link', { name: 'Workspaces' }).count(), 0, 'no Workspaces link')
  await page.goto('/admin/workspaces')
  await page.getByRole('heading', { name: 'Not permitted' }).waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('table').count(), 0, 'nothing of the screen shown')
  await checkAxe(t, page, '/admin/workspaces for an agent')
  const list = await api.get('/api/security/tenants', { token: agent.token })
  t.equal(list.status, 403, 'the API refuses the list')
  const create = await api.post('/api/security/tenants', { id: `nope${suffix}` }, { token: agent.token })
  t.equal(create.status, 403, 'and the create')
})
