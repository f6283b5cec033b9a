// Knowledge docs' sync status when a provider is there (issue 22 §2 "sync status"), in a real browser against the
// embedded default with the system's primary knowledge provider a small real HTTP server
// (services/ai-orchestrator/test/helpers). Only system-scope docs go to the shared providers, so a platform operator
// (a session bound to no tenant) writes the doc: saved, the page says "Synced", the provider holds it and the list
// shows it synced; the provider failing, the next save says "Sync failed" with the provider's error, the API keeps
// the doc with its sync_error, the list marks it failed; the provider back, a save syncs it again. (A tenant's docs
// stay local: admin-knowledge.test.ts.) axe on each state. Every wait is on a role, a name or a text: no sleeps.
import { randomBytes } from 'node:crypto'
import t from 'tap'
import { startPrimaryStandIn } from '../../services/ai-orchestrator/test/helpers/stand-ins.ts'
import { client } from '../harness/http.ts'
import { platformOperator } from '../harness/platform-operator.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const primary = await startPrimaryStandIn({ docs: [] })
t.teardown(() => primary.close())
const p = primary.settings()
const system = await consoleSystem(t, 'embedded', {
  env: {
    PRIMARY_PROVIDER_ENABLED: 'true',
    PRIMARY_PROVIDER_BASE_URL: p.base_url,
    PRIMARY_PROVIDER_API_KEY: p.api_key,
    PRIMARY_PROVIDER_DATASET_ID: p.dataset_id,
    PRIMARY_PROVIDER_TIMEOUT_MS: '2000',
  },
})
const browser = await launchBrowser(t)
const api = client(system.url)
const suffix = randomBytes(3).toString('hex')
const operator = await platformOperator(system, api, suffix)
const op = { token: operator.login.token }

t.test(
  'a system doc is synced to the provider; a failing provider shows as Sync failed, then synced again',
  async (t) => {
    const page = await newPage(t, browser, system)
    await loginAs(page, operator, '/admin/knowledge/docs')
    await page.getByRole('heading', { name: 'Knowledge docs' }).waitFor({ timeout: WAIT_MS })
    await page.getByRole('link', { name: 'New doc' }).click()
    const form = page.getByRole('form', { name: 'Knowledge doc' })
    const title = `Shipping times ${suffix}`
    await form.getByRole('textbox', { name: 'Title' }).fill(title)
    await form.getByRole('textbox', { name: 'Content (Markdown)' }).fill('Parcels arrive in **3 days**.')
    await form.getByRole('button', { name: 'Save doc' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved. Sync: Synced' }).waitFor({ timeout: WAIT_MS })
    await page.getByRole('heading', { name: `Edit: ${title}` }).waitFor({ timeout: WAIT_MS })
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!)
    const stored = await api.get(`/api/knowledge-docs/${id}`, op)
    t.equal(stored.status, 200, stored.text)
    t.match(stored.body, { provider_id: 'primary', sync_error: null }, 'the API has it synced to the primary')
    t.ok(
      primary.requests.some(
        (r) => r.path.endsWith('/document/create-by-text') && JSON.stringify(r.body).includes(title),
      ),
      'the provider received the doc',
    )
    await checkAxe(t, page, 'a synced doc')

    // the provider fails: the next save keeps the doc and says so, with the provider's error
    primary.setMode('error')
    await form.getByRole('textbox', { name: 'Content (Markdown)' }).fill('Parcels arrive in **2 days**.')
    await form.getByRole('button', { name: 'Save doc' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved. Sync: Sync failed' }).waitFor({ timeout: WAIT_MS })
    const failed = await api.get(`/api/knowledge-docs/${id}`, op)
    t.equal(failed.body.content, 'Parcels arrive in **2 days**.', 'the edit is kept')
    t.ok(failed.body.sync_error, `the API keeps the provider's error: ${failed.body.sync_error}`)
    await page.getByText(`Provider: ${failed.body.sync_error}`).waitFor({ timeout: WAIT_MS })
    await checkAxe(t, page, 'a doc whose sync failed')
    await page.getByRole('link', { name: 'Back to the knowledge docs' }).click()
    const row = page.getByRole('table', { name: 'Knowledge docs' }).getByRole('row').filter({ hasText: title })
    const badge = row.getByText('Sync failed', { exact: true })
    await badge.waitFor({ timeout: WAIT_MS })
    t.equal(await badge.getAttribute('title'), failed.body.sync_error, "the list's badge carries the error")

    // the provider back: a save syncs it again
    primary.setMode('good')
    await row.getByRole('link', { name: title }).click()
    await form.getByRole('textbox', { name: 'Content (Markdown)' }).fill('Parcels arrive in **1 day**.')
    await form.getByRole('button', { name: 'Save doc' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved. Sync: Synced' }).waitFor({ timeout: WAIT_MS })
    t.match((await api.get(`/api/knowledge-docs/${id}`, op)).body, { sync_error: null }, 'synced again (API)')
    await page.getByRole('link', { name: 'Back to the knowledge docs' }).click()
    await row.getByText('Synced', { exact: true }).waitFor({ timeout: WAIT_MS })
    t.pass('the list shows it synced')
  },
)
