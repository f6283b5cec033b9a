// Reports while statistics is behind, in a real browser (Debian's Chromium) against the embedded default: the page
// says nothing while statistics is caught up; statistics' own `tickets` table is renamed away (as
// admin-operations parks audit's), so a new ticket's event cannot be projected and waits for its redelivery (0.2, 1,
// 5, 15 s…) — the API's GET /api/statistics/lag says it is behind, and the open page says "Statistics are N s
// behind" on its next read (every 15 s) with N no more than the API's; the table back, the event is applied on its
// next delivery, the API says caught up and the page stops saying it, the ticket now counted. No sleeps: every wait
// is on a role, a text or an API answer.
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
/** the page reads the lag every 15 s: a change shows within one read and a margin */
const POLL_WAIT_MS = 40_000

t.test('the reports say how far statistics is behind, and stop saying it once caught up', async (t) => {
  const customer = await realCustomer(api, asAdmin, `lag_ui_${suffix}`)
  await until('statistics caught up', async () =>
    (await api.get('/api/statistics/lag', asAdmin)).body.caught_up === true ? true : undefined,
  )
  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin, '/admin/reports')
  await page.getByRole('table', { name: 'Activity per day, table' }).waitFor({ timeout: WAIT_MS })
  await page.getByText(/^Updated /).waitFor({ timeout: WAIT_MS })
  t.equal(await page.locator('[data-figure="statistics_lag"]').count(), 0, 'caught up: nothing said')
  const category = `lag-${suffix}`
  const counted = async () =>
    ((await api.get('/api/statistics/ticket-category', asAdmin)).body as any[]).some((r) => r.key === category)

  // statistics' tickets table parked: the ticket's event fails in its projection and is redelivered later
  const stats = await system.serviceDatabase('statistics')
  t.teardown(() => stats.close())
  const parked = `tickets_parked_${suffix}`
  await stats.db.schema.alterTable('tickets').renameTo(parked).execute()
  let restored = false
  const restore = async () => {
    if (restored) return
    restored = true
    await stats.db.schema.alterTable(parked).renameTo('tickets').execute()
  }
  t.teardown(restore)
  const made = await createTicket(
    api,
    { title: `Lag UI ${suffix}`, customer_id: customer.user_id, category },
    { token: agent.token },
  )
  t.equal(made.status, 201, made.text)
  const behind = await until('the API says statistics is behind', async () => {
    const lag = (await api.get('/api/statistics/lag', asAdmin)).body
    return lag.caught_up === false ? lag : undefined
  })
  t.match(
    (behind.projections as any[]).find((p) => p.stream === 'TICKETS'),
    { pending: true, rebuilding: false },
    'the tickets projection has an event pending',
  )
  const alert = page
    .getByRole('alert')
    .filter({ hasText: /^Statistics are \d+ s behind: the newest events are not counted yet$/ })
  await alert.waitFor({ timeout: POLL_WAIT_MS })
  const shown = Number(/(\d+) s/.exec((await alert.textContent()) ?? '')?.[1])
  const now = (await api.get('/api/statistics/lag', asAdmin)).body
  const apiSeconds = Math.max(...(now.projections as any[]).map((p) => p.lag_seconds))
  t.ok(shown <= Math.round(apiSeconds) + 1, `the page's ${shown} s is the API's lag read earlier (now ${apiSeconds})`)
  t.notOk(await counted(), 'the new ticket is not counted yet')
  await checkAxe(t, page, 'the reports with statistics behind')

  // the table back: the next delivery applies the event
  await restore()
  await until(
    'the API says caught up',
    async () => ((await api.get('/api/statistics/lag', asAdmin)).body.caught_up === true ? true : undefined),
    POLL_WAIT_MS,
  )
  t.ok(await counted(), 'the ticket is counted now')
  await alert.waitFor({ state: 'detached', timeout: POLL_WAIT_MS })
  t.pass('the page no longer says statistics is behind')
  await page
    .getByRole('table', { name: 'Tickets by category, table' })
    .getByRole('rowheader', { name: category })
    .waitFor({ timeout: POLL_WAIT_MS })
  t.pass('and shows the ticket it had not counted')
})
