// The admin area's Reports in a real browser (Debian's Chromium) against the embedded default: tickets (with
// categories and priorities, one past its SLA), ratings and an AI answer made through the API, then an admin opens
// Reports from the navigation rail and every number shown — the key figures, the activity, satisfaction, SLA
// violations and AI usage per day, tickets by category and priority, customers by source, agent performance —
// equals statistics' answer for the same range and zone; the CSV downloads are the tables shown; a ticket made while
// the page is open shows without a reload (polling); a narrower range asks again (a platform operator's scope
// picker: admin-reports-scope.test.ts). An agent sees no Reports link, the
// typed address says "Not permitted", and the API refuses it anyway. Waits are on roles, names and texts only.

import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import t from 'tap'
import { login } from '../harness/auth.ts'
import { client, until } from '../harness/http.ts'
import { createTicket, realCustomer } from '../harness/tickets-kit.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

// the SLA monitor looks every 200 ms (configs count in minutes: a ticket's creation is moved back instead)
const system = await consoleSystem(t, 'embedded', { env: { SLA_MONITOR_INTERVAL_MS: '200' } })
const browser = await launchBrowser(t)
const api = client(system.url)
const suffix = randomBytes(3).toString('hex')
const admin = await login(api, system.admin.username, system.admin.password)
const agent = await login(api, system.agent.username, system.agent.password)
const fmt = new Intl.NumberFormat('en')

t.test('an admin reads Reports: the numbers shown are the API answers for the same range', async (t) => {
  const customer = await realCustomer(api, { token: admin.token }, `reports_ui_${suffix}`)
  const ids: string[] = []
  const kinds = [
    ['billing', 'high'],
    ['billing', 'low'],
    ['technical', 'urgent'],
  ] as const
  for (let i = 0; i < 3; i++) {
    const [category, priority] = kinds[i]!
    const res = await createTicket(
      api,
      { title: `Reports UI ${suffix} ${i}`, customer_id: customer.user_id, category, priority },
      { token: agent.token },
    )
    t.equal(res.status, 201, res.text)
    ids.push(res.body.id as string)
  }
  for (const [i, rating] of [
    [0, 5],
    [1, 2],
  ] as const) {
    const res = await api.post('/api/satisfactions', { ticket_id: ids[i], rating }, { token: admin.token })
    t.equal(res.status, 201, res.text)
  }
  const closed = await api.post(`/api/tickets/${ids[2]}/close`, { reason: 'reports ui' }, { token: agent.token })
  t.equal(closed.status, 200, closed.text)
  // an SLA violation: a config for urgent tickets, a ticket made five minutes old, the monitor finds it on its own
  const demo = { 'x-tenant-id': system.tenant_id, 'x-workspace-id': system.workspace_id }
  const config = await api.post(
    '/api/sla/configs',
    { name: `Reports ${suffix}`, priority: 'urgent', first_response_time: 1, resolution_time: 3, escalation_time: 2 },
    { token: admin.token, headers: demo },
  )
  t.equal(config.status, 201, config.text)
  const late = await createTicket(
    api,
    { title: `Reports late ${suffix}`, customer_id: customer.user_id, category: 'technical', priority: 'urgent' },
    { token: agent.token },
  )
  t.equal(late.status, 201, late.text)
  const db = await system.serviceDatabase('tickets')
  try {
    const at = new Date(Date.now() - 5 * 60_000).toISOString()
    await db.db.updateTable('tickets').set({ created_at: at }).where('id', '=', late.body.id).execute()
  } finally {
    await db.close()
  }
  await until('the SLA monitor records the breach', async () => {
    const r = await api.get(`/api/sla/violations?ticket_id=${late.body.id}`, { token: admin.token, headers: demo })
    return r.body?.total >= 1 ? true : undefined
  })
  // an AI answer (whatever its strategy, a hand-over included, it counts as usage)
  const asked = await api.post(
    '/api/v1/ai/query',
    { query: `reports ${suffix}` },
    { token: admin.token, headers: demo },
  )
  t.equal(asked.status, 200, asked.text)
  // statistics has projected all of it: the dashboard counts our tickets and ratings, no projection behind
  await until('statistics caught up', async () => {
    const [dash, lag] = await Promise.all([
      api.get('/api/statistics/dashboard', { token: admin.token }),
      api.get('/api/statistics/lag', { token: admin.token }),
    ])
    const today = new Date().toISOString().slice(0, 10)
    const q = `start_date=${today}&end_date=${today}`
    const [sla, ai] = await Promise.all([
      api.get(`/api/statistics/sla-violations?${q}`, { token: admin.token }),
      api.get(`/api/statistics/ai-usage?${q}`, { token: admin.token }),
    ])
    const state = {
      total_tickets: dash.body.total_tickets,
      customer_satisfaction: dash.body.customer_satisfaction,
      caught_up: lag.body.caught_up,
      sla_violations: sla.body[0]?.sla_violations,
      ai_usage_count: ai.body[0]?.ai_usage_count,
    }
    const done =
      state.total_tickets >= 4 &&
      state.customer_satisfaction > 0 &&
      state.caught_up &&
      state.sla_violations >= 1 &&
      state.ai_usage_count >= 1
    // the figures seen so far are the error's message should the wait time out
    if (!done) throw new Error(JSON.stringify(state))
    return true
  })

  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin)
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Reports' }).click()
  await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor({ timeout: WAIT_MS })
  t.equal(new URL(page.url()).pathname, '/admin/reports', 'the Reports link opens /admin/reports')
  const activity = page.getByRole('table', { name: 'Activity per day, table' })
  await activity.waitFor({ timeout: WAIT_MS })
  await page.locator('[data-figure="total_tickets"]').waitFor({ timeout: WAIT_MS })

  const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)
  const form = page.getByRole('form', { name: 'Date range' })
  const start = await form.getByLabel('From').inputValue()
  const end = await form.getByLabel('To').inputValue()
  await page.getByText(`Days in ${tz}`).waitFor({ timeout: WAIT_MS })
  const q = `start_date=${start}&end_date=${end}&tz=${encodeURIComponent(tz)}`
  const [dash, days, agents] = await Promise.all([
    api.get(`/api/statistics/dashboard?tz=${encodeURIComponent(tz)}`, { token: admin.token }),
    api.get(`/api/statistics/time-range?${q}`, { token: admin.token }),
    api.get(`/api/statistics/agent-performance?${q}&limit=100`, { token: admin.token }),
  ])
  t.equal(days.body.length, 7, 'the default range is seven days')

  // key figures
  const figures = ['total_tickets', 'open_tickets', 'resolved_tickets', 'today_tickets', 'total_customers']
  for (const key of [...figures, 'avg_resolution_time', 'customer_satisfaction']) {
    t.equal(await page.locator(`[data-figure="${key}"]`).textContent(), fmt.format(dash.body[key]), `figure ${key}`)
  }
  t.ok(dash.body.customer_satisfaction > 0, 'a mean rating shown, not a zero')

  // activity per day: the table beside the chart, row by row
  const cells = async (table: typeof activity) => {
    const rows = await table.locator('tbody tr').all()
    return Promise.all(rows.map((r) => r.locator('th, td').allTextContents()))
  }
  const expectedActivity = (days.body as any[]).map((d) => [
    d.date,
    fmt.format(d.tickets),
    fmt.format(d.resolved_tickets),
    fmt.format(d.sessions),
    fmt.format(d.messages),
  ])
  t.same(await cells(activity), expectedActivity, 'activity per day equals the time-range answer')
  t.ok(
    (days.body as any[]).reduce((n, d) => n + d.tickets, 0) >= 3,
    'our tickets are in the range (the comparison is not of zeros)',
  )
  const csat = page.getByRole('table', { name: 'Satisfaction per day, table' })
  t.same(
    await cells(csat),
    (days.body as any[]).map((d) => [d.date, fmt.format(d.customer_satisfaction)]),
    'satisfaction per day equals the API',
  )
  t.ok(
    (days.body as any[]).some((d) => d.customer_satisfaction > 0),
    'a day with ratings',
  )
  t.equal(await page.locator('.reports-chart canvas').count(), 8, 'eight charts drawn (uPlot canvases)')

  // SLA violations and AI usage per day: each table row by row as the API answers the same days
  const [sla, ai, category, priority, source] = await Promise.all([
    api.get(`/api/statistics/sla-violations?${q}`, { token: admin.token }),
    api.get(`/api/statistics/ai-usage?start_date=${start}&end_date=${end}`, { token: admin.token }),
    api.get(`/api/statistics/ticket-category?${q}`, { token: admin.token }),
    api.get(`/api/statistics/ticket-priority?${q}`, { token: admin.token }),
    api.get('/api/statistics/customer-source', { token: admin.token }),
  ])
  t.same(
    await cells(page.getByRole('table', { name: 'SLA violations per day, table' })),
    (sla.body as any[]).map((d) => [d.date, fmt.format(d.sla_violations)]),
    'SLA violations per day equal the API',
  )
  t.ok(
    (sla.body as any[]).some((d) => d.sla_violations >= 1),
    'the breach counted (not a table of zeros)',
  )
  t.same(
    await cells(page.getByRole('table', { name: 'AI usage per day, table' })),
    (ai.body as any[]).map((d) => [
      d.date,
      fmt.format(d.ai_usage_count),
      fmt.format(d.knowledge_provider_usage_count),
      fmt.format(d.compat_provider_usage_count),
    ]),
    'AI usage per day equals the API',
  )
  t.ok(
    (ai.body as any[]).some((d) => d.ai_usage_count >= 1),
    "the demo admin's scoped view counts its own AI question",
  )
  await page.getByText('UTC days, the answers given in this scope.').waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('form', { name: 'Scope' }).count(), 0, 'a scoped token gets no scope picker')
  const keyed = (body: any[]) => body.map((r) => [r.key || '(none)', fmt.format(r.count)])
  t.same(
    await cells(page.getByRole('table', { name: 'Tickets by category, table' })),
    keyed(category.body),
    'tickets by category equal the API',
  )
  t.ok(category.body.find((r: any) => r.key === 'billing')?.count >= 2, 'our billing tickets counted')
  t.same(
    await cells(page.getByRole('table', { name: 'Tickets by priority, table' })),
    keyed(priority.body),
    'tickets by priority equal the API',
  )
  t.ok(priority.body.find((r: any) => r.key === 'urgent')?.count >= 2, 'our urgent tickets counted')
  t.same(
    await cells(page.getByRole('table', { name: 'Customers by source, table' })),
    keyed(source.body),
    'customers by source equal the API',
  )
  t.ok(source.body.length >= 1, 'customers counted by source')
  t.same(await page.locator('[data-figure="statistics_lag"]').count(), 0, 'caught up: no lag shown')
  await page.getByText(/^Updated /).waitFor({ timeout: WAIT_MS })

  const agentTable = page.getByRole('table', { name: 'Agent performance' })
  if ((agents.body as any[]).length) {
    t.equal(await agentTable.locator('tbody tr').count(), agents.body.length, 'one row per agent the API lists')
    const first = agents.body[0]
    t.same((await cells(agentTable))[0]?.slice(2, 4), [
      fmt.format(first.total_tickets),
      fmt.format(first.resolved_tickets),
    ])
  }

  // ratings by score: tickets' rating statistics for the same days
  const stats = await api.get(`/api/satisfactions/stats?date_from=${start}&date_to=${end}`, { token: admin.token })
  t.equal(stats.status, 200, stats.text)
  t.ok(stats.body.total_ratings >= 2, 'our two ratings counted')
  const ratings = page.getByRole('table', { name: 'Ratings by score' })
  await ratings.waitFor({ timeout: WAIT_MS })
  t.same(
    (await cells(ratings)).map((r) => r.slice(0, 2)),
    ['5', '4', '3', '2', '1'].map((s) => [s, fmt.format(stats.body.rating_distribution[s] ?? 0)]),
    'the distribution equals the API',
  )

  // CSV of the activity shown: built from the same data
  const downloaded = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download CSV: Activity per day' }).click()
  const download = await downloaded
  t.equal(download.suggestedFilename(), `activity_${start}_${end}.csv`)
  const csv = await readFile((await download.path())!, 'utf8')
  const expectedCsv = [
    'Day,Tickets,Resolved,Conversations,Messages',
    ...(days.body as any[]).map((d) => [d.date, d.tickets, d.resolved_tickets, d.sessions, d.messages].join(',')),
  ]
  t.same(csv.split('\r\n').filter(Boolean), expectedCsv, "the CSV's lines are the API's days")
  await page.getByRole('status').filter({ hasText: 'CSV downloaded' }).waitFor({ timeout: WAIT_MS })
  const slaDownload = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download CSV: Tickets by priority' }).click()
  const slaCsv = await readFile((await (await slaDownload).path())!, 'utf8')
  t.same(
    slaCsv.split('\r\n').filter(Boolean),
    ['Priority,Tickets', ...(priority.body as any[]).map((r) => `${r.key},${r.count}`)],
    "the priority CSV is the API's counts",
  )
  await checkAxe(t, page, 'the reports page')

  // live: a ticket of a new category made while the page is open shows without a reload (the 15 s poll)
  const fresh = `live-${suffix}`
  const made = await createTicket(
    api,
    { title: `Reports live ${suffix}`, customer_id: customer.user_id, category: fresh },
    { token: agent.token },
  )
  t.equal(made.status, 201, made.text)
  await page
    .getByRole('table', { name: 'Tickets by category, table' })
    .getByRole('rowheader', { name: fresh })
    .waitFor({ timeout: 60_000 })
  t.pass('the new category appeared without a reload')

  // a narrower range: the last day alone
  await form.getByLabel('From').fill(end)
  await form.getByRole('button', { name: 'Show' }).click()
  await activity.locator('tbody tr').nth(1).waitFor({ state: 'detached', timeout: WAIT_MS })
  const one = await api.get(
    `/api/statistics/time-range?start_date=${end}&end_date=${end}&tz=${encodeURIComponent(tz)}`,
    {
      token: admin.token,
    },
  )
  t.same(
    await cells(activity),
    (one.body as any[]).map((d) => [
      d.date,
      fmt.format(d.tickets),
      fmt.format(d.resolved_tickets),
      fmt.format(d.sessions),
      fmt.format(d.messages),
    ]),
    'one day, as the API answers it',
  )
})

t.test('an agent sees no Reports link; /admin/reports says not permitted and the API refuses it', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.agent)
  const rail = page.getByRole('navigation', { name: 'Console' })
  await rail.getByRole('link', { name: 'Tickets' }).waitFor({ timeout: WAIT_MS })
  t.equal(await rail.getByRole('link', { name: 'Reports' }).count(), 0, 'no Reports link')
  await page.goto('/admin/reports')
  await page.getByRole('heading', { name: 'Not permitted' }).waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('table').count(), 0, 'nothing of the screen shown')
  t.equal(await page.getByRole('heading', { name: 'Reports' }).count(), 0, 'no Reports heading')
  await checkAxe(t, page, '/admin/reports for an agent')
  t.equal((await api.get('/api/statistics/dashboard', { token: agent.token })).status, 403, 'the API refuses it')
  const today = new Date().toISOString().slice(0, 10)
  const range = `start_date=${today}&end_date=${today}`
  for (const path of [
    `sla-violations?${range}`,
    `ai-usage?${range}`,
    `ticket-category?${range}`,
    `ticket-priority?${range}`,
    'customer-source',
  ]) {
    const res = await api.get(`/api/statistics/${path}`, { token: agent.token })
    t.equal(res.status, 403, `${path} refused to an agent`)
  }
})
