// The admin area's Supervision in a real browser (Debian's Chromium) against the embedded default: a supervisor of a
// workspace of its own opens Supervision from the navigation rail; an agent set online, then away, through identity's
// API changes its row without a reload and without the page asking /api/agents again (the hub's presence frame moved
// it; the page's safety refetch is a minute away); a customer handed to a human with nobody online waits, and the queue shows
// length 1 and an oldest wait since the API's queued_at; agents' figures and loads equal identity's answer. The hub's
// sockets in the caller's scope equal /api/v1/ws/stats (supervisor, admin). An agent sees no link, the typed address
// says "Not permitted", the API refuses it statistics' lag. axe on each. Waits are on roles, names, texts and data
// attributes only: no sleeps, no retries.
import t from 'tap'
import { login } from '../harness/auth.ts'
import { conversationsKit, must } from '../harness/conversations-kit.ts'
import { until } from '../harness/http.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)
const kit = await conversationsKit(system)
const fmt = new Intl.NumberFormat('en')

t.test('a supervisor watches agents and the queue live; the figures are the APIs answers', async (t) => {
  const scope = kit.freshScope('superv')
  const alice = await kit.agent(scope, 'alice', { max_concurrent: 3 })
  await kit.agent(scope, 'bob', { max_concurrent: 2 })
  // a supervisor of the same workspace: staff (an agent record) promoted through identity's operators' API
  const sup = await kit.agent(scope, 'sup')
  must(
    await kit.api.put(`/api/security/users/${sup.user_id}/role`, { role: 'supervisor' }, kit.svc(scope)),
    200,
    'promote to supervisor',
  )
  const supToken = (await login(kit.api, sup.username, sup.password)).token

  const page = await newPage(t, browser, system)
  await loginAs(page, sup)
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Supervision' }).click()
  await page.getByRole('heading', { name: 'Supervision', level: 1 }).waitFor({ timeout: WAIT_MS })
  t.equal(new URL(page.url()).pathname, '/admin/supervision', 'the link opens /admin/supervision')

  const table = page.getByRole('table', { name: 'Agents' })
  const row = table.getByRole('row').filter({ hasText: `alice ${kit.suffix}` })
  await row.filter({ hasText: 'Offline' }).waitFor({ timeout: WAIT_MS })
  t.equal(await row.getByRole('cell').nth(1).textContent(), '0 / 3', 'load against capacity')
  t.equal(await table.locator('tbody tr').count(), 3, 'one row per agent of the workspace (the supervisor is one)')
  t.equal(await page.locator('[data-figure="queue_length"]').textContent(), '0', 'nobody waits yet')

  // presence through the API: the row follows without a reload, from the hub's presence frame — the page asks
  // /api/agents no more meanwhile (its safety refetch is a minute away, the waits here 20 s at most)
  const agentReads: string[] = []
  const countReads = (req: { url(): string }) => {
    if (new URL(req.url()).pathname === '/api/agents') agentReads.push(req.url())
  }
  page.on('request', countReads)
  must(await kit.api.post(`/api/agents/${alice.id}/online`, undefined, kit.svc(scope)), 200, 'online')
  await row.filter({ hasText: 'Online' }).waitFor({ timeout: WAIT_MS })
  t.pass('online shown live')
  must(await kit.api.put(`/api/agents/${alice.id}/status`, { status: 'away' }, kit.svc(scope)), 200, 'away')
  await row.filter({ hasText: 'Away' }).waitFor({ timeout: WAIT_MS })
  t.pass('away shown live')
  await page.getByText('0 online, 0 busy, 1 away, 2 offline').waitFor({ timeout: WAIT_MS })
  page.off('request', countReads)
  t.same(agentReads, [], 'no /api/agents request: the presence frames moved the row')

  // nobody online: a customer handed to a human waits
  const dave = await kit.customer(scope, 'dave')
  const { session } = await kit.hub(scope).open('Is anyone there?', dave.user_id)
  const queued = must(
    await kit.api.post('/api/session-transfer/to-human', { session_id: session.id }, kit.svc(scope)),
    200,
    'to-human',
  )
  t.match(queued, { is_waiting: true, queue_position: 1 })
  const length = page.locator('[data-figure="queue_length"]')
  await page.locator('[data-figure="queue_length"]', { hasText: /^1$/ }).waitFor({ timeout: WAIT_MS })
  const waiting = must(await kit.api.get('/api/session-transfer/waiting', { token: supToken }), 200, 'waiting')
  t.equal(waiting.count, 1, 'the API counts one waiting')
  t.equal(await length.textContent(), fmt.format(waiting.count), 'the length shown is the API count')
  const oldest = page.locator('[data-figure="oldest_wait"]')
  t.equal(await oldest.getAttribute('data-since'), waiting.items[0].queued_at, 'the oldest wait runs from queued_at')
  t.match(await oldest.textContent(), /^\d+:\d\d$/, 'the oldest wait shown as m:ss')

  // every row as identity answers it (status and load/capacity), to the supervisor's own token
  const agents = must(await kit.api.get('/api/agents?page_size=200', { token: supToken }), 200, 'agents')
  for (const a of agents.data as any[]) {
    const r = table.getByRole('row').filter({ hasText: a.name })
    t.equal(await r.getByRole('cell').nth(1).textContent(), `${a.current_load} / ${a.max_concurrent}`, `${a.name} load`)
    t.equal(await r.locator('[data-status]').getAttribute('data-status'), a.status, `${a.name} status`)
  }
  await page.locator('[data-figure="statistics_lag"]').waitFor({ timeout: WAIT_MS })
  // the hub's sockets in the supervisor's scope: its own console among them
  const stats = await until('the supervisor console connected to the hub', async () => {
    const s = must(await kit.api.get('/api/v1/ws/stats?scope=cluster', { token: supToken }), 200, 'ws stats')
    return s.by_kind.console >= 1 ? s : undefined
  })
  await page
    .locator('[data-figure="sockets_console"]', { hasText: new RegExp(`^${fmt.format(stats.by_kind.console)}$`) })
    .waitFor({ timeout: WAIT_MS })
  t.equal(
    await page.locator('[data-figure="sockets_total"]').textContent(),
    fmt.format(stats.connected_clients),
    "the scope's sockets equal the hub's answer",
  )
  await checkAxe(t, page, 'supervision with a waiting customer')
})

t.test('an admin sees the sockets of its workspace, equal to the hub stats', async (t) => {
  const admin = await login(kit.api, system.admin.username, system.admin.password)
  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin)
  await page.goto('/admin/supervision')
  await page.getByRole('heading', { name: 'Connections' }).waitFor({ timeout: WAIT_MS })
  // the admin's own console is connected: wait until the page shows the hub's current answer
  const stats = await until('the admin console connected to the hub', async () => {
    const s = must(await kit.api.get('/api/v1/ws/stats?scope=cluster', { token: admin.token }), 200, 'ws stats')
    return s.by_kind.console >= 1 ? s : undefined
  })
  await page
    .locator('[data-figure="sockets_console"]', { hasText: new RegExp(`^${fmt.format(stats.by_kind.console)}$`) })
    .waitFor({ timeout: WAIT_MS })
  t.equal(
    await page.locator('[data-figure="sockets_total"]').textContent(),
    fmt.format(stats.connected_clients),
    'sockets equal the hub',
  )
  t.equal(
    await page.locator('[data-figure="sessions_with_sockets"]').textContent(),
    fmt.format(stats.sessions_with_sockets),
  )
  await checkAxe(t, page, 'supervision for an admin')
})

t.test('an agent sees no Supervision link; /admin/supervision says not permitted', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.agent)
  const rail = page.getByRole('navigation', { name: 'Console' })
  await rail.getByRole('link', { name: 'Tickets' }).waitFor({ timeout: WAIT_MS })
  t.equal(await rail.getByRole('link', { name: 'Supervision' }).count(), 0, 'no Supervision link')
  await page.goto('/admin/supervision')
  await page.getByRole('heading', { name: 'Not permitted' }).waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('heading', { name: 'Supervision' }).count(), 0, 'no Supervision heading')
  t.equal(await page.getByRole('table').count(), 0, 'nothing of the screen shown')
  await checkAxe(t, page, '/admin/supervision for an agent')
  // what only supervisors read here (statistics.read): the API refuses the agent too
  const agentToken = (await login(kit.api, system.agent.username, system.agent.password)).token
  const lag = await kit.api.get('/api/statistics/lag', { token: agentToken })
  t.equal(lag.status, 403, `the API refuses the statistics lag to an agent: ${lag.text}`)
})
