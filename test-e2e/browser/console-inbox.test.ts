// The console's inbox in a real browser (Debian's Chromium) against the embedded default: a conversation assigned
// to the agent appears live in Mine, a customer message sent over the hub's protocol by the test shows in its row
// without a reload (counted unread), j opens it; the waiting queue lists a conversation waiting for a human with
// its position; a dropped socket shows "Reconnecting…" then "Reconnected" and the list catches up with what changed
// meanwhile; axe on the inbox with rows. Every wait is on a role, a name or a text: no sleeps, no retries.
import type { Page } from 'playwright-core'
import t from 'tap'
import { login } from '../harness/auth.ts'
import { conversationsKit, must } from '../harness/conversations-kit.ts'
import { openSocket } from '../harness/realtime-kit.ts'
import {
  checkAxe,
  consoleSystem,
  cutSockets,
  instrumentSockets,
  launchBrowser,
  loginAs,
  newPage,
  restoreSockets,
  WAIT_MS,
} from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)
const kit = await conversationsKit(system)

const list = (page: Page) => page.getByRole('listbox', { name: 'Conversations' })

t.test('a customer message appears live in the inbox; j opens the conversation', async (t) => {
  const scope = kit.freshScope('inbox')
  const alice = await kit.agent(scope, 'alice', { online: true })
  await kit.onlineAgents(scope, 1)
  const carol = await kit.customer(scope, 'carol')
  const carolToken = (await login(kit.api, carol.username, carol.password)).token

  const page = await newPage(t, browser, system)
  await loginAs(page, alice)
  await page.getByRole('tab', { name: 'Mine', selected: true }).waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('tab', { name: 'All' }).count(), 0, 'no All tab for an agent')

  const customer = await openSocket(system.url, { token: carolToken, via: 'protocol' }, t)
  customer.send({ type: 'text-message', data: 'Hello, my order is missing' })
  const id = (await customer.next('session')).data.session_id as string
  must(
    await kit.api.post(`/api/omni/sessions/${id}/assign`, { agent_id: alice.user_id }, kit.svc(scope)),
    200,
    'assign',
  )
  // a conversation's subject is its first message
  const row = list(page).getByRole('option').filter({ hasText: 'Hello, my order is missing' })
  await row.waitFor({ timeout: WAIT_MS })
  t.pass('the conversation assigned to the agent appears live in Mine')

  // a newer conversation goes on top; a message in the older one brings it back up, live
  const other = await kit.customer(scope, 'olga')
  const { session: newer } = await kit.hub(scope).open('A newer question', other.user_id)
  must(
    await kit.api.post(`/api/omni/sessions/${newer.id}/assign`, { agent_id: alice.user_id }, kit.svc(scope)),
    200,
    'assign the newer one',
  )
  const options = list(page).getByRole('option')
  await options.first().filter({ hasText: 'A newer question' }).waitFor({ timeout: WAIT_MS })
  t.pass('the newer conversation is listed first')

  customer.send({ type: 'text-message', data: 'Order 4711, placed on Monday' })
  await options.first().filter({ hasText: 'Order 4711, placed on Monday' }).waitFor({ timeout: WAIT_MS })
  t.pass('a new message moves its conversation to the top')
  await row.filter({ hasText: 'Order 4711, placed on Monday' }).waitFor({ timeout: WAIT_MS })
  t.pass('the customer message shows in its row without a reload')
  await row.getByRole('img', { name: /^\d+ unread$/ }).waitFor({ timeout: WAIT_MS })
  t.pass('counted unread')

  await list(page).focus()
  await page.keyboard.press('j')
  await page.waitForURL(`**/conversations/${id}`, { timeout: WAIT_MS })
  t.equal(await row.getAttribute('aria-selected'), 'true', 'j selects and opens the first conversation')
  await row.getByRole('img', { name: /unread$/ }).waitFor({ state: 'detached', timeout: WAIT_MS })
  t.pass('opening it clears its unread count')
  await checkAxe(t, page, 'the inbox with conversations')

  await page.getByRole('combobox', { name: 'Status' }).selectOption('closed')
  await page.getByText('No conversations here.').waitFor({ timeout: WAIT_MS })
  t.pass('the status filter: no closed conversation of hers')
  await page.getByRole('combobox', { name: 'Status' }).selectOption('active')
  await row.waitFor({ timeout: WAIT_MS })
  t.pass('the active one is back under Active')
})

t.test('reconnecting… / reconnected; what changed while the socket was down is listed after it', async (t) => {
  const scope = kit.freshScope('resync')
  const erin = await kit.agent(scope, 'erin', { online: true })
  await kit.onlineAgents(scope, 1)
  const frank = await kit.customer(scope, 'frank')

  const page = await newPage(t, browser, system)
  await instrumentSockets(page)
  await loginAs(page, erin)
  await page.getByText('No conversations here.').waitFor({ timeout: WAIT_MS })

  await cutSockets(page)
  const status = page.getByRole('status', { name: 'Connection' })
  await status.filter({ hasText: 'Reconnecting…' }).waitFor({ timeout: WAIT_MS })
  t.pass('the lost connection is shown')

  // assigned while the console cannot hear it: no frame reaches it
  const { session } = await kit.hub(scope).open('Written while you were away', frank.user_id)
  must(
    await kit.api.post(`/api/omni/sessions/${session.id}/assign`, { agent_id: erin.user_id }, kit.svc(scope)),
    200,
    'assign',
  )

  await restoreSockets(page)
  await status.filter({ hasText: 'Reconnected' }).waitFor({ timeout: WAIT_MS })
  t.pass('the connection coming back is shown')
  await list(page).getByRole('option').filter({ hasText: 'Written while you were away' }).waitFor({ timeout: WAIT_MS })
  t.pass('the conversation assigned meanwhile is listed without a reload')
})

t.test('the waiting queue lists a conversation waiting for a human, with its position', async (t) => {
  const scope = kit.freshScope('queue')
  // an agent of the workspace who is not online: nobody takes the conversation, it waits
  const bob = await kit.agent(scope, 'bob')
  const dave = await kit.customer(scope, 'dave')
  const { session } = await kit.hub(scope).open('I need to talk to someone', dave.user_id)
  const queued = must(
    await kit.api.post('/api/session-transfer/to-human', { session_id: session.id }, kit.svc(scope)),
    200,
    'to-human',
  )
  t.match(queued, { is_waiting: true, queue_position: 1 })

  const page = await newPage(t, browser, system)
  await loginAs(page, bob)
  await page.getByRole('tab', { name: 'Waiting queue' }).click()
  const row = list(page).getByRole('option').filter({ hasText: 'I need to talk to someone' })
  await row.filter({ hasText: 'Position 1' }).waitFor({ timeout: WAIT_MS })
  t.pass('the waiting conversation is listed with its position')
  await checkAxe(t, page, 'the waiting queue')
})
