// The admin area on the fleet (PostgreSQL, Redis, NATS; every service its own process behind the gateway), in one
// Chromium: the demo administrator walks every section its rail shows — the walk fails when a section joins the rail
// without joining it here — and for each: the screen renders, the figures it shows equal the API's (reports'
// figures and days, supervision's agents and queue, People's agents, the audit list's records, the units' health,
// the providers' breakers, …), ONE write made on the page persists (re-read through the API) and is found in the
// audit log, and axe is clean. Configuration's write is dual control across config-governance's transactions and
// events: A proposes a high-risk change that waits, B (another administrator, its own context) approves, it applies.
// The registry's and the providers' writes belong to a platform operator (a session bound to no tenant), who makes
// them in a context of its own. No sleeps: every wait is on a role, a name, a text or an API answer.
import { randomBytes } from 'node:crypto'
import type { Page } from 'playwright-core'
import t from 'tap'
import { startPrimaryStandIn } from '../../services/ai-orchestrator/test/helpers/stand-ins.ts'
import { login } from '../harness/auth.ts'
import { auditedCustomer, parkAuditTable } from '../harness/dead-letters.ts'
import { client, until } from '../harness/http.ts'
import { platformOperator } from '../harness/platform-operator.ts'
import { createTicket, realCustomer } from '../harness/tickets-kit.ts'
import { agrees, approveChange, audited, proposeLlmTimeout, rows, says } from './admin-steps.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

// a fleet starts in 1–3 min on a two-core machine (nine Node processes): far beyond the suite's default
t.setTimeout(300_000)
// a primary knowledge provider (a small real HTTP stand-in) for AI providers to show configured and switch
const primary = await startPrimaryStandIn({ docs: [{ title: 'Refunds', content: 'Paid in 14 days.' }] })
t.teardown(() => primary.close())
const ps = primary.settings()
const system = await consoleSystem(t, 'fleet', {
  env: {
    PRIMARY_PROVIDER_ENABLED: 'true',
    PRIMARY_PROVIDER_BASE_URL: ps.base_url,
    PRIMARY_PROVIDER_API_KEY: ps.api_key,
    PRIMARY_PROVIDER_DATASET_ID: ps.dataset_id,
  },
})
const browser = await launchBrowser(t)
const api = client(system.url)
const suffix = randomBytes(3).toString('hex')
const fmt = new Intl.NumberFormat('en')
const admin = await login(api, system.admin.username, system.admin.password)
const agent = await login(api, system.agent.username, system.agent.password)
const asAdmin = { token: admin.token }
const byAdmin = (what: string, match: (r: any) => boolean) => audited(api, admin.token, admin.user.id, what, match)
const operator = await platformOperator(system, api, suffix)
const op = { token: operator.login.token }

// the sections the walk covers, by their rail names; the rail must show exactly these to the demo administrator
const WALKED = ['Reports', 'Supervision', 'Audit', 'Operations', 'Configuration', 'People', 'Knowledge']
WALKED.push('Workspaces', 'Custom fields', 'Service settings', 'AI providers')
// something for the reports and the supervision to count: a customer's ticket
const customer = await realCustomer(api, asAdmin, `fleet_adm_${suffix}`)
const asAgent = { token: agent.token }
const ticket = await createTicket(api, { title: `Fleet admin ${suffix}`, customer_id: customer.user_id }, asAgent)
if (ticket.status !== 201) throw new Error(`ticket: ${ticket.status} ${ticket.text}`)

// the administrator's one page, the walk's: signed in once, moved from section to section by the rail
const page: Page = await newPage(t, browser, system)
await loginAs(page, system.admin)
// the platform operator's page (its own context): the registry's and the providers' writes are its alone
const o: Page = await newPage(t, browser, system)
const rail = page.getByRole('navigation', { name: 'Console' })
async function open(link: string, heading: string): Promise<void> {
  await rail.getByRole('link', { name: link, exact: true }).click()
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor({ timeout: WAIT_MS })
}

t.test('the rail shows the administrator exactly the sections walked here', async (t) => {
  await rail.getByRole('link', { name: 'Reports' }).waitFor({ timeout: WAIT_MS })
  const links = await rail.locator('a[data-admin]').allTextContents() // admin-nav.tsx: one per allowed section
  t.same(links, WALKED, 'a section added to the rail needs its fleet walk in this file')
})

t.test('Reports: the figures and the days equal statistics’ answers', async (t) => {
  // statistics' projection (a consumer on NATS) has the ticket: the comparison is not of zeros
  const caughtUp = async () => (await api.get('/api/statistics/lag', asAdmin)).body.caught_up || undefined
  const counted = async () => (await api.get('/api/statistics/dashboard', asAdmin)).body.total_tickets >= 1 || undefined
  await until('statistics caught up with the ticket', async () => (await counted()) && caughtUp(), 60_000)
  await open('Reports', 'Reports')
  const tz = encodeURIComponent(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone))
  const form = page.getByRole('form', { name: 'Date range' })
  const q = `start_date=${await form.getByLabel('From').inputValue()}&end_date=${await form.getByLabel('To').inputValue()}`
  const keys = ['total_tickets', 'open_tickets', 'resolved_tickets', 'today_tickets', 'total_customers']
  await agrees(
    'the key figures',
    () => Promise.all(keys.map((k) => page.locator(`[data-figure="${k}"]`).textContent())),
    async () => {
      const dash = await api.get(`/api/statistics/dashboard?tz=${tz}`, asAdmin)
      return keys.map((k) => fmt.format(dash.body[k]))
    },
  )
  await agrees(
    'activity per day',
    () => rows(page.getByRole('table', { name: 'Activity per day, table' })),
    async () => {
      const days = await api.get(`/api/statistics/time-range?${q}&tz=${tz}`, asAdmin)
      return (days.body as any[]).map((d) =>
        [d.date, d.tickets, d.resolved_tickets, d.sessions, d.messages].map((v, i) => (i ? fmt.format(v) : v)),
      )
    },
  )
  t.pass('the key figures and the activity per day are the API’s')
  await checkAxe(t, page, 'Reports on the fleet')
})

t.test('Supervision: agents and the queue equal identity’s and the queue’s answers', async (t) => {
  await open('Supervision', 'Supervision')
  const table = page.getByRole('table', { name: 'Agents' })
  await agrees(
    'the agents and their status',
    () => table.locator('[data-status]').evaluateAll((s) => s.map((e: any) => e.getAttribute('data-status')).sort()),
    async () => ((await api.get('/api/agents?page_size=200', asAdmin)).body.data as any[]).map((a) => a.status).sort(),
  )
  const queued = async () => fmt.format((await api.get('/api/session-transfer/waiting', asAdmin)).body.count)
  await agrees('the queue length', () => page.locator('[data-figure="queue_length"]').textContent(), queued)
  t.pass('agents and queue as the APIs answer')
  await checkAxe(t, page, 'Supervision on the fleet')
})

t.test('People: the agents listed are identity’s; a person created on the page exists and is audited', async (t) => {
  await open('People', 'People')
  const table = page.getByRole('table', { name: 'Agents and operators' })
  const count = () => table.locator('tbody tr').count()
  await agrees('the agent count', count, async () => (await api.get('/api/agents', asAdmin)).body.total)
  await checkAxe(t, page, 'People on the fleet')
  const username = `fleet_person_${suffix}`
  const form = page.getByRole('form', { name: 'Add a person' })
  await form.getByRole('textbox', { name: 'Username' }).fill(username)
  await form.getByRole('textbox', { name: 'E-mail' }).fill(`${username}@example.test`)
  await form.getByRole('textbox', { name: 'Full name' }).fill(`Fleet person ${suffix}`)
  await form.getByRole('combobox', { name: 'Role' }).selectOption('agent')
  await form.getByRole('button', { name: 'Create' }).click()
  const link = page.getByRole('region', { name: 'Set-password link' })
  await link.getByRole('button', { name: 'Done' }).click()
  await table.getByRole('row').filter({ hasText: username }).waitFor({ timeout: WAIT_MS })
  const record = await byAdmin('the create', (r) => r.request_json?.username === username && r.success)
  const user = await api.get(`/api/security/users/${record.resource_id}`, asAdmin)
  t.match(user.body, { role: 'agent', status: 'active' }, 'identity has it')
  await agrees('the agent count after', count, async () => (await api.get('/api/agents', asAdmin)).body.total)
})

t.test('Knowledge: a macro saved on the page is listed by the API and audited', async (t) => {
  await open('Knowledge', 'Knowledge')
  await page.getByRole('navigation', { name: 'Knowledge sections' }).getByRole('link', { name: 'Macros' }).click()
  const name = `Fleet macro ${suffix}`
  await page.getByRole('button', { name: 'New macro' }).click()
  const form = page.getByRole('form', { name: 'Macro' })
  await form.getByRole('textbox', { name: 'Name' }).fill(name)
  await form.getByRole('textbox', { name: 'Reply text' }).fill('Hello from the fleet')
  await form.getByRole('button', { name: 'Save macro' }).click()
  const table = page.getByRole('table', { name: 'Macros' })
  await table.getByRole('rowheader', { name }).waitFor({ timeout: WAIT_MS })
  const listed = (await api.get('/api/macros?page_size=100', asAdmin)).body.data as any[]
  const shown = (await table.getByRole('rowheader').allTextContents()).sort()
  t.same(shown, listed.map((m) => m.name).sort(), 'the macros shown are the API’s')
  const macro = listed.find((m) => m.name === name)
  await byAdmin('the macro', (r) => r.resource_id === macro.id)
  t.pass('the macro is in the audit log')
  await checkAxe(t, page, 'Knowledge on the fleet')
})

t.test('Custom fields: a field saved on the page is the API’s and audited', async (t) => {
  await open('Custom fields', 'Custom fields')
  await page.getByRole('button', { name: 'New field' }).click()
  const editor = page.getByRole('form', { name: 'New field' })
  await editor.getByRole('textbox', { name: 'Key' }).fill(`fleet_${suffix}`)
  await editor.getByRole('textbox', { name: 'Label' }).fill('Fleet field')
  await checkAxe(t, page, 'Custom fields on the fleet')
  await editor.getByRole('button', { name: 'Save field' }).click()
  await says(page, `Field fleet_${suffix} saved`)
  const fields = (await api.get('/api/custom-fields?resource=ticket', asAdmin)).body.items as any[]
  const saved = fields.find((f) => f.key === `fleet_${suffix}`)
  t.match(saved, { name: 'Fleet field', type: 'string' }, 'the API has it')
  t.equal(await page.getByRole('table', { name: 'Ticket fields' }).locator('tbody tr').count(), fields.length)
  await byAdmin('the field', (r) => r.resource_id === saved.id)
  t.pass('the field is in the audit log')
})

t.test('Service settings: survey links set to 4 days persist and are audited', async (t) => {
  await open('Service settings', 'Service settings')
  const survey = page.getByRole('form', { name: 'Survey settings' })
  await survey.getByRole('spinbutton', { name: 'Survey link answers for (days)' }).fill('4')
  await survey.getByRole('button', { name: 'Save survey settings' }).click()
  await says(page, 'Survey settings saved')
  t.equal((await api.get('/api/tickets/settings', asAdmin)).body.survey_expiry_days, 4, 'the API has 4 days')
  const record = await byAdmin('the survey settings', (r) => r.after_json?.survey_expiry_days === 4)
  t.equal(record.action, 'tickets.settings')
  await checkAxe(t, page, 'Service settings on the fleet')
})

t.test('Configuration: A proposes a high-risk change, it waits; B approves; it applies, audited', async (t) => {
  const ws = '/api/security/config/workspace'
  const second = { username: `fleet2_${suffix}`, password: `Pw-fleet2-${suffix}-0123456789` }
  const email = `fleet2_${suffix}@e2e.example.com`
  const made = await api.post('/api/security/users', { ...second, email, role: 'admin' }, asAdmin)
  t.equal(made.status, 201, made.text)
  const before = (await api.get(ws, asAdmin)).body.config.llm?.timeout_ms
  const timeout = 20_000 + Math.floor(Math.random() * 10_000)
  await open('Configuration', 'Configuration')
  await page
    .getByRole('form', { name: 'LLM', exact: true })
    .getByLabel('LLM timeout (ms)')
    .waitFor({ timeout: WAIT_MS })
  await checkAxe(t, page, 'Configuration on the fleet')
  const ref = `FLEET-${suffix}`
  t.same(await proposeLlmTimeout(page, timeout, ref), [
    `llm.timeout_ms: ${JSON.stringify(before ?? null)} → ${timeout}`,
  ])
  const pending = (await api.get(`${ws}/pending`, asAdmin)).body.data.find(
    (p: any) => p.change_control.change_ref === ref,
  )
  t.match(pending, { status: 'pending', change_risk: { risk_level: 'high' } }, 'it waits in the API')
  t.equal((await api.get(ws, asAdmin)).body.config.llm?.timeout_ms, before, 'not applied')
  await page.getByRole('article', { name: `Change ${ref}` }).waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('button', { name: `Approve ${ref}` }).count(), 0, 'A has no Approve button')

  const b = await newPage(t, browser, system)
  await loginAs(b, second, '/admin/configuration')
  await approveChange(b, ref, 'reviewed on the fleet')
  await until('the change applied', async () =>
    (await api.get(ws, asAdmin)).body.config.llm?.timeout_ms === timeout ? true : undefined,
  )
  t.pass('the API answers the approved value')
  const history = b.getByRole('table', { name: 'Configuration history' }).getByRole('row').filter({ hasText: ref })
  await history.waitFor({ timeout: WAIT_MS })
  await audited(api, admin.token, made.body.user.id, 'the approval', (r) => JSON.stringify(r).includes(pending.id))
  t.pass("B's approval is in the audit log")
})

t.test('Workspaces: the tenants listed are identity’s; an operator’s switch persists, audited', async (t) => {
  await open('Workspaces', 'Tenants and workspaces')
  const tenants = page.getByRole('table', { name: 'Tenants' })
  await agrees(
    'the tenants',
    async () => (await tenants.getByRole('rowheader').allTextContents()).sort(),
    async () =>
      ((await api.get('/api/security/tenants?page_size=100', asAdmin)).body.data as any[]).map((x) => x.id).sort(),
  )
  t.equal(await tenants.getByRole('switch').count(), 0, 'no switches for a session bound to a tenant')
  await checkAxe(t, page, 'Workspaces on the fleet')
  // the platform operator's own context: the second workspace platformOperator made, its widget switched off
  await loginAs(o, operator, '/admin/workspaces')
  await o.getByRole('link', { name: `Workspaces of ${system.tenant_id}` }).click()
  const desk = `opsdesk${suffix}`
  await o.getByRole('switch', { name: `Widget in ${desk}` }).click()
  await says(o, `Settings of ${desk} saved`)
  const stored = await api.get(`/api/security/tenants/${system.tenant_id}/workspaces/${desk}`, op)
  t.equal(stored.body.settings?.widget_enabled, false, 'identity has the widget off')
  const key = `${system.tenant_id}/${desk}`
  await audited(api, op.token, operator.login.user.id, 'the switch', (r) => r.resource_id === key && r.success)
  t.pass('the switch is in the audit log')
})

t.test('AI providers: the breakers are the API’s; an operator’s provider switch persists, audited', async (t) => {
  await open('AI providers', 'AI providers')
  const table = page.getByRole('table', { name: 'Providers and breakers' })
  await agrees(
    'the breakers',
    async () => (await rows(table)).map((r) => [r[1], r[5]]),
    async () => {
      const { providers, llm } = (await api.get('/api/v1/ai/status', asAdmin)).body
      return [...providers, llm].map((p: any) => [p.configured ? 'Yes' : 'No', String(p.breaker.failure_count)])
    },
  )
  await checkAxe(t, page, 'AI providers on the fleet')
  await o.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'AI providers' }).click()
  await o.getByRole('switch', { name: 'Primary provider switched on' }).click()
  await says(o, 'Primary provider switched off for every tenant')
  const status = async () =>
    (await api.get('/api/v1/ai/status', op)).body.providers.find((p: any) => p.id === 'primary')
  t.match(await status(), { configured: true, enabled: false }, 'off for every replica (API)')
  // an operator's act for every tenant: audited though it lives under /api/v1 (the route's config.audit)
  await audited(
    api,
    op.token,
    operator.login.user.id,
    'the provider switch',
    (r) => r.action === 'ai_providers.disable',
  )
  t.pass('the switch is in the audit log')
  await o.getByRole('switch', { name: 'Primary provider switched on' }).click()
  await says(o, 'Primary provider switched on for every tenant')
  t.equal((await status()).enabled, true, 'on again (API)')
})

t.test('Audit: the filtered list is the audit service’s', async (t) => {
  await open('Audit', 'Audit log')
  const filters = page.getByRole('form', { name: 'Audit filters' })
  await filters.getByRole('textbox', { name: 'Action' }).fill('security.users_create')
  await filters.getByRole('button', { name: 'Apply filters' }).click()
  const byApi = await api.get('/api/audit/logs?action=security.users_create&page_size=50', asAdmin)
  const total = byApi.body.total as number
  await page.getByText(`${total} record${total === 1 ? '' : 's'}`, { exact: true }).waitFor({ timeout: WAIT_MS })
  const first = page.getByRole('table', { name: 'Audit records' }).locator('tbody tr').first()
  const href = await first.getByRole('link').getAttribute('href')
  t.equal(href, `/admin/audit/${byApi.body.data[0].id}`, 'the first record is the API’s')
  await checkAxe(t, page, 'the audit log on the fleet')
})

// last: the audit table is parked away for a while, which no other section's audit check could bear
t.test('Operations: the units are the gateway’s; a dead letter replayed on the page is delivered once', async (t) => {
  const tokens = { admin: admin.token, agent: agent.token }
  const known = await auditedCustomer(t, api, tokens, `fleet_dl_${suffix}`, suffix)
  const restore = await parkAuditTable(t, system, suffix)
  const made = await createTicket(api, { title: `Fleet dead letter ${suffix}`, customer_id: known.user_id }, asAgent)
  const ours = (d: any) =>
    d.envelope?.data?.resource_id === made.body.id && d.envelope?.data?.action === 'tickets.create'
  const deadLetters = async () => (await api.get('/api/ops/dead-letters?limit=1000', asAdmin)).body.items as any[]
  // the audit consumer's five deliveries over NATS (nak delays 0.2, 1, 5, 15 s), then the dead letter
  const letter = await until('the dead letter', async () => (await deadLetters()).find(ours), 60_000, 500)
  await restore()
  await open('Operations', 'Operations')
  await page.getByText('All units ready').waitFor({ timeout: WAIT_MS })
  const health = (await api.get('/api/system/health', asAdmin)).body.units as any[]
  const shown = (await page.getByRole('table', { name: 'Units' }).getByRole('rowheader').allTextContents()).sort()
  t.same(shown, health.map((u) => u.unit).sort(), 'the units listed are the gateway’s')
  const list = page.getByRole('table', { name: 'Dead-letter list' })
  await list.getByRole('rowheader', { name: String(letter.seq), exact: true }).waitFor({ timeout: WAIT_MS })
  await checkAxe(t, page, 'Operations on the fleet')
  await page.getByRole('button', { name: `Replay dead letter ${letter.seq}` }).click()
  await says(page, 'Replayed 1')
  t.notOk((await deadLetters()).some(ours), 'no longer a dead letter (API)')
  const delivered = async () => {
    const res = await api.get('/api/audit/logs?action=tickets.create&page_size=200', asAdmin)
    const found = (res.body.data as any[]).filter((r) => r.resource_id === made.body.id)
    return found.length ? found : undefined
  }
  t.equal((await until('the replayed audit record', delivered)).length, 1, 'delivered into the audit log once')
  await byAdmin('the replay', (r) => r.action === 'ops.replay' && r.success)
  t.pass('the replay is in the audit log')
})
