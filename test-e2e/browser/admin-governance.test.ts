// The admin area's configuration screen (issue 22 §3, first cut) in a real browser against the embedded default:
// an admin opens Configuration from the rail, sees each portal field's effective value and the layer it comes from
// (the API's effective view; an LLM field shows ai-orchestrator's system value and source, equal to the API's, and
// so does each knowledge provider field),
// edits the brand name (a medium-risk change), reviews the changed paths before sending, applies it with change
// control and reads the API's risk answer; the public portal answers the new name, the history lists the change
// with its diff. An agent sees no Configuration link and the typed address says "Not permitted". No sleeps.

import { randomBytes } from 'node:crypto'
import t from 'tap'
import { login } from '../harness/auth.ts'
import { client, until } from '../harness/http.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

// LLM_MODEL: ai-orchestrator's system layer, shown as such on the screen (no LLM is called: no base URL)
const SYSTEM_MODEL = 'browser-system-model'
const system = await consoleSystem(t, 'embedded', { env: { LLM_MODEL: SYSTEM_MODEL } })
const browser = await launchBrowser(t)
const api = client(system.url)
const suffix = randomBytes(3).toString('hex')
const admin = await login(api, system.admin.username, system.admin.password)
const agent = await login(api, system.agent.username, system.agent.password)
const claims = JSON.parse(Buffer.from(admin.token.split('.')[1]!, 'base64url').toString()) as Record<string, string>
const portalQuery = `tenant_id=${claims.tenant_id}&workspace_id=${claims.workspace_id ?? ''}`
/** the public portal's brand once it reads `name` (the portal is resolved with a 250 ms memory) */
const brandIs = (name: string) =>
  until(`the public portal's brand ${name}`, async () => {
    const res = await api.get(`/public/portal/config?${portalQuery}`)
    return res.body.brand_name === name ? name : undefined
  })

t.test('an admin changes the portal brand (medium risk): effective value, source, review, history', async (t) => {
  const before = await api.get(`/public/portal/config?${portalQuery}`)
  t.equal(before.status, 200, before.text)
  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin)
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Configuration' }).click()
  await page.getByRole('heading', { name: 'Configuration', level: 1 }).waitFor({ timeout: WAIT_MS })
  t.equal(new URL(page.url()).pathname, '/admin/configuration')
  const brand = page.getByRole('textbox', { name: 'Brand name' })
  await brand.waitFor({ timeout: WAIT_MS })
  t.equal(await brand.inputValue(), before.body.brand_name, "the field shows the public portal's effective value")
  const source = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Brand name' }) })
  const view = await api.get('/api/security/config/workspace/effective', { token: admin.token })
  t.equal(view.status, 200, view.text)
  const brandField = view.body.fields.find((f: { path: string }) => f.path === 'portal.brand_name')
  t.equal(await source.locator('td').last().textContent(), brandField.source, "its source, as the API's")
  await checkAxe(t, page, 'the configuration screen')

  const name = `Brand ${suffix}`
  await brand.fill(name)
  await page.getByRole('button', { name: 'Review change' }).click()
  const paths = page.getByRole('list', { name: 'Changed paths' })
  await paths.waitFor({ timeout: WAIT_MS })
  t.same(await paths.getByRole('listitem').allTextContents(), [
    `portal.brand_name: ${JSON.stringify(before.body.brand_name)} → ${JSON.stringify(name)}`,
  ])
  t.equal(
    (await api.get(`/public/portal/config?${portalQuery}`)).body.brand_name,
    before.body.brand_name,
    'not yet sent',
  )
  await page.getByRole('textbox', { name: 'Change reference', exact: true }).fill(`CHG-${suffix}`)
  await page.getByRole('textbox', { name: 'Reason', exact: true }).fill('rebrand')
  await checkAxe(t, page, 'the review of a change')
  await page.getByRole('button', { name: 'Apply change' }).click()
  const answer = page.getByRole('status').filter({ hasText: 'Applied' })
  await answer.waitFor({ timeout: WAIT_MS })
  t.match(await answer.textContent(), /Risk medium — portal\.brand_name/, "the API's risk and changed paths")
  t.equal(await brandIs(name), name, 'the public portal has it')
  // the effective view is read again after the apply: its source cell follows once that answer is in
  const layer = source.locator('td').last()
  await layer.filter({ hasText: 'workspace' }).waitFor({ timeout: WAIT_MS })
  t.match(await layer.textContent(), 'workspace', 'now from the workspace layer')

  const history = page.getByRole('table', { name: 'Configuration history' })
  const row = history.getByRole('row').filter({ hasText: `CHG-${suffix}` })
  await row.waitFor({ timeout: WAIT_MS })
  t.match(await row.textContent(), /portal\.brand_name.*medium/)
  await row.getByRole('button', { name: `Show diff CHG-${suffix}` }).click()
  const diffRow = page
    .getByRole('table', { name: /^Diff / })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'portal.brand_name' }) })
  await diffRow.waitFor({ timeout: WAIT_MS })
  t.match(await diffRow.textContent(), JSON.stringify(name), 'the diff shows the new value')
  await checkAxe(t, page, 'the history with a diff')
})

t.test("the LLM section: each field's effective value and source are the API's", async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin, '/admin/configuration')
  const model = page.getByRole('textbox', { name: 'LLM model' })
  await model.waitFor({ timeout: WAIT_MS })
  const view = await api.get('/api/security/config/workspace/effective', { token: admin.token })
  t.equal(view.status, 200, view.text)
  const field = (path: string) => view.body.fields.find((f: { path: string }) => f.path === path)
  t.same(
    field('llm.model'),
    { path: 'llm.model', value: SYSTEM_MODEL, source: 'system' },
    "ai-orchestrator's LLM_MODEL",
  )
  const sourceOf = (label: string) =>
    page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: label }) })
      .locator('td')
      .last()
      .textContent()
  t.equal(await model.inputValue(), field('llm.model').value, 'the value shown is the effective one')
  t.equal(await sourceOf('LLM model'), 'system', 'and its source')
  const tokens = page.getByRole('spinbutton', { name: 'LLM max tokens' })
  t.equal(await tokens.inputValue(), String(field('llm.max_tokens').value), 'an unset field shows the code default')
  t.equal(await sourceOf('LLM max tokens'), field('llm.max_tokens').source)
  const key = field('llm.api_key')
  t.match(key, { value: null, secret: true })
  t.equal(await sourceOf('LLM API key (new value)'), key.source, "the key's layer")
  const keyInput = page.getByLabel('LLM API key (new value)')
  t.equal(await keyInput.getAttribute('type'), 'password', 'a key is a password field')
  t.equal(await keyInput.inputValue(), '', 'never filled in')
  const keyRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'LLM API key (new value)' }) })
  t.match(
    await keyRow.locator('td').first().textContent(),
    key.set ? 'a key is in effect' : 'no key in effect',
    'only whether a key is in effect',
  )
  await checkAxe(t, page, 'the effective LLM section')

  // the knowledge provider's section: every field's source is the one the API's effective view gives its path
  const knowledge = page.getByRole('form', { name: 'Knowledge provider', exact: true })
  const sources = await knowledge
    .locator('td[data-source]')
    .evaluateAll((tds) =>
      tds.map((td): [string, string] => [(td as any).getAttribute('data-source'), (td as any).textContent]),
    )
  t.ok(sources.length >= 6, `${sources.length} knowledge provider fields shown`)
  t.same(
    sources,
    sources.map(([path]) => [path, field(path)?.source ?? 'unavailable']),
    "each knowledge provider field's source is the API's",
  )
  t.ok(
    sources.every(([path]) => field(path)),
    'every knowledge provider field has an effective value in the API (none unavailable)',
  )
})

t.test("dual control: a rollback needs another administrator's approval; then it restores the portal", async (t) => {
  // a second administrator of the tenant, created by the first through the API (as identity-operators does)
  const pw = `Pw-gov2-${suffix}-0123456789`
  const created = await api.post(
    '/api/security/users',
    { username: `gov2_${suffix}`, email: `gov2_${suffix}@e2e.example.com`, role: 'admin', password: pw },
    { token: admin.token },
  )
  t.equal(created.status, 201, created.text)
  const second = { username: `gov2_${suffix}`, password: pw }

  // a medium change to roll back, made through the API by the first admin
  const ref = `CHG-RB-${suffix}`
  const start = (await api.get(`/public/portal/config?${portalQuery}`)).body.brand_name as string
  const put = await api.put(
    '/api/security/config/workspace',
    {
      portal: {
        ...((await api.get('/api/security/config/workspace', { token: admin.token })).body.config.portal ?? {}),
        brand_name: `Temp ${suffix}`,
      },
      change_ref: ref,
      reason: 'to undo',
    },
    { token: admin.token },
  )
  t.equal(put.status, 200, put.text)
  await brandIs(`Temp ${suffix}`)

  const first = await newPage(t, browser, system)
  await loginAs(first, system.admin, '/admin/configuration')
  const history = first.getByRole('table', { name: 'Configuration history' })
  const row = history.getByRole('row').filter({ hasText: ref })
  await row.waitFor({ timeout: WAIT_MS })
  await row.getByRole('button', { name: `Roll back ${ref}` }).click()
  const form = first.getByRole('form', { name: `Roll back ${ref}` })
  await form.getByRole('textbox', { name: 'Change reference', exact: true }).fill(`UNDO-${suffix}`)
  await form.getByRole('textbox', { name: 'Approval reference', exact: true }).fill(`APR-${suffix}`)
  await form.getByRole('textbox', { name: 'Reason', exact: true }).fill('undo the temp brand')
  const go = form.getByRole('button', { name: 'Roll back now' })
  t.ok(await go.isDisabled(), 'no rollback without the explicit confirmation')
  await form.getByRole('checkbox', { name: 'I confirm this rollback' }).check()
  await go.click()
  await form.getByRole('alert').filter({ hasText: 'APPROVAL_NOT_FOUND' }).waitFor({ timeout: WAIT_MS })
  t.pass('refused without an approval')

  // the executor approving its own rollback: recorded, but the API refuses to run on it
  const approveAs = async (page: typeof first, approvalRef: string) => {
    const approve = page.getByRole('form', { name: 'Approve a high-risk change' })
    await approve.getByRole('textbox', { name: 'Change reference to approve' }).fill(`UNDO-${suffix}`)
    await approve.getByRole('textbox', { name: 'Approval reference to approve' }).fill(approvalRef)
    await approve.getByRole('textbox', { name: 'Approval notes' }).fill('looked at the diff')
    await approve.getByRole('button', { name: 'Approve' }).click()
    await approve
      .getByRole('status')
      .filter({ hasText: `Approved: UNDO-${suffix} / ${approvalRef}` })
      .waitFor({ timeout: WAIT_MS })
  }
  await approveAs(first, `APR-${suffix}`)
  await go.click()
  await form.getByRole('alert').filter({ hasText: 'APPROVAL_SAME_ACTOR' }).waitFor({ timeout: WAIT_MS })
  t.equal(
    (await api.get(`/public/portal/config?${portalQuery}`)).body.brand_name,
    `Temp ${suffix}`,
    'nothing rolled back',
  )

  // the second administrator, in its own browser context, approves
  const other = await newPage(t, browser, system)
  await loginAs(other, second, '/admin/configuration')
  await other.getByRole('heading', { name: 'Configuration', level: 1 }).waitFor({ timeout: WAIT_MS })
  await approveAs(other, `APR-${suffix}`)
  await checkAxe(t, other, "the second administrator's approval")

  await go.click()
  await form.getByRole('status').filter({ hasText: 'Rolled back: portal.brand_name' }).waitFor({ timeout: WAIT_MS })
  t.equal(await brandIs(start), start, 'the portal is restored')
  const rb = history.getByRole('row').filter({ hasText: `UNDO-${suffix}` })
  await rb.waitFor({ timeout: WAIT_MS })
  t.match(await rb.textContent(), /portal\.brand_name.*high/, 'the rollback is in the history, high risk')
  await checkAxe(t, first, 'the rollback done')
})

t.test('an agent sees no Configuration link and the address says not permitted', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.agent)
  const rail = page.getByRole('navigation', { name: 'Console' })
  await rail.getByRole('link', { name: 'Tickets' }).waitFor({ timeout: WAIT_MS })
  t.equal(await rail.getByRole('link', { name: 'Configuration' }).count(), 0, 'no Configuration link')
  await page.goto('/admin/configuration')
  await page.getByRole('heading', { name: 'Not permitted' }).waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('textbox', { name: 'Brand name' }).count(), 0, 'nothing of the screen')
  t.equal((await api.get('/api/security/config/workspace', { token: agent.token })).status, 403, 'the API refuses')
})
