// Shifts as a week calendar in the People section, in a real browser (Debian's Chromium) against the embedded
// default: the admin opens the demo agent, adds a day shift and a night shift (past midnight) to this week, each
// drawn in its weekday's column; the API has them at the instants chosen (the browser's local time); one removed,
// the API re-read has only the other, a reload shows it again, the next week is empty; the audit log has the shift.
// An agent gets no People link and the shifts API refuses it. axe clean. Every wait is on a role, a name or a text.

import t from 'tap'
import { login } from '../harness/auth.ts'
import { client, until } from '../harness/http.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)
const api = client(system.url)
const admin = await login(api, system.admin.username, system.admin.password)
const agent = await login(api, system.agent.username, system.agent.password)
const asAdmin = { token: admin.token }
const asAgent = { token: agent.token }

t.test('an admin plans a week of shifts for an agent', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin)
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'People' }).click()
  const openAgent = async () => {
    const row = page.getByRole('table', { name: 'Agents and operators' }).getByRole('row').filter({
      hasText: system.agent.username,
    })
    await row.getByRole('button', { name: /^Edit / }).click()
    const cal = page.getByRole('region', { name: /^Shifts of / })
    await cal.getByRole('table', { name: /^Week of shifts of / }).waitFor({ timeout: WAIT_MS })
    return cal
  }
  let cal = await openAgent()
  const form = cal.getByRole('form', { name: 'Add shift' })
  const daySelect = form.getByRole('combobox', { name: 'Day' })
  const days = await daySelect
    .locator('option')
    .evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value))
  t.equal(days.length, 7, 'a week of days to choose from')
  // the instant a local day and time is, as the browser reckons it
  const instant = (day: string, hhmm: string, plusDays = 0) =>
    page.evaluate(
      ([day, hhmm, plus]) => {
        const [y, m, d] = String(day).split('-').map(Number)
        const [h, mi] = String(hhmm).split(':').map(Number)
        return new Date(y!, m! - 1, d! + Number(plus), h, mi).toISOString()
      },
      [day, hhmm, plusDays] as const,
    )
  const shiftsOf = async () =>
    ((await api.get(`/api/shifts?agent_id=${agent.user.id}&page_size=100`, asAdmin)).body.data as any[]).map((s) => ({
      type: s.shift_type,
      start: new Date(s.start_time).toISOString(),
      end: new Date(s.end_time).toISOString(),
    }))

  const add = async (day: string, start: string, end: string, type: string) => {
    await daySelect.selectOption(day)
    await form.getByLabel('Starts').fill(start)
    await form.getByLabel('Ends').fill(end)
    await form.getByRole('combobox', { name: 'Shift type' }).selectOption(type)
    await form.getByRole('button', { name: 'Add shift' }).click()
  }
  await add(days[2]!, '09:00', '17:00', 'morning')
  const wednesday = cal.getByRole('list', { name: 'Wednesday' })
  await wednesday.getByRole('listitem').filter({ hasText: '09:00–17:00 Morning' }).waitFor({ timeout: WAIT_MS })
  await add(days[4]!, '22:00', '06:00', 'night')
  const friday = cal.getByRole('list', { name: 'Friday' })
  await friday.getByRole('listitem').filter({ hasText: '22:00–06:00 Night' }).waitFor({ timeout: WAIT_MS })
  const day = { type: 'morning', start: await instant(days[2]!, '09:00'), end: await instant(days[2]!, '17:00') }
  const night = { type: 'night', start: await instant(days[4]!, '22:00'), end: await instant(days[4]!, '06:00', 1) }
  t.same(await shiftsOf(), [day, night], 'the API has both, the night one ending the next morning')
  await checkAxe(t, page, 'the week calendar')

  await cal.getByRole('button', { name: 'Remove the Wednesday shift 09:00–17:00' }).click()
  await wednesday.getByRole('listitem').first().waitFor({ state: 'detached', timeout: WAIT_MS })
  t.same(await shiftsOf(), [night], 'removed: the API re-read has only the night shift')

  await page.reload()
  cal = await openAgent()
  await cal
    .getByRole('list', { name: 'Friday' })
    .getByRole('listitem')
    .filter({ hasText: '22:00–06:00 Night' })
    .waitFor({ timeout: WAIT_MS })
  t.pass('a reload shows the stored shift')
  await cal.getByRole('button', { name: 'Next week' }).click()
  await cal.getByRole('list', { name: 'Friday' }).getByRole('listitem').first().waitFor({ state: 'detached' })
  t.pass('the next week has none')
  await cal.getByRole('button', { name: 'Previous week' }).click()
  await cal.getByRole('list', { name: 'Friday' }).getByRole('listitem').first().waitFor({ timeout: WAIT_MS })

  const stored = (await api.get(`/api/shifts?agent_id=${agent.user.id}`, asAdmin)).body.data[0]
  await until('the shift in the audit log', async () => {
    const res = await api.get('/api/audit/logs?page_size=100', asAdmin)
    return (res.body.data as any[] | undefined)?.find((r) => r.resource_id === stored.id)
  })
  t.pass('its creation is audited')
})

t.test('an agent sees no People link and the shifts API refuses it', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.agent)
  const rail = page.getByRole('navigation', { name: 'Console' })
  await rail.getByRole('link', { name: 'Tickets' }).waitFor({ timeout: WAIT_MS })
  t.equal(await rail.getByRole('link', { name: 'People' }).count(), 0, 'no People link')
  await page.goto('/admin/people')
  await page.getByRole('heading', { name: 'Not permitted' }).waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('form', { name: 'Add shift' }).count(), 0, 'no shift form')
  const start = new Date(Date.now() + 86_400_000)
  const body = {
    agent_id: agent.user.id,
    shift_type: 'morning',
    start_time: start.toISOString(),
    end_time: new Date(start.getTime() + 3_600_000).toISOString(),
  }
  t.equal((await api.post('/api/shifts', body, asAgent)).status, 403, 'the API refuses the create')
  t.equal((await api.get('/api/shifts', asAgent)).status, 403, 'and the list')
})
