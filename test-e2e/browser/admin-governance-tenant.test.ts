// The tenant's governed configuration (issue 22 §3: "the scoped configuration of a tenant or workspace") in a real
// browser against the embedded default. Two tenant administrators of the demo tenant, each with records in two of its
// workspaces, sign in without naming one: identity gives them tenant-level sessions, which config-governance lets
// write the tenant's document (the layer under every workspace). A's Configuration screen works on the tenant: a
// high-risk LLM change reviewed with the API's risk and changed paths, proposed; B approves it in its own browser
// context (A is offered no Approve button); the tenant's document then holds it, the workspace's effective view
// shows it coming from the tenant layer, and the tenant's history lists it. The demo admin, bound to one workspace,
// is shown its workspace's document and the API refuses it the tenant's writes (403 TENANT_ADMIN_REQUIRED). axe on
// each page. A platform operator's unscoped session (no tenant) is first asked for a scope: it picks a workspace and
// changes its brand (only that workspace's document holds it), then the tenant and is shown the tenant's. No sleeps: every wait is on a role, a name, a text or an API answer.
import { randomBytes } from 'node:crypto'
import { mintServiceToken } from '@switchboard/cli'
import t from 'tap'
import { login } from '../harness/auth.ts'
import { client, until } from '../harness/http.ts'
import { platformOperator } from '../harness/platform-operator.ts'
import { approveChange, proposeLlmTimeout } from './admin-steps.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)
const api = client(system.url)
const suffix = randomBytes(3).toString('hex')
const admin = await login(api, system.admin.username, system.admin.password)
const tenantDoc = '/api/security/config/tenant'
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString())

// a second workspace of the demo tenant, and two tenant administrators with a record in each of its two workspaces
const { token: service } = await mintServiceToken({ service: 'e2e-tenant-admins', permissions: ['*'], env: system.env })
const second = `tw${suffix}`
const made = await api.post(`/api/security/tenants/${system.tenant_id}/workspaces`, { id: second }, { token: service })
if (made.status !== 201) throw new Error(`second workspace: ${made.status} ${made.text}`)
async function tenantAdmin(name: string) {
  const username = `${name}_${suffix}`
  const password = `Pw-${name}-${suffix}-0123456789`
  const created = await api.post(
    '/api/security/users',
    { username, email: `${username}@e2e.example.com`, role: 'admin', password },
    { token: admin.token },
  )
  if (created.status !== 201) throw new Error(`${name}: ${created.status} ${created.text}`)
  const bound = await api.post(
    '/api/agents',
    { user_id: created.body.user.id },
    { token: service, headers: { 'x-tenant-id': system.tenant_id, 'x-workspace-id': second } },
  )
  if (bound.status !== 201) throw new Error(`${name} in ${second}: ${bound.status} ${bound.text}`)
  const pair = await login(api, username, password)
  return { username, password, token: pair.token, id: created.body.user.id as string }
}
const a = await tenantAdmin('tenadm_a')
const b = await tenantAdmin('tenadm_b')

t.test('two tenant administrators change the tenant’s LLM under dual control', async (t) => {
  t.match(
    claimsOf(a.token),
    { tenant_id: system.tenant_id, workspace_id: '', roles: ['admin'] },
    'a tenant-level session: the tenant named, no workspace',
  )
  const ref = `TEN-${suffix}`
  const timeout = 40_000 + Math.floor(Math.random() * 10_000)
  const before = await api.get(tenantDoc, { token: a.token })
  t.equal(before.status, 200, before.text)

  const pageA = await newPage(t, browser, system)
  await loginAs(pageA, a, '/admin/configuration')
  await pageA.getByText(`Tenant ${system.tenant_id}: the layer under every workspace`).waitFor({ timeout: WAIT_MS })
  const llm = pageA.getByRole('form', { name: 'LLM', exact: true })
  await llm.waitFor({ timeout: WAIT_MS })
  const view = await api.get(`${tenantDoc}/effective`, { token: a.token })
  t.equal(view.status, 200, view.text)
  const timeoutField = (view.body.fields as any[]).find((f) => f.path === 'llm.timeout_ms')
  const timeoutRow = llm.getByRole('row').filter({ has: pageA.getByRole('rowheader', { name: 'LLM timeout (ms)' }) })
  t.equal(await timeoutRow.locator('td').last().textContent(), timeoutField.source, "the tenant view's source")
  t.equal(
    await llm.getByLabel('LLM timeout (ms)').inputValue(),
    String(timeoutField.value),
    "the tenant view's effective value",
  )
  await checkAxe(t, pageA, 'the tenant’s configuration')
  const paths = await proposeLlmTimeout(pageA, timeout, ref)
  t.same(
    paths.map((p) => p.split(':')[0]),
    ['llm.timeout_ms'],
    'the changed path, before sending',
  )
  t.equal(
    (await api.get(tenantDoc, { token: a.token })).body.config.llm?.timeout_ms,
    before.body.config.llm?.timeout_ms,
    'not applied while it waits',
  )
  const mine = pageA.getByRole('article', { name: `Change ${ref}` })
  await mine.getByRole('status').filter({ hasText: 'Waiting for another administrator' }).waitFor({ timeout: WAIT_MS })
  t.equal(await mine.getByRole('button', { name: `Approve ${ref}` }).count(), 0, 'no Approve button for the proposer')

  // B, in its own browser context, approves it from the tenant's Approvals
  const pageB = await newPage(t, browser, system)
  await loginAs(pageB, b, '/admin/configuration')
  await pageB.getByRole('article', { name: `Change ${ref}` }).waitFor({ timeout: WAIT_MS })
  await checkAxe(t, pageB, "the second tenant administrator's approvals")
  await approveChange(pageB, ref, 'tenant timeout reviewed')
  const applied = await until('the tenant’s document has it', async () => {
    const res = await api.get(tenantDoc, { token: b.token })
    return res.body.config.llm?.timeout_ms === timeout ? res.body : undefined
  })
  t.equal(applied.config.llm.timeout_ms, timeout, 'applied to the tenant')
  // every workspace inherits it: demo/main's effective view says it comes from the tenant
  const inherited = await api.get('/api/security/config/workspace/effective', { token: admin.token })
  t.same(
    (inherited.body.fields as any[]).find((f) => f.path === 'llm.timeout_ms'),
    { path: 'llm.timeout_ms', value: timeout, source: 'tenant' },
    "the workspace's effective value comes from the tenant layer",
  )
  const history = pageB.getByRole('table', { name: 'Configuration history' })
  const row = history.getByRole('row').filter({ hasText: ref })
  await row.waitFor({ timeout: WAIT_MS })
  t.match(await row.textContent(), /llm\.timeout_ms.*high/, "the tenant's history lists it, high risk")
})

t.test('a workspace-bound administrator is shown its workspace; the API refuses it the tenant', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin, '/admin/configuration')
  await page
    .getByText(`Workspace ${system.workspace_id} of tenant ${system.tenant_id}: its own layer`)
    .waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByText(/the layer under every workspace/).count(), 0, 'not the tenant’s document')
  await checkAxe(t, page, 'the workspace’s configuration')
  const put = await api.put(
    tenantDoc,
    { llm: { timeout_ms: 1234 }, change_ref: `NO-${suffix}`, reason: 'not mine' },
    { token: admin.token },
  )
  t.equal(put.status, 403, put.text)
  t.equal(put.body.code, 'TENANT_ADMIN_REQUIRED')
})

t.test('an unscoped platform operator picks a workspace, changes its brand, then picks the tenant', async (t) => {
  const operator = await platformOperator(system, api, suffix)
  const desk = `opsdesk${suffix}`
  const inTenant = { token: operator.login.token, headers: { 'x-tenant-id': system.tenant_id } }
  const inDesk = { token: operator.login.token, headers: { ...inTenant.headers, 'x-workspace-id': desk } }
  const inMain = {
    token: operator.login.token,
    headers: { ...inTenant.headers, 'x-workspace-id': system.workspace_id },
  }
  // the tenant's own brand, through the API: what the workspace inherits and picking the tenant must show
  const tenantBrand = `Tenant brand ${suffix}`
  const stored = await api.get(tenantDoc, inTenant)
  t.equal(stored.status, 200, stored.text)
  const set = await api.put(
    tenantDoc,
    { portal: { ...stored.body.config.portal, brand_name: tenantBrand }, change_ref: `TB-${suffix}`, reason: 'tenant' },
    inTenant,
  )
  t.equal(set.status, 200, `the tenant's brand set: ${set.status === 200 ? '' : set.text}`)

  const page = await newPage(t, browser, system)
  await loginAs(page, operator)
  await page.goto('/admin/configuration')
  const pick = page.getByRole('form', { name: 'Configuration scope' })
  await pick.waitFor({ timeout: WAIT_MS })
  await page.getByText(/^Choose a tenant \(its document/).waitFor({ timeout: WAIT_MS })
  const brand = page.getByRole('textbox', { name: 'Brand name' })
  t.equal(await brand.count(), 0, 'no document before a scope is picked')
  await checkAxe(t, page, "the platform operator's scope picker")

  await pick.getByRole('combobox', { name: 'Tenant' }).selectOption(system.tenant_id)
  await pick.getByRole('combobox', { name: 'Workspace' }).selectOption(desk)
  await page.getByText(`Workspace ${desk} of tenant ${system.tenant_id}: its own layer`).waitFor({ timeout: WAIT_MS })
  await brand.waitFor({ timeout: WAIT_MS })
  t.equal(await brand.inputValue(), tenantBrand, "the workspace's effective brand, inherited from the tenant")
  const name = `Desk brand ${suffix}`
  await brand.fill(name)
  await page.getByRole('button', { name: 'Review change' }).click()
  const paths = page.getByRole('list', { name: 'Changed paths' })
  await paths.waitFor({ timeout: WAIT_MS })
  t.same(await paths.getByRole('listitem').allTextContents(), [
    `portal.brand_name: ${JSON.stringify(tenantBrand)} → ${JSON.stringify(name)}`,
  ])
  await page.getByRole('textbox', { name: 'Change reference', exact: true }).fill(`DESK-${suffix}`)
  await page.getByRole('textbox', { name: 'Reason', exact: true }).fill('desk rebrand')
  await page.getByRole('button', { name: 'Apply change' }).click()
  const answer = page.getByRole('status').filter({ hasText: 'Applied' })
  await answer.waitFor({ timeout: WAIT_MS })
  t.match(await answer.textContent(), /Risk medium — portal\.brand_name/, "the API's risk and changed paths")
  const deskDoc = await api.get('/api/security/config/workspace', inDesk)
  t.equal(deskDoc.status, 200, deskDoc.text)
  t.equal(deskDoc.body.config.portal?.brand_name, name, "the picked workspace's stored document holds it")
  const mainDoc = await api.get('/api/security/config/workspace', inMain)
  t.equal(mainDoc.status, 200, mainDoc.text)
  t.not(mainDoc.body.config.portal?.brand_name, name, "another workspace's does not")
  t.equal((await api.get(tenantDoc, inTenant)).body.config.portal?.brand_name, tenantBrand, 'nor the tenant’s')
  const row = page
    .getByRole('table', { name: 'Configuration history' })
    .getByRole('row')
    .filter({ hasText: `DESK-${suffix}` })
  await row.waitFor({ timeout: WAIT_MS })
  t.match(await row.textContent(), /portal\.brand_name.*medium/, "the workspace's history lists it")
  await checkAxe(t, page, 'a picked workspace’s configuration')

  // the tenant itself: its document's values, its own history
  await pick.getByRole('combobox', { name: 'Workspace' }).selectOption('')
  await page.getByText(`Tenant ${system.tenant_id}: the layer under every workspace`).waitFor({ timeout: WAIT_MS })
  await until('the tenant’s brand shown', async () => ((await brand.inputValue()) === tenantBrand ? true : undefined))
  const source = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Brand name' }) })
  t.equal(await source.locator('td').last().textContent(), 'tenant', 'from the tenant layer')
  const history = page.getByRole('table', { name: 'Configuration history' })
  await history
    .getByRole('row')
    .filter({ hasText: `TB-${suffix}` })
    .waitFor({ timeout: WAIT_MS })
  t.equal(
    await history
      .getByRole('row')
      .filter({ hasText: `DESK-${suffix}` })
      .count(),
    0,
    'not the workspace’s change',
  )
  await checkAxe(t, page, 'a picked tenant’s configuration')
})
