// The admin area's Service settings in a real browser (Debian's Chromium) against the embedded default: the admin
// creates, edits (a refused rule shown in the service's words) and deletes an SLA config, sets business hours (a
// time zone, two ranges on Monday, Saturday open, Friday closed), auto-assignment and 3-day survey links — each
// re-read from the API (and the page after a reload) and found in the audit log — and sends a fresh
// satisfaction-survey link for a closed ticket (the public survey answers it, for the 3 days set). An agent sees no link, the URL says "Not permitted" and the API refuses.
// axe clean. Every wait is on a role, a name or a text: no sleeps.
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

/** The admin's audit record of `match`, once the audit service has it. */
const audited = (what: string, match: (r: any) => boolean) =>
  until(what, async () => {
    const res = await api.get(`/api/audit/logs?actor=${admin.user.id}&page_size=200`, asAdmin)
    return (res.body.data as any[] | undefined)?.find(match)
  })

t.test('an admin creates, edits and deletes an SLA config; the API and the audit log have each', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin)
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Service settings' }).click()
  await page.getByRole('heading', { name: 'Service settings', level: 1 }).waitFor({ timeout: WAIT_MS })
  t.equal(new URL(page.url()).pathname, '/admin/service')
  await page.getByText('No SLA configs yet.').waitFor({ timeout: WAIT_MS })
  await checkAxe(t, page, 'the service settings')

  // a refused rule: the first response after the resolution
  const name = `High ${suffix}`
  await page.getByRole('button', { name: 'New SLA config' }).click()
  let form = page.getByRole('form', { name: 'New SLA config' })
  await form.getByRole('textbox', { name: 'Name' }).fill(name)
  await form.getByRole('combobox', { name: 'Priority' }).selectOption('high')
  await form.getByRole('spinbutton', { name: 'First response (minutes)' }).fill('600')
  await form.getByRole('spinbutton', { name: 'Resolution (minutes)' }).fill('240')
  await form.getByRole('button', { name: 'Save SLA config' }).click()
  await form.getByRole('alert').waitFor({ timeout: WAIT_MS })
  t.match(await form.getByRole('alert').textContent(), /first/i, 'the service’s refusal in its words')
  await checkAxe(t, page, 'the SLA form with a refusal')

  await form.getByRole('spinbutton', { name: 'First response (minutes)' }).fill('30')
  await form.getByRole('spinbutton', { name: 'Escalation (minutes)' }).fill('120')
  await form.getByRole('spinbutton', { name: 'Warn at (% of the time)' }).fill('75')
  await form.getByRole('checkbox', { name: 'Business hours only' }).check()
  await form.getByRole('button', { name: 'Save SLA config' }).click()
  await page
    .getByRole('status')
    .filter({ hasText: `SLA config ${name} saved` })
    .waitFor({ timeout: WAIT_MS })
  const listed = await api.get('/api/sla/configs', asAdmin)
  const config = (listed.body.data as any[]).find((c) => c.name === name)
  t.match(
    config,
    {
      priority: 'high',
      customer_tier: '',
      first_response_time: 30,
      resolution_time: 240,
      escalation_time: 120,
      warning_threshold: 75,
      business_hours_only: true,
      active: true,
    },
    'the API has the config as entered',
  )
  const table = page.getByRole('table', { name: 'SLA configs' })
  const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) })
  t.same(
    (await row.getByRole('cell').allTextContents()).slice(0, 7),
    ['High', 'Every tier', '30 min', '240 min', '120 min', '75%', 'Yes'],
    'the row shows the API’s values',
  )

  // edit
  await row.getByRole('button', { name: `Edit ${name}` }).click()
  form = page.getByRole('form', { name: `Edit SLA config ${name}` })
  await form.getByRole('spinbutton', { name: 'Resolution (minutes)' }).fill('300')
  await form.getByRole('button', { name: 'Save SLA config' }).click()
  await row.getByRole('cell', { name: '300 min' }).waitFor({ timeout: WAIT_MS })
  const edited = await api.get(`/api/sla/configs/${config.id}`, asAdmin)
  t.equal(edited.body.resolution_time, 300, 'the API has the new resolution time')

  // delete, confirmed
  await row.getByRole('button', { name: `Delete ${name}` }).click()
  await row.getByText(`Delete the SLA config "${name}"? Its recorded violations stay.`).waitFor({ timeout: WAIT_MS })
  await row.getByRole('button', { name: `Yes, delete ${name}` }).click()
  await page
    .getByRole('status')
    .filter({ hasText: `SLA config ${name} deleted` })
    .waitFor({ timeout: WAIT_MS })
  t.equal((await api.get(`/api/sla/configs/${config.id}`, asAdmin)).status, 404, 'the API no longer has it')

  const created = await audited(
    'the create audited',
    (r) => r.resource_id === config.id && !r.before_json && r.after_json,
  )
  t.equal(created.after_json.name, name, 'the create audited with the config')
  t.equal(created.action, 'sla.configs')
  const updated = await audited('the edit audited', (r) => r.resource_id === config.id && r.before_json && r.after_json)
  t.same(
    [updated.before_json.resolution_time, updated.after_json.resolution_time],
    [240, 300],
    'the edit audited with before and after',
  )
  t.equal(updated.action, 'sla.update')
  const removed = await audited(
    'the delete audited',
    (r) => r.resource_id === config.id && r.before_json && !r.after_json,
  )
  t.equal(removed.before_json.name, name, 'the delete audited with what was deleted')
  t.equal(removed.action, 'sla.delete')
})

t.test('an admin sets business hours and auto-assignment; they persist and are audited', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin, '/admin/service')
  const hours = page.getByRole('form', { name: 'Business hours' })
  await hours.getByText(/The default calendar/).waitFor({ timeout: WAIT_MS })
  await hours.getByRole('combobox', { name: 'Time zone' }).selectOption('Europe/Berlin')
  await hours.getByRole('textbox', { name: 'Monday closes (1)' }).fill('12:00')
  await hours.getByRole('button', { name: 'Add hours on Monday' }).click()
  await hours.getByRole('textbox', { name: 'Monday opens (2)' }).fill('13:00')
  await hours.getByRole('textbox', { name: 'Monday closes (2)' }).fill('18:00')
  await hours.getByRole('button', { name: 'Add hours on Saturday' }).click()
  await hours.getByRole('textbox', { name: 'Saturday opens (1)' }).fill('10:00')
  await hours.getByRole('textbox', { name: 'Saturday closes (1)' }).fill('14:00')
  await hours.getByRole('button', { name: 'Remove hours 1 on Friday' }).click()
  await checkAxe(t, page, 'the business hours being edited')
  await hours.getByRole('button', { name: 'Save business hours' }).click()
  await page.getByRole('status').filter({ hasText: 'Business hours saved' }).waitFor({ timeout: WAIT_MS })
  const saved = await api.get('/api/sla/business-hours', asAdmin)
  t.equal(saved.body.time_zone, 'Europe/Berlin')
  t.equal(saved.body.is_default, false)
  t.same(saved.body.weekly.mon, [
    ['09:00', '12:00'],
    ['13:00', '18:00'],
  ])
  t.same(saved.body.weekly.sat, [['10:00', '14:00']])
  t.same(saved.body.weekly.fri ?? [], [], 'Friday closed')
  t.same(saved.body.weekly.tue, [['09:00', '17:00']], 'Tuesday kept')

  // auto-assignment
  const autoAssign = page.getByRole('switch', { name: 'Assign new tickets automatically' })
  t.notOk(await autoAssign.isChecked(), 'off by default')
  await autoAssign.click()
  await page.getByRole('status').filter({ hasText: 'Ticket handling saved' }).waitFor({ timeout: WAIT_MS })
  t.equal((await api.get('/api/tickets/settings', asAdmin)).body.auto_assign, true, 'the API has it on')

  // survey settings: links answer 3 days
  const surveyForm = page.getByRole('form', { name: 'Survey settings' })
  t.ok(await surveyForm.getByRole('switch', { name: 'Send a survey when a ticket closes' }).isChecked(), 'surveys on')
  await surveyForm.getByRole('spinbutton', { name: 'Survey link answers for (days)' }).fill('3')
  await surveyForm.getByRole('button', { name: 'Save survey settings' }).click()
  await page.getByRole('status').filter({ hasText: 'Survey settings saved' }).waitFor({ timeout: WAIT_MS })
  t.match(
    (await api.get('/api/tickets/settings', asAdmin)).body,
    { auto_assign: true, survey_enabled: true, survey_expiry_days: 3 },
    'the API has 3 days, the rest kept',
  )

  // the page re-read: what it shows is what the API has
  await page.reload()
  await page.getByRole('textbox', { name: 'Monday opens (2)' }).waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('combobox', { name: 'Time zone' }).inputValue(), 'Europe/Berlin')
  t.equal(await page.getByRole('textbox', { name: 'Monday closes (2)' }).inputValue(), '18:00')
  t.equal(await page.getByRole('textbox', { name: 'Friday opens (1)' }).count(), 0, 'Friday shown closed')
  t.ok(await page.getByRole('switch', { name: 'Assign new tickets automatically' }).isChecked())
  t.equal(await page.getByRole('spinbutton', { name: 'Survey link answers for (days)' }).inputValue(), '3')

  const hoursRecord = await audited('business hours audited', (r) => r.after_json?.time_zone === 'Europe/Berlin')
  t.equal(hoursRecord.before_json.time_zone, 'UTC', 'business hours audited, UTC before')
  t.equal(hoursRecord.action, 'sla.business_hours')
  const settingsRecord = await audited(
    'auto-assignment audited',
    (r) => r.resource_id === 'settings' && r.after_json?.auto_assign === true && r.before_json?.auto_assign === false,
  )
  t.same(
    [settingsRecord.before_json.auto_assign, settingsRecord.after_json.auto_assign],
    [false, true],
    'auto-assignment audited with before and after',
  )
  t.equal(settingsRecord.action, 'tickets.settings')
  const surveyRecord = await audited('survey settings audited', (r) => r.after_json?.survey_expiry_days === 3)
  t.equal(surveyRecord.before_json.survey_expiry_days, 7, 'survey settings audited, 7 days before')
})

t.test('a closed ticket’s survey gets a fresh link that the public survey answers', async (t) => {
  const customer = await realCustomer(api, asAdmin, `svc_c_${suffix}`)
  const ticket = await createTicket(api, { title: `Survey ${suffix}`, customer_id: customer.user_id }, asAdmin)
  t.equal(ticket.status, 201, 'a ticket')
  const closed = await api.post(`/api/tickets/${ticket.body.id}/close`, {}, asAdmin)
  t.equal(closed.status, 200, 'closed')

  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin, '/admin/service')
  const table = page.getByRole('table', { name: 'Satisfaction surveys' })
  const row = table.getByRole('row').filter({ hasText: ticket.body.id })
  await row.getByRole('cell', { name: 'Sent', exact: true }).waitFor({ timeout: WAIT_MS })
  await row.getByRole('button', { name: `Send a new link for ${ticket.body.id}` }).click()
  const box = page.getByRole('region', { name: 'New survey link (shown once)' })
  const link = new URL(await box.getByRole('textbox').inputValue())
  t.match(link.pathname, /^\/csat\/[\w-]{20,}$/, 'a survey link')
  const [resent] = (await api.get(`/api/satisfactions/surveys?ticket_id=${ticket.body.id}`, asAdmin)).body.data
  t.equal(Date.parse(resent.expires_at) - Date.parse(resent.sent_at), 3 * 86_400_000, 'answering the 3 days set')
  const survey = await api.get(`/public${link.pathname}`)
  t.equal(survey.status, 200, 'the public survey answers the new link')
  t.equal(survey.body.ticket_title, `Survey ${suffix}`, 'for the closed ticket')
  await checkAxe(t, page, 'the fresh survey link')
  await box.getByRole('button', { name: 'Done' }).click()
  await box.waitFor({ state: 'detached', timeout: WAIT_MS })
})

t.test('an agent sees no Service settings link; the URL says not permitted and the API refuses', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.agent)
  const rail = page.getByRole('navigation', { name: 'Console' })
  await rail.getByRole('link', { name: 'Tickets' }).waitFor({ timeout: WAIT_MS })
  t.equal(await rail.getByRole('link', { name: 'Service settings' }).count(), 0, 'no Service settings link')
  await page.goto('/admin/service')
  await page.getByRole('heading', { name: 'Not permitted' }).waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('table').count(), 0, 'nothing of the screen shown')
  await checkAxe(t, page, '/admin/service for an agent')
  const token = { token: agent.token }
  const create = await api.post(
    '/api/sla/configs',
    { name: `nope ${suffix}`, priority: 'low', first_response_time: 1, resolution_time: 3, escalation_time: 2 },
    token,
  )
  t.equal(create.status, 403, 'the API refuses an SLA config')
  const hours = await api.put('/api/sla/business-hours', { time_zone: 'UTC', weekly: {} }, token)
  t.equal(hours.status, 403, 'and business hours')
  const settings = await api.put('/api/tickets/settings', { auto_assign: false }, token)
  t.equal(settings.status, 403, 'and ticket settings')
})
