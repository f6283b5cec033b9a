// The admin area's audit log in a real browser (Debian's Chromium) against the embedded default: an admin opens
// the log from the navigation rail, filters by action, opens a record and reads its before/after diff, downloads
// the CSV of the filtered view (its lines equal the audit service's export for the same filter), then sets every
// other filter (resource, principal kind, actor, outcome, from/to) and gets the API's records; an agent sees no
// admin link, a typed admin address says "Not permitted", and the API refuses the agent anyway. Every wait is on a
// role, a name or a text: no sleeps, no retries.

import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import t from 'tap'
import { login } from '../harness/auth.ts'
import { client, until } from '../harness/http.ts'
import { createTicket, realCustomer } from '../harness/tickets-kit.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)
const api = client(system.url)
const suffix = randomBytes(3).toString('hex')
/** The console's count in English: the singular for 1 (its plural forms, lib/i18n-catalog.ts). */
const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`
const admin = await login(api, system.admin.username, system.admin.password)
const agent = await login(api, system.agent.username, system.agent.password)

t.test('an admin filters the audit log, reads a diff and downloads the CSV of the filtered view', async (t) => {
  const customer = await realCustomer(api, { token: admin.token }, `audit_ui_${suffix}`)
  const created = await createTicket(
    api,
    { title: `Audit UI ${suffix}`, customer_id: customer.user_id },
    { token: agent.token },
  )
  t.equal(created.status, 201, created.text)
  const id = created.body.id as string
  const closed = await api.post(`/api/tickets/${id}/close`, { reason: 'audit ui' }, { token: agent.token })
  t.equal(closed.status, 200, closed.text)
  const record = await until('the close in the audit log', async () => {
    const res = await api.get('/api/audit/logs?action=tickets.close', { token: admin.token })
    return (res.body.data as any[] | undefined)?.find((r) => r.resource_id === id)
  })

  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin)
  const rail = page.getByRole('navigation', { name: 'Console' })
  await rail.getByRole('link', { name: 'Audit' }).click()
  await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor({ timeout: WAIT_MS })
  t.equal(new URL(page.url()).pathname, '/admin/audit', 'the Audit link opens /admin/audit')
  const table = page.getByRole('table', { name: 'Audit records' })
  await table.waitFor({ timeout: WAIT_MS })
  await checkAxe(t, page, 'the audit log')

  const filters = page.getByRole('form', { name: 'Audit filters' })
  await filters.getByRole('textbox', { name: 'Action' }).fill('tickets.close')
  await filters.getByRole('button', { name: 'Apply filters' }).click()
  const byApi = await api.get('/api/audit/logs?action=tickets.close&page_size=50', { token: admin.token })
  await page.getByText(counted(byApi.body.total, 'record')).waitFor({ timeout: WAIT_MS })
  const actions = await table.locator('tbody tr td:nth-child(2)').allTextContents()
  t.ok(actions.length > 0, 'rows listed')
  t.same([...new Set(actions)], ['tickets.close'], 'only tickets.close rows after the filter')
  t.equal(actions.length, byApi.body.data.length, "as many rows as the API's page")

  // the CSV of the filtered view: the service's export for the same filter
  const downloaded = page.waitForEvent('download')
  await filters.getByRole('button', { name: 'Download CSV' }).click()
  const download = await downloaded
  t.equal(download.suggestedFilename(), 'audit-logs.csv')
  const csv = await readFile((await download.path())!, 'utf8')
  const exported = await api.get('/api/audit/logs/export?action=tickets.close&limit=5000', { token: admin.token })
  t.equal(exported.status, 200, exported.text.slice(0, 200))
  const lines = (text: string) => text.split(/\r?\n/).filter(Boolean)
  t.same(lines(csv), lines(exported.text), "the CSV's lines equal the API's export for the same filter")
  t.ok(lines(csv).length >= 2, 'a header and at least one record')
  t.ok(csv.includes(id), 'our ticket is in it')
  await page.getByRole('status').filter({ hasText: 'CSV downloaded' }).waitFor({ timeout: WAIT_MS })

  // the record and its diff
  await table.getByRole('row').filter({ hasText: id }).getByRole('link', { name: 'tickets.close' }).click()
  await page.getByRole('heading', { name: 'Audit record: tickets.close' }).waitFor({ timeout: WAIT_MS })
  t.equal(new URL(page.url()).pathname, `/admin/audit/${record.id}`)
  const diff = await api.get(`/api/audit/logs/${record.id}/diff`, { token: admin.token })
  const changes = page.getByRole('table', { name: 'Changes' })
  await changes.waitFor({ timeout: WAIT_MS })
  const statusRow = changes.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'status' }) })
  const statusChange = diff.body.diff.changes.find((c: any) => c.path === 'status')
  t.ok(statusChange, 'the API names status among the changes')
  const statusText = (await statusRow.textContent()) ?? ''
  t.match(statusText, 'updated', 'status updated')
  t.match(statusText, `"${statusChange.before}"`, 'the old value')
  t.match(statusText, '"closed"', 'the new value')
  t.equal(
    await changes.locator('tbody tr').count(),
    diff.body.diff.change_count,
    'one row per changed path, as the API counts them',
  )
  await page.getByText(counted(diff.body.diff.change_count, 'changed path')).waitFor({ timeout: WAIT_MS })
  await checkAxe(t, page, 'an audit record with its diff')

  // back keeps the filter
  await page.getByRole('link', { name: 'Back to the audit log' }).click()
  t.equal(await filters.getByRole('textbox', { name: 'Action' }).inputValue(), 'tickets.close', 'filter kept')
  await page.getByText(counted(byApi.body.total, 'record')).waitFor({ timeout: WAIT_MS })

  // the spec's other filters together — resource, principal kind, actor, outcome, from/to: the agent's failed
  // ticket writes today (a close of a ticket that is not there, refused 404 by tickets and audited as failed)
  const missing = `missing-${suffix}`
  const refused = await api.post(`/api/tickets/${missing}/close`, { reason: 'audit ui' }, { token: agent.token })
  t.equal(refused.status, 404, refused.text)
  const today = new Date().toISOString().slice(0, 10)
  const query = new URLSearchParams({
    resource: record.resource_type,
    principal: 'agent',
    actor: agent.user.id,
    success: 'false',
    start_date: today,
    end_date: today,
  })
  const failed = await until('the refused close in the audit log', async () => {
    const res = await api.get(`/api/audit/logs?${query}&page_size=50`, { token: admin.token })
    return (res.body.data as any[] | undefined)?.some((r) => r.resource_id === missing) ? res.body : undefined
  })
  await filters.getByRole('textbox', { name: 'Action' }).fill('')
  await filters.getByRole('textbox', { name: 'Resource' }).fill(record.resource_type)
  await filters.getByRole('combobox', { name: 'Principal kind' }).selectOption('agent')
  await filters.getByRole('textbox', { name: 'Actor (user id)' }).fill(agent.user.id)
  await filters.getByRole('combobox', { name: 'Outcome' }).selectOption('false')
  await filters.getByLabel('From', { exact: true }).fill(today)
  await filters.getByLabel('To', { exact: true }).fill(today)
  await filters.getByRole('button', { name: 'Apply filters' }).click()
  await table.getByRole('row').filter({ hasText: missing }).waitFor({ timeout: WAIT_MS })
  await page.getByText(counted(failed.total, 'record')).waitFor({ timeout: WAIT_MS })
  const links = await table
    .locator('tbody tr a')
    .evaluateAll((as) => as.map((a) => (a as unknown as { getAttribute(n: string): string }).getAttribute('href')))
  t.same(
    links,
    (failed.data as any[]).map((r) => `/admin/audit/${encodeURIComponent(r.id)}`),
    "the rows are the API's records for the same filters, in its order",
  )
  t.same(
    [...new Set(await table.locator('tbody tr td:nth-child(5)').allTextContents())],
    ['Failed'],
    'only failed records',
  )
  t.notOk((await table.locator('tbody').textContent())?.includes(id), "the ticket's successful close is filtered out")
  await checkAxe(t, page, 'the audit log with every filter set')
})

t.test('an agent sees no admin link; the admin URLs say not permitted and the API refuses them', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.agent)
  const rail = page.getByRole('navigation', { name: 'Console' })
  await rail.getByRole('link', { name: 'Tickets' }).waitFor({ timeout: WAIT_MS })
  t.same(await rail.getByRole('link').allTextContents(), ['Inbox', 'Tickets'], 'the rail has no admin link')

  for (const path of ['/admin/audit', '/admin/operations']) {
    await page.goto(path)
    await page.getByRole('heading', { name: 'Not permitted' }).waitFor({ timeout: WAIT_MS })
    t.equal(await page.getByRole('table').count(), 0, `${path}: nothing of the screen shown`)
    await checkAxe(t, page, `${path} for an agent`)
  }
  t.equal((await api.get('/api/audit/logs', { token: agent.token })).status, 403, 'the API refuses the audit log')
  t.equal((await api.get('/api/system/health', { token: agent.token })).status, 403, 'and the health')
  t.equal((await api.get('/api/ops/dead-letters', { token: agent.token })).status, 403, 'and the dead letters')
})
