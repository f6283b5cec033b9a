// The admin area's AI providers section in a real browser (Debian's Chromium) against the embedded default, the
// primary knowledge provider a small real HTTP server that fails (services/ai-orchestrator/test/helpers): a platform
// operator (a session bound to no tenant) sees each provider and the LLM with its breaker; three failed queries open
// the primary's breaker, the page shows it open with the API's failure count, and "Reset" after its confirmation
// closes it (the API says closed, no failures); the provider switched off and on again (the API follows). A
// platform administrator signed in to one tenant sees the state but no Reset or switch, and the API refuses both; a tenant administrator and an agent see no link, the URL says
// "Not permitted" and the API refuses. axe clean. Every wait is on a role, a name or a text: no sleeps.
import { randomBytes } from 'node:crypto'
import t from 'tap'
import { startPrimaryStandIn } from '../../services/ai-orchestrator/test/helpers/stand-ins.ts'
import { login } from '../harness/auth.ts'
import { client, until } from '../harness/http.ts'
import { platformOperator } from '../harness/platform-operator.ts'
import { audited } from './admin-steps.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const MAX_FAILURES = 3
const primary = await startPrimaryStandIn({ mode: 'error', docs: [{ title: 'Refunds', content: 'Paid in 14 days.' }] })
t.teardown(() => primary.close())
const p = primary.settings()
const system = await consoleSystem(t, 'embedded', {
  env: {
    PRIMARY_PROVIDER_ENABLED: 'true',
    PRIMARY_PROVIDER_BASE_URL: p.base_url,
    PRIMARY_PROVIDER_API_KEY: p.api_key,
    PRIMARY_PROVIDER_DATASET_ID: p.dataset_id,
    PRIMARY_PROVIDER_TIMEOUT_MS: '1000',
    AI_BREAKER_MAX_FAILURES: String(MAX_FAILURES),
  },
})
const browser = await launchBrowser(t)
const api = client(system.url)
const suffix = randomBytes(3).toString('hex')
const admin = await login(api, system.admin.username, system.admin.password)
const agent = await login(api, system.agent.username, system.agent.password)
const operator = await platformOperator(system, api, suffix)
const op = { token: operator.login.token }
const primaryBreaker = async () =>
  (await api.get('/api/v1/ai/status', op)).body.providers.find((x: any) => x.id === 'primary').breaker

t.test('a platform operator sees the primary breaker open and resets it', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, operator)
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'AI providers' }).click()
  await page.getByRole('heading', { name: 'AI providers', level: 1 }).waitFor({ timeout: WAIT_MS })
  t.equal(new URL(page.url()).pathname, '/admin/ai-providers')
  const table = page.getByRole('table', { name: 'Providers and breakers' })
  const row = (name: string) =>
    table.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) })
  const primaryRow = row('Primary provider')
  await primaryRow.getByRole('cell', { name: 'Closed' }).waitFor({ timeout: WAIT_MS })
  t.equal((await primaryRow.getByRole('cell').allTextContents())[0], 'Yes', 'the primary configured')
  t.ok(await primaryRow.getByRole('switch', { name: 'Primary provider switched on' }).isChecked(), 'and switched on')
  t.same(
    (await row('LLM').getByRole('cell').allTextContents()).slice(0, 1),
    ['No'],
    'the LLM not configured (none given)',
  )
  // a provider not configured has nothing to switch on (the API would answer 200 and it would stay off)
  const compatRow = row('Compatibility provider')
  t.equal((await compatRow.getByRole('cell').allTextContents())[0], 'No', 'the compatibility provider not configured')
  t.equal(await compatRow.getByRole('switch').count(), 0, 'and no switch offered for it')
  await checkAxe(t, page, 'the AI providers')

  // three failed calls open the primary's breaker
  for (let i = 0; i < MAX_FAILURES; i++) {
    const q = await api.post('/api/v1/ai/query', { query: `refunds ${i}` }, { token: admin.token })
    t.not(q.status, 401, `query ${i + 1} answered (${q.status})`)
  }
  const open = await until('the primary breaker open', async () => {
    const b = await primaryBreaker()
    return b.state === 'open' ? b : undefined
  })
  t.ok(primary.requests.length >= MAX_FAILURES, 'the stand-in was called')
  await primaryRow.getByRole('cell', { name: 'Open', exact: true }).waitFor({ timeout: WAIT_MS })
  const cells = await primaryRow.getByRole('cell').allTextContents()
  t.equal(cells[4], String(open.failure_count), 'the failures shown are the API’s')
  t.equal(open.failure_count, MAX_FAILURES, `${MAX_FAILURES} failures`)
  await checkAxe(t, page, 'an open breaker')

  // reset, confirmed
  await primaryRow.getByRole('button', { name: 'Reset Primary provider' }).click()
  await primaryRow
    .getByText('Close the Primary provider breaker for every tenant? Calls go to it again at once.')
    .waitFor({ timeout: WAIT_MS })
  await checkAxe(t, page, 'the reset confirmation')
  await primaryRow.getByRole('button', { name: 'Yes, reset Primary provider' }).click()
  await page.getByRole('status').filter({ hasText: 'Primary provider breaker reset' }).waitFor({ timeout: WAIT_MS })
  await primaryRow.getByRole('cell', { name: 'Closed' }).waitFor({ timeout: WAIT_MS })
  t.match(await primaryBreaker(), { state: 'closed', failure_count: 0 }, 'the API says closed, no failures')
  t.equal((await primaryRow.getByRole('cell').allTextContents())[4], '0', 'and the page shows 0')
  // an act for every tenant: audited with the operator as actor, though it lives under /api/v1 (config.audit)
  const reset = await audited(
    api,
    op.token,
    operator.login.user.id,
    'the breaker reset',
    (r) => r.action === 'ai_breakers.reset' && r.resource_id === 'primary',
  )
  t.equal(reset.success, true, 'the reset is in the audit log')

  // the provider switched off, then on again, for every tenant
  const primaryApi = async () =>
    (await api.get('/api/v1/ai/status', op)).body.providers.find((x: any) => x.id === 'primary')
  const onOff = primaryRow.getByRole('switch', { name: 'Primary provider switched on' })
  t.ok(await onOff.isChecked(), 'the switch shows it on')
  await onOff.click()
  await page.getByRole('status').filter({ hasText: 'Primary provider switched off for every tenant' }).waitFor({
    timeout: WAIT_MS,
  })
  t.equal((await primaryApi()).enabled, false, 'the API has it off')
  t.notOk((await primaryApi()).breaker.state === 'open', 'its breaker untouched')
  await until('the switch shows off', async () => ((await onOff.isChecked()) ? undefined : true))
  t.notOk((await api.get('/api/v1/ai/status', op)).body.fallback.order.includes('primary'), 'out of the answer order')
  await checkAxe(t, page, 'a provider switched off')
  await onOff.click()
  await page.getByRole('status').filter({ hasText: 'Primary provider switched on for every tenant' }).waitFor({
    timeout: WAIT_MS,
  })
  t.equal((await primaryApi()).enabled, true, 'the API has it on again')
  for (const action of ['ai_providers.disable', 'ai_providers.enable']) {
    const r = await audited(api, op.token, operator.login.user.id, action, (r) => r.action === action)
    t.equal(r.resource_id, 'primary', `${action} is in the audit log`)
  }
})

t.test('a platform administrator signed in to one tenant sees the state, no Reset; the API refuses', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin, '/admin/ai-providers')
  const table = page.getByRole('table', { name: 'Providers and breakers' })
  await table.getByRole('rowheader', { name: 'Primary provider' }).waitFor({ timeout: WAIT_MS })
  await page.getByText(/it needs a platform session/).waitFor({ timeout: WAIT_MS })
  t.equal(await table.getByRole('button').count(), 0, 'no Reset buttons')
  t.equal(await table.getByRole('switch').count(), 0, 'no provider switches')
  const off = await api.call('PUT', '/api/v1/ai/knowledge-provider/disable?provider=primary', { token: admin.token })
  t.equal(off.status, 403, 'the API refuses its switch')
  const reset = await api.post('/api/v1/ai/circuit-breaker/reset?breaker=primary', undefined, { token: admin.token })
  t.equal(reset.status, 403, 'the API refuses its reset')
})

t.test('a tenant administrator and an agent see no link; the URL says not permitted; the API refuses', async (t) => {
  const password = `Pw-tadmin-${suffix}-0123456789`
  const created = await api.post(
    '/api/security/users',
    { username: `tadmin_${suffix}`, email: `tadmin_${suffix}@e2e.example.com`, role: 'admin', password },
    { token: admin.token },
  )
  t.equal(created.status, 201, 'a tenant administrator')
  const tenantAdmin = await login(api, `tadmin_${suffix}`, password)
  for (const [who, account, token] of [
    ['a tenant administrator', { username: `tadmin_${suffix}`, password }, tenantAdmin.token],
    ['an agent', system.agent, agent.token],
  ] as const) {
    const page = await newPage(t, browser, system)
    await loginAs(page, account)
    const rail = page.getByRole('navigation', { name: 'Console' })
    await rail.getByRole('link', { name: 'Tickets' }).waitFor({ timeout: WAIT_MS })
    t.equal(await rail.getByRole('link', { name: 'AI providers' }).count(), 0, `${who}: no AI providers link`)
    await page.goto('/admin/ai-providers')
    await page.getByRole('heading', { name: 'Not permitted' }).waitFor({ timeout: WAIT_MS })
    t.equal(await page.getByRole('table').count(), 0, `${who}: nothing of the screen shown`)
    await checkAxe(t, page, `/admin/ai-providers for ${who}`)
    const reset = await api.post('/api/v1/ai/circuit-breaker/reset', undefined, { token })
    t.equal(reset.status, 403, `${who}: the API refuses the reset`)
  }
})
