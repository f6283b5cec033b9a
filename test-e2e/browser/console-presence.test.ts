// The agent's own presence in a real browser (Debian's Chromium) against the embedded default: the header's
// "Status" group shows the agent online; choosing Away puts identity's agent record away and conversations' routing
// projection counts no agent online any more; Online brings both back; axe on the shell with the control. Every
// wait is on a role, a name, a response or the projection's answer: no sleeps, no retries.
import type { Page } from 'playwright-core'
import t from 'tap'
import { conversationsKit, must } from '../harness/conversations-kit.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)
const kit = await conversationsKit(system)

const status = (page: Page) => page.getByRole('group', { name: 'Status' })

/** Chooses a presence and waits for identity's answer to the console's own-status call. */
async function choose(page: Page, name: 'Online' | 'Away' | 'Offline') {
  const answered = page.waitForResponse(
    (r) => r.url().endsWith('/api/agents/me/status') && r.request().method() === 'PUT',
    { timeout: WAIT_MS },
  )
  await status(page).getByRole('radio', { name }).click()
  const response = await answered
  return { status: response.status(), body: await response.json() }
}

t.test('the agent sets itself away and back online; routing follows', async (t) => {
  const scope = kit.freshScope('presence')
  const alice = await kit.agent(scope, 'alice', { online: true })
  await kit.onlineAgents(scope, 1)

  const page = await newPage(t, browser, system)
  await loginAs(page, alice)
  await status(page).getByRole('radio', { name: 'Online', checked: true }).waitFor({ timeout: WAIT_MS })
  t.pass('the header shows the agent online')

  const away = await choose(page, 'Away')
  t.match(away, { status: 200, body: { id: alice.id, status: 'away' } })
  const record = must(await kit.api.get(`/api/agents/${alice.id}`, kit.svc(scope)), 200, 'agent')
  t.equal(record.status, 'away', 'identity holds the agent away')
  await kit.onlineAgents(scope, 0)
  t.pass('routing counts no agent online')
  await status(page).getByRole('radio', { name: 'Away', checked: true }).waitFor({ timeout: WAIT_MS })

  const online = await choose(page, 'Online')
  t.match(online, { status: 200, body: { status: 'online' } })
  t.equal(must(await kit.api.get(`/api/agents/${alice.id}`, kit.svc(scope)), 200, 'agent').status, 'online')
  await kit.onlineAgents(scope, 1)
  t.pass('back online for routing')

  await page.reload()
  await status(page).getByRole('radio', { name: 'Online', checked: true }).waitFor({ timeout: WAIT_MS })
  t.pass('the choice is the server record (a reload shows it)')
  await checkAxe(t, page, 'the shell with the presence control')
})
