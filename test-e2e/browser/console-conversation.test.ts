// The console's conversation view in a real browser (Debian's Chromium), against the embedded default: a
// customer's words appear live, replies and typing reach the customer's socket (held by the test), typing comes
// back, an internal note reaches no customer socket, a transfer between two agents in two browser contexts is seen
// live, close and reopen (then pick up), and axe finds no serious or critical violation. Every wait is on a role, a
// text or a frame: no sleeps, no retries.
import type { Page } from 'playwright-core'
import t, { type Test } from 'tap'
import { login } from '../harness/auth.ts'
import { type Agent, conversationsKit, must, PNG } from '../harness/conversations-kit.ts'
import { type Frame, openSocket, type RealtimeSocket } from '../harness/realtime-kit.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)

const kit = await conversationsKit(system)
const scope = kit.freshScope('cv')
const alice = await kit.agent(scope, 'alice', { online: true, max_concurrent: 20 })
const bob = await kit.agent(scope, 'bob', { online: true, max_concurrent: 20 })
await kit.onlineAgents(scope, 2)
const carol = await kit.customer(scope, 'carol')
const carolToken = (await login(kit.api, carol.username, carol.password)).token

/** A conversation Carol started on her own socket, assigned to `agent`: the socket and the session id. */
async function conversation(t: Test, first: string, agent: Agent): Promise<{ customer: RealtimeSocket; id: string }> {
  const customer = await openSocket(system.url, { token: carolToken, via: 'protocol' }, t)
  customer.send({ type: 'text-message', data: first })
  const id = (await customer.next('session')).data.session_id as string
  must(
    await kit.api.post(`/api/omni/sessions/${id}/assign`, { agent_id: agent.user_id }, kit.svc(scope)),
    200,
    'assign',
  )
  return { customer, id }
}

/** A fresh context, logged in as `agent` through the login page, on the conversation's page, connected. */
async function openConsole(t: Test, agent: Agent, id: string): Promise<Page> {
  const page = await newPage(t, browser, system)
  await loginAs(page, agent, `/conversations/${id}`)
  await page.getByRole('log', { name: 'Messages' }).waitFor({ timeout: WAIT_MS })
  return page
}

/** What the thread's scrolling box has (the test files' lib has no DOM types). */
type Scroller = { scrollTop: number; scrollHeight: number; clientHeight: number }

const thread = (page: Page) => page.getByRole('log', { name: 'Messages' })
const says = (content: string) => (f: Frame) => f.data?.content === content

t.test('a customer message appears live; a reply and typing reach the customer; typing comes back', async (t) => {
  const { customer, id } = await conversation(t, 'Where is my parcel 4711?', alice)
  const page = await openConsole(t, alice, id)
  await thread(page).getByText('Where is my parcel 4711?').waitFor({ timeout: WAIT_MS })

  customer.send({ type: 'text-message', data: 'It was due on Monday.' })
  await thread(page).getByText('It was due on Monday.').waitFor({ timeout: WAIT_MS })
  t.pass('the customer message appeared live in the view')
  const due = await customer.take(says('It was due on Monday.'), 'its own message back', WAIT_MS)
  const read = await customer.next('read', {
    match: (f) => f.data?.message_id === due.data.message_id,
    timeoutMs: WAIT_MS,
  })
  t.match(read.data, { from: { kind: 'console' } }, 'the agent at the bottom of the thread: the customer hears it read')

  // the agent types: the customer sees it (and the console's socket, which sent it after its join, is in the session)
  await page.getByRole('textbox', { name: 'Message' }).fill('Let me check')
  const typing = await customer.next('typing', { timeoutMs: WAIT_MS })
  t.match(typing.data, { state: 'start', from: { kind: 'console' } }, 'the agent typing reaches the customer')

  customer.send({ type: 'typing', data: { state: 'start' } })
  await page.getByRole('status').filter({ hasText: 'The customer is typing…' }).waitFor({ timeout: WAIT_MS })
  t.pass('the customer typing shows in the view')

  await page.getByRole('textbox', { name: 'Message' }).fill('Your parcel leaves the depot today.')
  await page.getByRole('button', { name: 'Send' }).click()
  const reply = await customer.take(says('Your parcel leaves the depot today.'), 'the reply', WAIT_MS)
  t.equal(reply.type, 'agent-message', 'the reply reaches the customer socket as an agent message')
  await thread(page).getByText('Your parcel leaves the depot today.').waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('textbox', { name: 'Message' }).inputValue(), '', 'the composer is emptied')
  t.equal(await thread(page).getByText('Your parcel leaves the depot today.').count(), 1, 'shown once (POST and frame)')

  customer.send({ type: 'read', data: { message_id: reply.data.message_id } })
  await thread(page).getByText('Seen by the customer').waitFor({ timeout: WAIT_MS })
  t.pass("the customer's read receipt shows under the reply")
})

t.test("the AI's messages are marked as the AI's", async (t) => {
  const customer = await openSocket(system.url, { token: carolToken, via: 'protocol' }, t)
  customer.send({ type: 'text-message', data: 'What are your opening hours?' })
  const id = (await customer.next('session')).data.session_id as string
  // the AI answers a session no agent has: as ai-orchestrator does, through the hub's internal path
  must(
    await kit.hub(scope).post(`/internal/sessions/${id}/messages`, { sender: 'ai', content: 'We are open 9 to 5.' }),
    201,
    'the AI answer',
  )
  const page = await openConsole(t, alice, id)
  const answer = thread(page).getByRole('listitem').filter({ hasText: 'We are open 9 to 5.' })
  await answer.waitFor({ timeout: WAIT_MS })
  t.equal(await answer.getByText('AI assistant').count(), 1, 'named the AI assistant')
  t.equal(await answer.getByText('AI', { exact: true }).count(), 1, 'with the AI badge')

  // nobody has it yet: assigned through the picker
  await page.getByRole('button', { name: 'Assign' }).click()
  const picker = page.getByRole('dialog', { name: 'Assign the conversation' })
  await picker.getByRole('radio', { name: /^bob / }).check({ timeout: WAIT_MS })
  await picker.getByRole('button', { name: 'Confirm' }).click()
  await page.getByText(`Assigned to bob ${kit.suffix}`).waitFor({ timeout: WAIT_MS })
  t.equal(await picker.count(), 0, 'the picker closed')
})

t.test('an internal note shows as a note in the view and reaches no customer socket', async (t) => {
  const { customer, id } = await conversation(t, 'My invoice shows the wrong address.', alice)
  const first = await customer.take(says('My invoice shows the wrong address.'), 'its own message back', WAIT_MS)
  const page = await openConsole(t, alice, id)
  await thread(page).getByText('My invoice shows the wrong address.').waitFor({ timeout: WAIT_MS })

  await page.getByRole('textbox', { name: 'Message' }).fill('Staff only: billing fixed this last week.')
  await page.getByRole('button', { name: 'Internal note' }).click()
  const note = thread(page).getByRole('listitem').filter({ hasText: 'Staff only: billing fixed this last week.' })
  await note.waitFor({ timeout: WAIT_MS })
  t.equal(await note.getByText('Internal note', { exact: true }).count(), 1, 'the note is marked as one')

  // a public reply posted after the note reaches the customer; the note, written before it, never did
  await page.getByRole('textbox', { name: 'Message' }).fill('We are correcting the address now.')
  await page.getByRole('button', { name: 'Send' }).click()
  await customer.take(says('We are correcting the address now.'), 'the reply after the note', WAIT_MS)
  await customer.sync()
  t.same(
    customer.frames.filter((f) => JSON.stringify(f).includes('Staff only')),
    [],
    "no frame of the note reached the customer's socket",
  )

  // nor does a resume: a second socket of the customer joins after the first message and gets what followed
  const again = await openSocket(system.url, { token: carolToken, via: 'protocol' }, t)
  again.send({ type: 'join', data: { session_id: id, after: first.data.message_id } })
  await again.take(says('We are correcting the address now.'), 'the reply, resumed', WAIT_MS)
  t.same(
    again.frames.filter((f) => JSON.stringify(f).includes('Staff only')),
    [],
    'no note in what the hub resumed for the customer',
  )
})

t.test('two agents: a transfer from one to the other is seen live by the second', async (t) => {
  const { id } = await conversation(t, 'Can someone from billing help?', alice)
  const pageA = await openConsole(t, alice, id)
  const pageB = await openConsole(t, bob, id)
  await thread(pageB).getByText('Can someone from billing help?').waitFor({ timeout: WAIT_MS })
  await pageB.getByText(`Assigned to alice ${kit.suffix}`).waitFor({ timeout: WAIT_MS })

  await pageA.getByRole('button', { name: 'Transfer' }).click()
  const picker = pageA.getByRole('dialog', { name: 'Transfer the conversation' })
  const bobOption = picker.getByRole('radio', { name: /^bob / })
  await bobOption.waitFor({ timeout: WAIT_MS })
  t.match(
    await picker
      .getByText(/online · \d+ of 20 conversations/)
      .first()
      .textContent(),
    /online/,
    'status and load',
  )
  await bobOption.check()
  await picker.getByRole('button', { name: 'Confirm' }).click()
  await pageA.getByText(`Assigned to bob ${kit.suffix}`).waitFor({ timeout: WAIT_MS })

  await pageB.getByText('Assigned to You').waitFor({ timeout: WAIT_MS })
  t.pass('the second agent sees the transfer live')
  t.equal((await kit.api.get(`/api/omni/sessions/${id}`, kit.svc(scope))).body.agent_id, bob.user_id, 'the API agrees')
})

t.test('close and reopen', async (t) => {
  const { customer, id } = await conversation(t, 'Please close this when done.', alice)
  const page = await openConsole(t, alice, id)
  await page.getByRole('button', { name: 'Close conversation' }).click()
  await page.getByText('Status: Closed').waitFor({ timeout: WAIT_MS })
  const closed = await customer.next('session', { match: (f) => f.data?.status === 'closed', timeoutMs: WAIT_MS })
  t.equal(closed.data.session_id, id, "the customer's socket hears it closed")
  t.ok(await page.getByRole('button', { name: 'Send' }).isDisabled(), 'no replies to a closed conversation')

  await page.getByRole('button', { name: 'Reopen' }).click()
  await page.getByText('Status: Active').waitFor({ timeout: WAIT_MS })
  const reopened = await customer.next('session', { match: (f) => f.data?.status === 'active', timeoutMs: WAIT_MS })
  t.equal(reopened.data.session_id, id, "the customer's socket hears it reopened")
  await page.getByRole('button', { name: 'Pick up' }).click()
  await page.getByText('Assigned to You').waitFor({ timeout: WAIT_MS })
  t.pass('picked up again after the reopen')
})

t.test('older pages load on scrolling up, the reader stays put, and "New messages" brings them down', async (t) => {
  const { customer, id } = await conversation(t, 'The very first line.', alice)
  const hub = kit.hub(scope)
  for (let i = 1; i <= 60; i++) {
    const r = await hub.post(`/internal/sessions/${id}/messages`, {
      sender: 'customer',
      customer_id: carol.user_id,
      content: `line ${i}`,
    })
    must(r, 201, `line ${i}`)
  }
  const page = await openConsole(t, alice, id)
  const log = thread(page)
  await log.getByText('line 60', { exact: true }).waitFor({ timeout: WAIT_MS })
  t.equal(await log.getByText('The very first line.').count(), 0, 'the newest page only')
  t.equal(await log.getByRole('button', { name: 'Load older messages' }).count(), 1, 'older ones to load')

  // the reader scrolls to the top: the older page comes in above, and what they looked at stays on screen
  await log.evaluate((el: Scroller) => {
    el.scrollTop = 0
  })
  await log.getByText('The very first line.').waitFor({ state: 'attached', timeout: WAIT_MS })
  t.ok((await log.evaluate((el: Scroller) => el.scrollTop)) > 0, 'the view did not jump to the top of the older page')
  await log.getByText('Start of the conversation').waitFor({ timeout: WAIT_MS })

  customer.send({ type: 'text-message', data: 'Are you still there?' })
  const pill = page.getByRole('button', { name: 'New messages' })
  await pill.waitFor({ timeout: WAIT_MS })
  t.pass('not at the bottom: a New messages button instead of a jump')
  await pill.click()
  await pill.waitFor({ state: 'hidden', timeout: WAIT_MS })
  t.ok(
    await log.evaluate((el: Scroller) => el.scrollHeight - el.scrollTop - el.clientHeight < 48),
    'the button brings the reader to the newest message',
  )
})

t.test('sidebar, a suggested reply, continue in a ticket, an attachment', async (t) => {
  must(
    await kit.api.post(
      '/api/knowledge-docs',
      { title: 'Refund policy for damaged parcels', content: 'A damaged parcel is refunded in full.' },
      kit.svc(scope),
    ),
    201,
    'knowledge doc',
  )
  const { customer, id } = await conversation(t, 'My parcel arrived damaged, can I get a refund?', alice)
  const page = await openConsole(t, alice, id)

  const sidebar = page.getByRole('complementary', { name: 'Customer' })
  await sidebar.getByText(`${carol.username}@e2e.example.com`).waitFor({ timeout: WAIT_MS })
  t.pass("the sidebar shows the customer's contact fields")
  await sidebar
    .getByRole('link', { name: / · (active|transferred|closed) · / })
    .first()
    .waitFor({ timeout: WAIT_MS })
  t.pass("and the customer's previous conversations")

  const suggestion = page.getByRole('button', { name: /^Insert suggestion: .*Refund policy for damaged parcels/ })
  await suggestion.waitFor({ timeout: WAIT_MS })
  await suggestion.click()
  t.match(
    await page.getByRole('textbox', { name: 'Message' }).inputValue(),
    /Refund policy for damaged parcels/,
    'one click puts the suggestion in the composer',
  )

  await page.getByRole('button', { name: 'Continue in a ticket' }).click()
  const link = page.getByRole('link', { name: /^Linked ticket / })
  await link.waitFor({ timeout: WAIT_MS })
  const ticketId = decodeURIComponent((await link.getAttribute('href'))!.split('/').pop()!)
  const ticket = must(await kit.api.get(`/api/tickets/${ticketId}`, kit.svc(scope)), 200, 'the ticket')
  t.match(ticket, { session_id: id, customer_id: carol.user_id }, 'a ticket linked to the conversation')

  await page
    .getByLabel('Attach a file')
    .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: Buffer.from(PNG) })
  await thread(page).getByRole('img', { name: 'Attachment receipt.png' }).waitFor({ timeout: WAIT_MS })
  t.pass('the upload shows as an image in the thread')
  const frame = await customer.take((f) => f.data?.kind === 'image', 'the image message', WAIT_MS)
  t.match(frame.data, { sender: 'agent', content: 'receipt.png', metadata: { filename: 'receipt.png' } })
})

t.test('a conversation waiting in the queue is picked up', async (t) => {
  // a workspace whose shifts route to nobody now (erin's shift starts in six hours), so the session keeps waiting
  // however long the queue worker runs; dave is online and may still take it by hand
  const qs = kit.freshScope('cq')
  const erin = await kit.agent(qs, 'erin')
  const dave = await kit.agent(qs, 'dave', { online: true, max_concurrent: 20 })
  await kit.onlineAgents(qs, 1)
  const hour = 3_600_000
  const shift = {
    agent_id: erin.user_id,
    shift_type: 'morning',
    start_time: new Date(Date.now() + 6 * hour).toISOString(),
    end_time: new Date(Date.now() + 8 * hour).toISOString(),
  }
  must(await kit.api.post('/api/shifts', shift, kit.svc(qs)), 201, 'shift')
  const frank = await kit.customer(qs, 'frank')
  const customer = await openSocket(
    system.url,
    { token: (await login(kit.api, frank.username, frank.password)).token, via: 'protocol' },
    t,
  )
  customer.send({ type: 'text-message', data: 'Hello, my account is locked.' })
  const id = (await customer.next('session')).data.session_id as string
  const queued = must(
    await kit.api.post('/api/session-transfer/to-human', { session_id: id }, kit.svc(qs)),
    200,
    'queued',
  )
  t.equal(queued.is_waiting, true, 'no agent is routed: it waits')

  const page = await openConsole(t, dave, id)
  await page.getByText('Status: Waiting in the queue').waitFor({ timeout: WAIT_MS })
  await page.getByText('Position 1 in the queue').waitFor({ timeout: WAIT_MS })
  await page.getByRole('button', { name: 'Pick up' }).click()
  await page.getByText('Assigned to You').waitFor({ timeout: WAIT_MS })
  await page.getByText('Status: Active').waitFor({ timeout: WAIT_MS })
  const told = await customer.next('transfer_notification', { timeoutMs: WAIT_MS })
  t.equal(told.data.agent_id, dave.user_id, 'the customer is told who took it')
  t.match(
    must(await kit.api.get(`/api/omni/sessions/${id}`, kit.svc(qs)), 200, 'session'),
    { status: 'active', agent_id: dave.user_id },
    'picked up: assigned to dave, out of the queue',
  )
})

t.test('axe finds no serious or critical violation on the conversation page', async (t) => {
  const { id } = await conversation(t, 'Accessibility check, please.', alice)
  const page = await openConsole(t, alice, id)
  await thread(page).getByText('Accessibility check, please.').waitFor({ timeout: WAIT_MS })
  await checkAxe(t, page, 'the conversation page')
})
