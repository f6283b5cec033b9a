// The admin area's Reports in a real browser (Debian's Chromium) against the embedded default: tickets and ratings
// made through the API, then an admin opens Reports from the navigation rail and every number shown — the key
// figures, the activity and satisfaction per day, agent performance — equals statistics' answer for the same range
// and zone; the CSV download is the table shown; a narrower range asks again. An agent sees no Reports link, the
// typed address says "Not permitted", and the API refuses it anyway. Waits are on roles, names and texts only.

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
const admin = await login(api, system.admin.username, system.admin.password)
const agent = await login(api, system.agent.username, system.agent.password)
const fmt = new Intl.NumberFormat('en')

t.test('an admin reads Reports: the numbers shown are the API answers for the same range', async (t) => {
  const customer = await realCustomer(api, { token: admin.token }, `reports_ui_${suffix}`)
  const ids: string[] = []
  for (let i = 0; i < 3; i++) {
    const res = await createTicket(
      api,
      { title: `Reports UI ${suffix} ${i}`, customer_id: customer.user_id },
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
  // statistics has projected all of it: the dashboard counts our tickets and ratings, no projection behind
  await until('statistics caught up', async () => {
    const [dash, lag] = await Promise.all([
      api.get('/api/statistics/dashboard', { token: admin.token }),
      api.get('/api/statistics/lag', { token: admin.token }),
    ])
    return dash.body.total_tickets >= 3 && dash.body.customer_satisfaction > 0 && lag.body.caught_up ? true : undefined
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
  t.equal(await page.locator('.reports-chart canvas').count(), 2, 'two charts drawn (uPlot canvases)')

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
  await checkAxe(t, page, 'the reports page')

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
})
