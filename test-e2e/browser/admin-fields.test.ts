// The admin area's Custom fields builder in a real browser (Debian's Chromium) against the embedded default: the
// admin builds a select field and a required field shown only when `all` of two conditions hold; the live preview
// (the agent's own ticket form) shows and hides it as the sample ticket's values meet the conditions, under `any` as
// under `all`; saved, the API
// answers it with its condition and the audit log has it; the agent's real ticket form then shows it under the same
// condition and saves a value the API returns. A field is deleted. An agent sees no link, the URL says "Not
// permitted" and the API refuses the writes. axe clean. Every wait is on a role, a name or a text: no sleeps.

import { randomBytes } from 'node:crypto'
import t from 'tap'
import { login } from '../harness/auth.ts'
import { client, until } from '../harness/http.ts'
import { createTicket, realCustomer } from '../harness/tickets-kit.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)
const api = client(system.url)
const suffix = randomBytes(3).toString('hex')
const admin = await login(api, system.admin.username, system.admin.password)
const agent = await login(api, system.agent.username, system.agent.password)
const asAdmin = { token: admin.token }
const asAgent = { token: agent.token }

t.test('an admin builds a conditional field with a live preview; the agent’s form follows it', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin)
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Custom fields' }).click()
  await page.getByRole('heading', { name: 'Custom fields', level: 1 }).waitFor({ timeout: WAIT_MS })
  t.equal(new URL(page.url()).pathname, '/admin/fields')
  await page.getByText('No custom fields yet.').waitFor({ timeout: WAIT_MS })
  await checkAxe(t, page, 'the empty field list')

  // the condition's subject: a choice
  await page.getByRole('button', { name: 'New field' }).click()
  let editor = page.getByRole('form', { name: 'New field' })
  await editor.getByRole('textbox', { name: 'Key' }).fill('plan')
  await editor.getByRole('textbox', { name: 'Label' }).fill('Plan')
  await editor.getByRole('combobox', { name: 'Type' }).selectOption('select')
  await editor.getByRole('textbox', { name: 'Options (comma-separated)' }).fill('free, pro')
  await editor.getByRole('button', { name: 'Save field' }).click()
  await page.getByRole('status').filter({ hasText: 'Field plan saved' }).waitFor({ timeout: WAIT_MS })

  // the conditional field: required, shown when category is billing and the plan is not free
  await page.getByRole('button', { name: 'New field' }).click()
  editor = page.getByRole('form', { name: 'New field' })
  await editor.getByRole('textbox', { name: 'Key' }).fill('po_number')
  await editor.getByRole('textbox', { name: 'Label' }).fill('PO number')
  await editor.getByRole('checkbox', { name: 'Required' }).check()
  const preview = page.getByRole('form', { name: 'Ticket form preview' })
  const sample = page.getByRole('group', { name: 'Sample ticket' })
  const po = preview.getByRole('textbox', { name: 'PO number' })
  await po.waitFor({ timeout: WAIT_MS })
  t.pass('with no condition the preview shows the new field')
  await editor.getByRole('combobox', { name: 'Show this field' }).selectOption('all')
  const first = editor.getByRole('group', { name: 'Condition 1' })
  await first.getByRole('combobox', { name: 'Field' }).selectOption('ticket.category')
  await first.getByRole('combobox', { name: 'Operator' }).selectOption('eq')
  await first.getByRole('textbox', { name: 'Value' }).fill('billing')
  await po.waitFor({ state: 'detached', timeout: WAIT_MS })
  t.pass('the sample ticket (category general) hides it')
  await editor.getByRole('button', { name: 'Add condition' }).click()
  const second = editor.getByRole('group', { name: 'Condition 2' })
  await second.getByRole('combobox', { name: 'Field' }).selectOption('cf.plan')
  await second.getByRole('combobox', { name: 'Operator' }).selectOption('neq')
  await second.getByRole('combobox', { name: 'Value' }).selectOption('free')
  await sample.getByRole('textbox', { name: 'Category' }).fill('billing')
  await po.waitFor({ timeout: WAIT_MS })
  t.pass('category billing and no plan: both hold, the field shows')
  await preview.getByRole('combobox', { name: 'Plan' }).selectOption('free')
  await po.waitFor({ state: 'detached', timeout: WAIT_MS })
  t.pass('plan free: the second fails, the field hides')
  await preview.getByRole('combobox', { name: 'Plan' }).selectOption('pro')
  await po.waitFor({ timeout: WAIT_MS })
  t.pass('plan pro: it shows again')
  // `any`: one holding condition is enough — with category general, plan pro alone shows it (`all` would not)
  const join = editor.getByRole('combobox', { name: 'Show this field' })
  await join.selectOption('any')
  await sample.getByRole('textbox', { name: 'Category' }).fill('general')
  await preview.getByRole('combobox', { name: 'Plan' }).selectOption('free')
  await po.waitFor({ state: 'detached', timeout: WAIT_MS })
  t.pass('any: neither holds, the field hides')
  await preview.getByRole('combobox', { name: 'Plan' }).selectOption('pro')
  await po.waitFor({ timeout: WAIT_MS })
  t.pass('any: plan pro alone shows it, category general notwithstanding')
  await join.selectOption('all')
  await po.waitFor({ state: 'detached', timeout: WAIT_MS })
  t.pass('all again: category general hides it')
  await sample.getByRole('textbox', { name: 'Category' }).fill('billing')
  await po.waitFor({ timeout: WAIT_MS })
  await checkAxe(t, page, 'the editor and the live preview')
  await editor.getByRole('button', { name: 'Save field' }).click()
  await page.getByRole('status').filter({ hasText: 'Field po_number saved' }).waitFor({ timeout: WAIT_MS })
  const list = page.getByRole('table', { name: 'Ticket fields' })
  await list
    .getByRole('row')
    .filter({ hasText: 'po_number' })
    .getByText('all: ticket.category eq billing; cf.plan neq free')
    .waitFor({ timeout: WAIT_MS })

  // the API has it, and the audit log
  const fields = await api.get('/api/custom-fields?resource=ticket', asAdmin)
  t.equal(fields.status, 200)
  const saved = (fields.body.items as any[]).find((f) => f.key === 'po_number')
  t.match(saved, { name: 'PO number', type: 'string', required: true, active: true })
  t.same(saved.show_when, {
    all: [
      { field: 'ticket.category', op: 'eq', value: 'billing' },
      { field: 'cf.plan', op: 'neq', value: 'free' },
    ],
  })
  t.same((fields.body.items as any[]).find((f) => f.key === 'plan').options, ['free', 'pro'])
  await until('the field in the audit log', async () => {
    const res = await api.get('/api/audit/logs?page_size=100', asAdmin)
    return (res.body.data as any[] | undefined)?.find((r) => r.resource_id === saved.id)
  })
  t.pass('its creation is audited')

  // delete: a scratch field goes from the list and the API
  const scratch = await api.post('/api/custom-fields', { key: 'scratch', type: 'string' }, asAdmin)
  t.equal(scratch.status, 201, scratch.text)
  await page.reload()
  const row = list.getByRole('row').filter({ hasText: 'scratch' })
  await row.getByRole('button', { name: 'Delete scratch' }).click()
  await row.getByRole('button', { name: 'Confirm deleting scratch' }).click()
  await row.waitFor({ state: 'detached', timeout: WAIT_MS })
  t.equal((await api.get(`/api/custom-fields/${scratch.body.id}`, asAdmin)).status, 404, 'deleted in the API')

  // the agent's real ticket form: the same condition
  const customer = await realCustomer(api, asAdmin, `fields_cust_${suffix}`)
  const made = await createTicket(
    api,
    { title: `Fields ${suffix}`, customer_id: customer.user_id, category: 'billing', custom_fields: { plan: 'free' } },
    asAgent,
  )
  t.equal(made.status, 201, made.text)
  const agentPage = await newPage(t, browser, system)
  await loginAs(agentPage, system.agent)
  await agentPage.goto(`/tickets/${made.body.id}`)
  const form = agentPage.getByRole('form', { name: 'Ticket form' })
  const plan = form.getByRole('combobox', { name: 'Plan' })
  await plan.waitFor({ timeout: WAIT_MS })
  t.equal(await plan.inputValue(), 'free', 'the stored value')
  t.equal(await form.getByRole('textbox', { name: 'PO number' }).count(), 0, 'plan free: no PO number')
  await plan.selectOption('pro')
  await form.getByRole('textbox', { name: 'PO number' }).fill('PO-7')
  await checkAxe(t, agentPage, "the agent's ticket form")
  await form.getByRole('button', { name: 'Save fields' }).click()
  await form.getByRole('status').filter({ hasText: 'Fields saved' }).waitFor({ timeout: WAIT_MS })
  const ticket = await api.get(`/api/tickets/${made.body.id}`, asAgent)
  t.same(ticket.body.custom_fields, { plan: 'pro', po_number: 'PO-7' }, 'the API has the values')
})

t.test('an agent sees no Custom fields link; the URL says not permitted and the API refuses', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.agent)
  const rail = page.getByRole('navigation', { name: 'Console' })
  await rail.getByRole('link', { name: 'Tickets' }).waitFor({ timeout: WAIT_MS })
  t.equal(await rail.getByRole('link', { name: 'Custom fields' }).count(), 0, 'no Custom fields link')
  await page.goto('/admin/fields')
  await page.getByRole('heading', { name: 'Not permitted' }).waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('button', { name: 'New field' }).count(), 0, 'nothing of the screen shown')
  await checkAxe(t, page, '/admin/fields for an agent')
  const create = await api.post('/api/custom-fields', { key: `nope_${suffix}`, type: 'string' }, asAgent)
  t.equal(create.status, 403, 'the API refuses the create')
  const id = (await api.get('/api/custom-fields', asAgent)).body.items[0].id
  t.equal((await api.put(`/api/custom-fields/${id}`, { required: false }, asAgent)).status, 403, 'the update')
  t.equal((await api.call('DELETE', `/api/custom-fields/${id}`, asAgent)).status, 403, 'and the delete')
})
