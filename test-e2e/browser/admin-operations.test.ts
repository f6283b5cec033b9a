// The admin area's operations page in a real browser (Debian's Chromium) against the embedded default: the
// system's health lists every unit the gateway routes to as ready (the same units as GET /api/system/health), and
// a real dead letter — an audit record whose consumer failed (the audit table renamed away, as
// test-e2e/operations.test.ts makes one) — is listed, inspected and replayed by the operator once the consumer
// works again: gone from the list, delivered into the audit log exactly once; "Replay all" empties the rest with
// its progress. Every wait is on a role, a name or a text: no sleeps, no retries.
import { randomBytes } from 'node:crypto'
import t from 'tap'
import { login } from '../harness/auth.ts'
import { auditedCustomer, parkAuditTable } from '../harness/dead-letters.ts'
import { client, until } from '../harness/http.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const system = await consoleSystem(t)
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
