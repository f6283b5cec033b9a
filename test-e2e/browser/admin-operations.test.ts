// The admin area's operations page in a real browser (Debian's Chromium) against the embedded default: the
// system's health lists every unit the gateway routes to as ready (the same units as GET /api/system/health), each
// replica's figures from its /metrics equal to the API's answer the page got — a stand-in unit whose /metrics fails
// (a small real server the gateway is pointed at) says so on its row — and
// a real dead letter — an audit record whose consumer failed (the audit table renamed away, as
// test-e2e/operations.test.ts makes one) — is listed, inspected and replayed by the operator once the consumer
// works again: gone from the list, delivered into the audit log exactly once; "Replay all" empties the rest with
// its progress. Every wait is on a role, a name or a text: no sleeps, no retries.
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { login } from '../harness/auth.ts'
import { auditedCustomer, parkAuditTable } from '../harness/dead-letters.ts'
import { client, until } from '../harness/http.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

// a unit whose /ready says yes and whose /metrics fails: the gateway routes nothing to it, but asks it like the others
const broken = createServer((req, res) => {
  if (req.url === '/ready') res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ready"}')
  else res.writeHead(500).end('boom')
})
await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve))
t.teardown(() => broken.close())
const BROKEN_UNIT = 'broken-metrics'
const system = await consoleSystem(t, 'embedded', {
  env: { UPSTREAM_BROKEN_METRICS: `http://127.0.0.1:${(broken.address() as AddressInfo).port}` },
})
const browser = await launchBrowser(t)
const api = client(system.url)
const suffix = randomBytes(3).toString('hex')
const admin = await login(api, system.admin.username, system.admin.password)
const agent = await login(api, system.agent.username, system.agent.password)

t.test('the health page lists every unit as ready', async (t) => {
  const health = await api.get('/api/system/health', { token: admin.token })
  t.equal(health.status, 200, health.text)
  const units = (health.body.units as any[]).map((u) => u.unit)
  t.ok(units.length >= 6, `the gateway routes to ${units.length} units`)

  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin)
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Operations' }).click()
  await page.getByRole('heading', { name: 'System health' }).waitFor({ timeout: WAIT_MS })
  t.equal(new URL(page.url()).pathname, '/admin/operations')
  const table = page.getByRole('table', { name: 'Units' })
  await table.waitFor({ timeout: WAIT_MS })
  await page.getByText('All units ready').waitFor({ timeout: WAIT_MS })
  const shown = await table.getByRole('rowheader').allTextContents()
  t.same([...shown].sort(), [...units].sort(), 'every unit listed once')
  for (const unit of units) {
    const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: unit, exact: true }) })
    const text = (await row.textContent()) ?? ''
    t.match(text, /Ready/, `${unit} ready`)
    t.notMatch(text, /Not ready/, `${unit} not "Not ready"`)
  }
  await checkAxe(t, page, 'the operations page')
})

// the page's own formatting (features/operations/health-format.ts), in English
const fmt = new Intl.NumberFormat('en')
const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d
const withRate = (n: number, rate: number | null) =>
  rate === null ? fmt.format(n) : `${fmt.format(n)} (${fmt.format(round(rate, 2))}/s)`
function uptimeText(s: number) {
  const [d, h, m] = [Math.floor(s / 86_400), Math.floor((s % 86_400) / 3600), Math.floor((s % 3600) / 60)]
  return d > 0 ? `${d} d ${h} h` : h > 0 ? `${h} h ${m} min` : m > 0 ? `${m} min` : `${Math.floor(s)} s`
}
function expectedCells(m: any): Record<string, string> {
  return {
    ready: 'Yes',
    uptime: uptimeText(m.uptime_seconds),
    memory: `${fmt.format(round(m.resident_memory_bytes / 1_048_576, 1))} MiB`,
    lag: `${fmt.format(round(m.event_loop_lag_p99_seconds * 1000, 1))} ms`,
    requests: withRate(m.http_requests_total, m.http_requests_per_second),
    errors: withRate(m.http_5xx_total, m.http_5xx_per_second),
    published: fmt.format(m.events_published_total),
    failed: fmt.format(m.events_failed_total),
    dead_lettered: fmt.format(m.events_dead_lettered_total),
  }
}
function expectedUnitFigures(m: any): string[] {
  return [
    ...(m.waiting_sessions === undefined ? [] : [`Waiting sessions: ${fmt.format(m.waiting_sessions)}`]),
    ...Object.entries(m.projection_lag_seconds ?? {}).map(
      ([p, n]) => `Projection ${p} lag: ${fmt.format(n as number)} s`,
    ),
    ...Object.entries(m.hub_sockets ?? {}).map(([k, n]) => `Sockets (${k}): ${fmt.format(n as number)}`),
    ...Object.entries(m.breakers ?? {}).map(([b, state]) => `Breaker ${b}: ${state}`),
  ]
}

t.test("each replica's figures from /metrics are the API's answer; a failed scrape says so on its row", async (t) => {
  const page = await newPage(t, browser, system)
  // every answer the page gets from the health route, the last one kept: what the table must show
  const answers: any[] = []
  page.on('response', async (res) => {
    if (new URL(res.url()).pathname === '/api/system/health' && res.status() === 200) answers.push(await res.json())
  })
  await loginAs(page, system.admin)
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Operations' }).click()
  const table = page.getByRole('table', { name: 'Replicas' })
  await table.waitFor({ timeout: WAIT_MS })
  await page.getByRole('button', { name: 'Check again' }).click() // a second look: rates since the first
  const rowOf = (name: string) =>
    table.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) })
  /** what the table shows for each replica with figures, read by row header and figure */
  const readShown = async (body: any) => {
    const out: Record<string, { cells: Record<string, string>; items: string[] }> = {}
    for (const u of body.units as any[]) {
      for (const r of u.instances) {
        if (!r.metrics) continue
        const row = rowOf(`${u.unit} #${r.replica}`)
        const cells: Record<string, string> = {}
        for (const key of Object.keys(expectedCells(r.metrics)))
          cells[key] = (await row.locator(`[data-figure="${key}"]`).textContent()) ?? ''
        out[`${u.unit} #${r.replica}`] = { cells, items: await row.getByRole('listitem').allTextContents() }
      }
    }
    return out
  }
  const expectedOf = (body: any) =>
    Object.fromEntries(
      (body.units as any[]).flatMap((u) =>
        u.instances
          .filter((r: any) => r.metrics)
          .map((r: any) => [
            `${u.unit} #${r.replica}`,
            { cells: expectedCells(r.metrics), items: expectedUnitFigures(r.metrics) },
          ]),
      ),
    )
  // the last answer (the second or a later one: the page asks again every 15 s) once the table shows it
  let shown: Awaited<ReturnType<typeof readShown>> = {}
  const seen = await until(
    'the table showing the last answer',
    async () => {
      const body = answers.length >= 2 ? answers.at(-1) : undefined
      if (!body) return undefined
      shown = await readShown(body)
      return JSON.stringify(shown) === JSON.stringify(expectedOf(body)) ? body : undefined
    },
    WAIT_MS,
    250,
  ).catch(() => answers.at(-1))
  const rows = await table.getByRole('rowheader').allTextContents()
  const expectedRows = (seen.units as any[]).flatMap((u) => u.instances.map((r: any) => `${u.unit} #${r.replica}`))
  t.same(rows, expectedRows, 'a row per replica of every unit, in the API order')
  t.ok(rows.includes(`${BROKEN_UNIT} #1`), 'the stand-in unit too')
  const expected = expectedOf(seen)
  for (const [name, want] of Object.entries(expected)) {
    t.same(shown[name]?.cells, want.cells, `${name}: every figure is the API's`)
    t.same(shown[name]?.items, want.items, `${name}: its unit figures`)
  }
  t.equal(Object.keys(expected).length, (seen.units as any[]).length - 1, 'every real unit compared')
  for (const u of seen.units as any[]) {
    if (u.unit === BROKEN_UNIT) continue
    const m = u.instances[0].metrics
    t.ok(m.resident_memory_bytes > 0 && m.http_requests_per_second !== null, `${u.unit}: real figures, with a rate`)
  }
  const names = Object.fromEntries((seen.units as any[]).map((u) => [u.unit, u.instances[0].metrics]))
  t.same(Object.keys(names.statistics.projection_lag_seconds).length, 4, "statistics' four projections")
  t.same(names['ai-orchestrator'].breakers, { primary: 'closed', compatibility: 'closed', llm: 'closed' })
  t.type(names.conversations.waiting_sessions, 'number')
  t.ok(names['realtime-voice'].hub_sockets.console >= 1, "the hub counts this console's socket")

  const brokenApi = (seen.units as any[]).find((u) => u.unit === BROKEN_UNIT).instances[0]
  t.same(brokenApi, { replica: 1, ready: true, metrics: null, metrics_error: 'http 500' }, 'the API says why')
  const brokenRow = rowOf(`${BROKEN_UNIT} #1`)
  t.equal(await brokenRow.locator('[data-figure="ready"]').textContent(), 'Yes', 'ready all the same')
  t.equal(await brokenRow.locator('[data-figure="metrics_error"]').textContent(), 'No metrics: http 500')
  await checkAxe(t, page, 'the operations page with the replicas')
})

t.test("a tenant administrator (it holds * too) is shown no Operations link: the ops surface isn't its", async (t) => {
  const password = `Pw-tadmin-${suffix}-0123456789`
  const created = await api.post(
    '/api/security/users',
    { username: `tadmin_${suffix}`, email: `tadmin_${suffix}@e2e.example.com`, role: 'admin', password },
    { token: admin.token },
  )
  t.equal(created.status, 201, created.text)
  const page = await newPage(t, browser, system)
  await loginAs(page, { username: `tadmin_${suffix}`, password })
  const nav = page.getByRole('navigation', { name: 'Console' })
  await nav.getByRole('link', { name: 'Audit' }).waitFor({ timeout: WAIT_MS })
  t.equal(await nav.getByRole('link', { name: 'Operations' }).count(), 0, 'no Operations link')
  const health = await api.get('/api/system/health', { token: (await login(api, `tadmin_${suffix}`, password)).token })
  t.equal(health.status, 403, 'and the gateway refuses it')
})

t.test('an operator inspects and replays a dead letter; it is gone and delivered once', async (t) => {
  const tokens = { admin: admin.token, agent: agent.token }
  const customer = await auditedCustomer(t, api, tokens, `ops_ui_${suffix}`, suffix)
  const restore = await parkAuditTable(t, system, suffix)

  // two tickets whose audit records cannot be stored: one replayed on its own, the other with "Replay all"
  const ids: string[] = []
  for (const n of [1, 2]) {
    const created = await api.post(
      '/api/tickets',
      { title: `Dead letter UI ${n} ${suffix}`, customer_id: customer.user_id },
      { token: agent.token },
    )
    t.equal(created.status, 201, created.text)
    ids.push(created.body.id as string)
  }
  const [id, other] = ids as [string, string]
  const letterOf = (ticket: string) => (d: any) =>
    d.envelope?.data?.resource_id === ticket && d.envelope?.data?.action === 'tickets.create'
  const isOurs = letterOf(id)
  const [letter, otherLetter] = await until(
    'both audit records in the dead-letter stream',
    async () => {
      const res = await api.get('/api/ops/dead-letters?limit=1000', { token: admin.token })
      const items = (res.body.items as any[] | undefined) ?? []
      const found = [items.find(isOurs), items.find(letterOf(other))]
      return found.every(Boolean) ? found : undefined
    },
    60_000,
    500,
  )
  await restore()

  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin, '/admin/operations')
  const list = page.getByRole('table', { name: 'Dead-letter list' })
  await list.waitFor({ timeout: WAIT_MS })
  const row = list
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: String(letter.seq), exact: true }) })
  await row.waitFor({ timeout: WAIT_MS })
  t.match(await row.textContent(), letter.consumer, 'the consumer that failed')
  await checkAxe(t, page, 'the dead letters')

  await page.getByRole('button', { name: `Inspect dead letter ${letter.seq}` }).click()
  const inspected = page.getByRole('region', { name: `Dead letter ${letter.seq}` })
  await inspected.waitFor({ timeout: WAIT_MS })
  const detail = (await inspected.textContent()) ?? ''
  t.ok(detail.includes(id), "the envelope shows the ticket's id")
  t.ok(detail.includes('tickets.create'), 'and the action')
  t.ok(detail.includes(letter.error), 'and the error')
  await checkAxe(t, page, 'a dead letter inspected')

  await page.getByRole('button', { name: `Replay dead letter ${letter.seq}` }).click()
  await page
    .getByRole('status')
    .filter({ hasText: /^Replayed 1$/ })
    .waitFor({ timeout: WAIT_MS })
  await row.waitFor({ state: 'detached', timeout: WAIT_MS })
  t.pass('the replayed dead letter is gone from the list')
  const otherRow = list.getByRole('rowheader', { name: String(otherLetter.seq), exact: true })
  t.equal(await otherRow.count(), 1, 'the other dead letter is still listed: only the one asked for was replayed')
  const after = await api.get('/api/ops/dead-letters?limit=1000', { token: admin.token })
  t.notOk((after.body.items as any[]).some(isOurs), 'no longer a dead letter (API)')
  const delivered = await until('the replayed audit record', async () => {
    const res = await api.get('/api/audit/logs?action=tickets.create', { token: admin.token })
    return (res.body.data as any[]).find((r) => r.resource_id === id)
  })
  t.equal(delivered.success, true)
  const again = await api.get('/api/audit/logs?action=tickets.create', { token: admin.token })
  t.equal((again.body.data as any[]).filter((r) => r.resource_id === id).length, 1, 'delivered exactly once')

  // the other one, and whatever else failed while the table was away: replayed all at once, with progress
  await page.getByRole('button', { name: 'Refresh' }).click()
  const counted = page.getByText(/^\d+ dead letters?$/)
  await counted.waitFor({ timeout: WAIT_MS })
  const left = Number.parseInt((await counted.textContent()) ?? '', 10)
  t.ok(left >= 1, `${left} left to replay`)
  await page.getByRole('button', { name: 'Replay all', exact: true }).click()
  await page.getByRole('button', { name: 'Confirm: replay all' }).click()
  await page
    .getByRole('status')
    .filter({ hasText: `Replayed ${left}` })
    .waitFor({ timeout: WAIT_MS })
  const progress = page.getByRole('progressbar', { name: 'Replay progress' })
  t.equal(await progress.getAttribute('max'), String(left), 'the progress bar counts every dead letter')
  t.equal(await progress.getAttribute('value'), String(left), 'and is full')
  await until('the other replayed audit record', async () => {
    const res = await api.get('/api/audit/logs?action=tickets.create', { token: admin.token })
    return (res.body.data as any[]).find((r) => r.resource_id === other)
  })
  await page.getByText('No dead letters.').waitFor({ timeout: WAIT_MS })
  t.equal((await api.get('/api/ops/dead-letters', { token: admin.token })).body.count, 0, 'none left (API)')
  await checkAxe(t, page, 'the operations page after the replay')
})
