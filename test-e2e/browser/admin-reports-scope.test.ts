// Reports for a platform operator (a session bound to no tenant) in a real browser against the embedded default:
// every tenant's figures and AI usage, then the scope picker narrows the page to one workspace — the tables and key
// figures equal statistics' answers under the same selectors. The admin's own Reports: admin-reports.test.ts.

import { randomBytes } from 'node:crypto'
import t from 'tap'
import { login } from '../harness/auth.ts'
import { client, until } from '../harness/http.ts'
import { platformOperator } from '../harness/platform-operator.ts'
import { createTicket, realCustomer } from '../harness/tickets-kit.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const system = await consoleSystem(t, 'embedded', { env: { SLA_MONITOR_INTERVAL_MS: '200' } })
const browser = await launchBrowser(t)
const api = client(system.url)
const suffix = randomBytes(3).toString('hex')
const fmt = new Intl.NumberFormat('en')
const admin = await login(api, system.admin.username, system.admin.password)
// the demo admin's own AI question: counted in demo/main, which the operator's narrowed view must show
const asked = await api.post(
  '/api/v1/ai/query',
  { query: `reports ${suffix}` },
  { token: admin.token, headers: { 'x-tenant-id': system.tenant_id, 'x-workspace-id': system.workspace_id } },
)
if (asked.status !== 200) throw new Error(`the demo admin's AI question: ${asked.status} ${asked.text}`)
// a platform operator bound to no tenant reads every tenant's reports, or one workspace's through the scope picker
const operator = await platformOperator(system, api, suffix)

t.test(
  'a platform operator (no tenant) reads every workspace’s AI usage and narrows the reports to a workspace',
  async (t) => {
    // a ticket in the operator's second workspace of the tenant: in the every-tenant view, not in demo/main's
    const desk = {
      token: operator.login.token,
      headers: { 'x-tenant-id': system.tenant_id, 'x-workspace-id': `opsdesk${suffix}` },
    }
    const elsewhere = `elsewhere-${suffix}`
    const deskCustomer = await realCustomer(api, desk, `reports_desk_${suffix}`)
    const made = await createTicket(
      api,
      { title: `Reports desk ${suffix}`, customer_id: deskCustomer.user_id, category: elsewhere },
      desk,
    )
    t.equal(made.status, 201, made.text)
    // and an AI question there: counted for that workspace and every tenant, never in demo/main's AI usage
    const asked = await api.post('/api/v1/ai/query', { query: `reports desk ${suffix}` }, desk)
    t.equal(asked.status, 200, asked.text)
    const today = new Date().toISOString().slice(0, 10)
    const aiOf = async (auth: { token: string; headers?: Record<string, string> }) =>
      ((await api.get(`/api/statistics/ai-usage?start_date=${today}&end_date=${today}`, auth)).body as any[])[0]
        ?.ai_usage_count as number
    await until('statistics has the other workspace’s ticket and AI question', async () => {
      const r = await api.get('/api/statistics/ticket-category', { token: operator.login.token })
      const ticket = (r.body as any[]).some((c) => c.key === elsewhere)
      return ticket && (await aiOf(desk)) >= 1 ? true : undefined
    })
    const [demoAi, deskAi, everyAi] = await Promise.all([
      aiOf({ token: admin.token }),
      aiOf(desk),
      aiOf({ token: operator.login.token }),
    ])
    t.equal(deskAi, 1, 'the other workspace counts its one AI question')
    t.ok(demoAi >= 1, "the demo workspace counts the demo admin's")
    t.ok(everyAi >= demoAi + deskAi, 'every tenant: both workspaces’ questions added up')
    const page = await newPage(t, browser, system)
    await loginAs(page, operator)
    await page.goto('/admin/reports')
    const table = page.getByRole('table', { name: 'AI usage per day, table' })
    await table.waitFor({ timeout: WAIT_MS })
    await page.getByText('UTC days, the answers given in this scope.').waitFor({ timeout: WAIT_MS })
    const form = page.getByRole('form', { name: 'Date range' })
    const start = await form.getByLabel('From').inputValue()
    const end = await form.getByLabel('To').inputValue()
    const ai = await api.get(`/api/statistics/ai-usage?start_date=${start}&end_date=${end}`, {
      token: operator.login.token,
    })
    t.equal(ai.status, 200, ai.text)
    t.ok(
      (ai.body as any[]).some((d) => d.ai_usage_count >= 1),
      'the AI answers counted for every tenant',
    )
    const rows = await Promise.all(
      (await table.locator('tbody tr').all()).map((r) => r.locator('th, td').allTextContents()),
    )
    t.same(
      rows,
      (ai.body as any[]).map((d) => [
        d.date,
        fmt.format(d.ai_usage_count),
        fmt.format(d.knowledge_provider_usage_count),
        fmt.format(d.compat_provider_usage_count),
      ]),
      'AI usage per day equals the API',
    )
    await checkAxe(t, page, 'the reports page of a platform operator')

    // the scope picker (an operator's token names no tenant): the demo workspace alone, as the gateway's selectors
    const categories = page.getByRole('table', { name: 'Tickets by category, table' })
    await categories.getByRole('rowheader', { name: elsewhere }).waitFor({ timeout: WAIT_MS })
    t.pass("every tenant: the other workspace's category is there")
    const scopeForm = page.getByRole('form', { name: 'Scope' })
    await scopeForm.getByRole('combobox', { name: 'Tenant' }).selectOption(system.tenant_id)
    await scopeForm.getByRole('combobox', { name: 'Workspace' }).selectOption(system.workspace_id)
    const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)
    const narrowed = {
      token: operator.login.token,
      headers: { 'x-tenant-id': system.tenant_id, 'x-workspace-id': system.workspace_id },
    }
    const q = `start_date=${start}&end_date=${end}&tz=${encodeURIComponent(tz)}`
    const [everyTenant, inDemo] = await Promise.all([
      api.get(`/api/statistics/ticket-category?${q}`, { token: operator.login.token }),
      api.get(`/api/statistics/ticket-category?${q}`, narrowed),
    ])
    t.equal(inDemo.status, 200, inDemo.text)
    t.notOk(
      (inDemo.body as any[]).some((r) => r.key === elsewhere),
      "the demo workspace's answer holds no other workspace's ticket",
    )
    const expected = (inDemo.body as any[]).map((r) => [r.key || '(none)', fmt.format(r.count)])
    await until('the narrowed categories shown', async () => {
      const shown = await Promise.all(
        (await categories.locator('tbody tr').all()).map((r) => r.locator('th, td').allTextContents()),
      )
      return JSON.stringify(shown) === JSON.stringify(expected) ? true : undefined
    })
    t.pass("tickets by category equal the API's answer for the demo workspace")
    t.ok(
      (everyTenant.body as any[]).some((r) => r.key === elsewhere),
      'while every tenant’s does',
    )
    t.equal(await categories.getByRole('rowheader', { name: elsewhere }).count(), 0, 'not shown once narrowed')
    // AI usage narrowed to demo/main: the demo workspace's answers, the other workspace's question not among them
    const aiNarrowed = await api.get(`/api/statistics/ai-usage?start_date=${start}&end_date=${end}`, narrowed)
    t.equal(aiNarrowed.status, 200, aiNarrowed.text)
    const aiTable = page.getByRole('table', { name: 'AI usage per day, table' })
    const aiExpected = (aiNarrowed.body as any[]).map((d) => [
      d.date,
      fmt.format(d.ai_usage_count),
      fmt.format(d.knowledge_provider_usage_count),
      fmt.format(d.compat_provider_usage_count),
    ])
    await until('the narrowed AI usage shown', async () => {
      const shown = await Promise.all(
        (await aiTable.locator('tbody tr').all()).map((r) => r.locator('th, td').allTextContents()),
      )
      return JSON.stringify(shown) === JSON.stringify(aiExpected) ? true : undefined
    })
    t.pass("AI usage per day equals the API's answer for the demo workspace")
    t.equal(
      (aiNarrowed.body as any[]).find((d) => d.date === today)?.ai_usage_count,
      demoAi,
      'narrowed to demo/main: the demo admin’s count, not the other workspace’s question',
    )
    const narrowedDash = await api.get(`/api/statistics/dashboard?tz=${encodeURIComponent(tz)}`, narrowed)
    t.equal(
      await page.locator('[data-figure="total_tickets"]').textContent(),
      fmt.format(narrowedDash.body.total_tickets),
      "the key figures are the workspace's",
    )
    await checkAxe(t, page, 'the reports page narrowed to a workspace')
  },
)
