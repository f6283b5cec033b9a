// The console's tickets screen in a real browser (Debian's Chromium) against the embedded default: tickets made
// through the API are listed, the status filter narrows the list, a ticket opens at /tickets/:id, a comment is added
// through the labelled box, only the allowed status moves are offered and one is taken, a move the server refuses is
// shown in its words; axe on the list and the detail. Every wait is on a role, a name or a text: no sleeps, no retries.
import type { Page } from 'playwright-core'
import t from 'tap'
import { conversationsKit, must } from '../harness/conversations-kit.ts'
import { until } from '../harness/http.ts'
import { createTicket } from '../harness/tickets-kit.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

// CONSOLE_DIR (a build of one's own) is passed on when set; else the gateway serves apps/console/dist
const system = await consoleSystem(t, 'embedded', {
  env: process.env.CONSOLE_DIR ? { CONSOLE_DIR: process.env.CONSOLE_DIR } : {},
})
const browser = await launchBrowser(t)
const kit = await conversationsKit(system)

const table = (page: Page) => page.getByRole('table', { name: 'Ticket list' })

t.test('tickets: list, status filter, detail, comment, status change, a refusal in words', async (t) => {
  const scope = kit.freshScope('tickets')
  const alice = await kit.agent(scope, 'alice', { online: true })
  const carol = await kit.customer(scope, 'carol')
  const auth = kit.svc(scope)

  const waiting = must(
    await createTicket(kit.api, { title: 'Invoice shows the wrong address', customer_id: carol.id }, auth),
    201,
    'ticket left open',
  )
  const mine = must(
    await createTicket(
      kit.api,
      { title: 'Printer on fire', customer_id: carol.id, priority: 'high', description: 'Smoke since Monday' },
      auth,
    ),
    201,
    'ticket to work on',
  )
  // tickets knows the agent once identity's event has arrived: assigning waits for that, as for the customer
  await until('tickets to know the agent', async () => {
    const res = await kit.api.post(`/api/tickets/${mine.id}/assign`, { agent_id: alice.user_id }, auth)
    if (res.status === 400 && res.body?.code === 'TICKETS_UNKNOWN_AGENT') return undefined
    return must(res, 200, 'assign')
  })

  const page = await newPage(t, browser, system)
  await loginAs(page, alice)
  await page.getByRole('link', { name: 'Tickets' }).click()
  await page.waitForURL('**/tickets', { timeout: WAIT_MS })
  await page.getByRole('heading', { name: 'Tickets', level: 1 }).waitFor({ timeout: WAIT_MS })
  const rowOf = (title: string) => table(page).getByRole('row').filter({ hasText: title })
  await rowOf('Printer on fire').filter({ hasText: 'Assigned' }).waitFor({ timeout: WAIT_MS })
  await rowOf('Invoice shows the wrong address').filter({ hasText: 'Open' }).waitFor({ timeout: WAIT_MS })
  t.pass('both tickets made through the API are listed with their status')
  await checkAxe(t, page, 'the tickets list')

  await page.getByRole('combobox', { name: 'Status' }).selectOption('assigned')
  await rowOf('Invoice shows the wrong address').waitFor({ state: 'detached', timeout: WAIT_MS })
  t.equal(await rowOf('Printer on fire').count(), 1, 'the status filter keeps the assigned ticket only')
  await page.getByRole('combobox', { name: 'Status' }).selectOption('closed')
  await page.getByText('No tickets match.').waitFor({ timeout: WAIT_MS })
  t.pass('no closed ticket')
  await page.getByRole('combobox', { name: 'Status' }).selectOption('assigned')

  await table(page).getByRole('link', { name: 'Printer on fire' }).click()
  await page.waitForURL(`**/tickets/${mine.id}`, { timeout: WAIT_MS })
  await page.getByRole('heading', { name: 'Printer on fire', level: 1 }).waitFor({ timeout: WAIT_MS })
  await page.getByText('Smoke since Monday').waitFor({ timeout: WAIT_MS })
  t.pass('the ticket opens at /tickets/:id')

  // only the moves the service allows from "assigned" are offered
  const status = page.getByRole('region', { name: 'Status' })
  await status.getByRole('button', { name: 'Mark as In progress' }).waitFor({ timeout: WAIT_MS })
  const offered = await status.getByRole('button').allTextContents()
  t.same(offered, ['Mark as In progress', 'Mark as Resolved', 'Mark as Open', 'Close ticket'], 'moves from assigned')

  await page.getByRole('textbox', { name: 'Comment' }).fill('Fire brigade called, replacing the fuser')
  await page.getByRole('button', { name: 'Add comment' }).click()
  const comments = page.getByRole('list', { name: 'Comments' })
  await comments.getByText('Fire brigade called, replacing the fuser').waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('textbox', { name: 'Comment' }).inputValue(), '', 'the box is emptied')
  const stored = must(await kit.api.get(`/api/tickets/${mine.id}/comments`, auth), 200, 'comments')
  t.match(stored.data, [{ content: 'Fire brigade called, replacing the fuser', type: 'comment' }], 'stored by the API')

  await status.getByRole('button', { name: 'Mark as In progress' }).click()
  await status.getByRole('button', { name: 'Mark as Resolved' }).waitFor({ timeout: WAIT_MS })
  await status.getByText('In progress', { exact: true }).waitFor({ timeout: WAIT_MS })
  t.same(
    await status.getByRole('button').allTextContents(),
    ['Mark as Resolved', 'Mark as Open', 'Close ticket'],
    'moves from in progress',
  )
  t.match(must(await kit.api.get(`/api/tickets/${mine.id}`, auth), 200, 'read').status, 'in_progress')
  await checkAxe(t, page, 'the ticket detail')

  // resolved behind the page's back: the page still offers "Open", which the server refuses — shown in words
  must(await kit.api.put(`/api/tickets/${mine.id}`, { status: 'resolved' }, auth), 200, 'resolve')
  await status.getByRole('button', { name: 'Mark as Open' }).click()
  await status.getByRole('alert').filter({ hasText: 'cannot change status from resolved to open' }).waitFor({
    timeout: WAIT_MS,
  })
  t.pass('the 409 is shown in the API words')

  await page.getByRole('link', { name: 'Back to tickets' }).click()
  await page.waitForURL('**/tickets', { timeout: WAIT_MS })
  await rowOf('Printer on fire').filter({ hasText: 'Resolved' }).waitFor({ timeout: WAIT_MS })
  t.pass('back in the list, the ticket shows its new status')
  t.ok(waiting.id, 'the open ticket stayed untouched')
})

t.test('tickets: the priority and custom field filters; the detail shows custom field values', async (t) => {
  const scope = kit.freshScope('ticketcf')
  const bob = await kit.agent(scope, 'bob')
  const dora = await kit.customer(scope, 'dora')
  const auth = kit.svc(scope)
  must(await kit.api.post('/api/custom-fields', { key: 'region', type: 'string', name: 'Region' }, auth), 201, 'field')
  const emea = must(
    await createTicket(
      kit.api,
      { title: 'Billing portal down', customer_id: dora.id, priority: 'urgent', custom_fields: { region: 'emea' } },
      auth,
    ),
    201,
    'emea ticket',
  )
  must(
    await createTicket(
      kit.api,
      { title: 'Password reset loop', customer_id: dora.id, custom_fields: { region: 'apac' } },
      auth,
    ),
    201,
    'apac ticket',
  )

  const page = await newPage(t, browser, system)
  await loginAs(page, bob, '/tickets')
  const rowOf = (title: string) => table(page).getByRole('row').filter({ hasText: title })
  await rowOf('Password reset loop').waitFor({ timeout: WAIT_MS })
  await rowOf('Billing portal down').filter({ hasText: 'Urgent' }).waitFor({ timeout: WAIT_MS })

  await page.getByRole('combobox', { name: 'Priority' }).selectOption('urgent')
  await rowOf('Password reset loop').waitFor({ state: 'detached', timeout: WAIT_MS })
  t.equal(await rowOf('Billing portal down').count(), 1, 'the priority filter keeps the urgent ticket only')
  await page.getByRole('combobox', { name: 'Priority' }).selectOption('')
  await rowOf('Password reset loop').waitFor({ timeout: WAIT_MS })

  await page.getByRole('combobox', { name: 'Custom field', exact: true }).selectOption('region')
  await page.getByRole('textbox', { name: 'Custom field value' }).fill('apac')
  await rowOf('Billing portal down').waitFor({ state: 'detached', timeout: WAIT_MS })
  t.equal(await rowOf('Password reset loop').count(), 1, 'the custom field filter keeps the apac ticket only')
  await page.getByRole('textbox', { name: 'Custom field value' }).fill('emea')
  await table(page).getByRole('link', { name: 'Billing portal down' }).click()
  await page.waitForURL(`**/tickets/${emea.id}`, { timeout: WAIT_MS })
  const fields = page.getByRole('region', { name: 'Custom fields' })
  await fields.getByText('emea', { exact: true }).waitFor({ timeout: WAIT_MS })
  t.pass('the custom field value is shown')
  // an open ticket: only "Assign to me" and "Close ticket" are offered
  const status = page.getByRole('region', { name: 'Status' })
  await status.getByRole('button', { name: 'Assign to me' }).waitFor({ timeout: WAIT_MS })
  t.same(await status.getByRole('button').allTextContents(), ['Assign to me', 'Close ticket'], 'moves from open')
})

t.test(
  'tickets live: made, assigned, commented and moved by another user show without a reload; names, not ids',
  async (t) => {
    const scope = kit.freshScope('ticketlive')
    const alice = await kit.agent(scope, 'alice')
    const bob = await kit.agent(scope, 'bob')
    const erin = await kit.customer(scope, 'erin')
    // the other user: bob, through the API with his own token (as his console or any client would)
    const asBob = { token: (await kit.agentLogin(bob)).token }
    const aliceName = `alice ${kit.suffix}`
    const bobName = `bob ${kit.suffix}`

    const page = await newPage(t, browser, system)
    await loginAs(page, alice, '/tickets')
    await page.getByText('No tickets match.').waitFor({ timeout: WAIT_MS })
    const rowOf = (title: string) => table(page).getByRole('row').filter({ hasText: title })

    const made = must(
      await createTicket(kit.api, { title: 'Scanner jams on page two', customer_id: erin.id }, asBob),
      201,
      'ticket by bob',
    )
    await rowOf('Scanner jams on page two').filter({ hasText: 'Open' }).waitFor({ timeout: WAIT_MS })
    t.pass('a ticket another user made appears in the open list without a reload')

    await until('tickets to know alice', async () => {
      const res = await kit.api.post(`/api/tickets/${made.id}/assign`, { agent_id: alice.user_id }, asBob)
      if (res.status === 400 && res.body?.code === 'TICKETS_UNKNOWN_AGENT') return undefined
      return must(res, 200, 'assign')
    })
    const row = rowOf('Scanner jams on page two').filter({ hasText: 'Assigned' })
    await row.waitFor({ timeout: WAIT_MS })
    await row.getByRole('cell', { name: aliceName, exact: true }).waitFor({ timeout: WAIT_MS })
    t.notOk((await row.textContent())?.includes(alice.user_id), 'the assignee is named, not shown by id')

    await table(page).getByRole('link', { name: 'Scanner jams on page two' }).click()
    await page.waitForURL(`**/tickets/${made.id}`, { timeout: WAIT_MS })
    const fields = page.getByRole('region', { name: 'Details' })
    await fields.getByText(aliceName, { exact: true }).waitFor({ timeout: WAIT_MS })
    t.notOk(
      (await fields.textContent())?.includes(alice.user_id),
      "the detail names the assignee, not the assignee's id",
    )
    await page.getByText('No comments yet.').waitFor({ timeout: WAIT_MS })

    must(await kit.api.post(`/api/tickets/${made.id}/comments`, { content: 'Rollers replaced' }, asBob), 201, 'comment')
    const comment = page
      .getByRole('list', { name: 'Comments' })
      .getByRole('listitem')
      .filter({ hasText: 'Rollers replaced' })
    await comment.waitFor({ timeout: WAIT_MS })
    await comment.getByText(bobName, { exact: false }).waitFor({ timeout: WAIT_MS })
    t.pass("another user's comment appears on the open detail without a reload, with its author's name")

    const status = page.getByRole('region', { name: 'Status' })
    must(await kit.api.put(`/api/tickets/${made.id}`, { status: 'in_progress' }, asBob), 200, 'in progress')
    await status.getByText('In progress', { exact: true }).waitFor({ timeout: WAIT_MS })
    await status.getByRole('button', { name: 'Mark as Resolved' }).waitFor({ timeout: WAIT_MS })
    t.pass("another user's status change shows on the open detail without a reload, with the moves from there")

    must(await kit.api.post(`/api/tickets/${made.id}/close`, { reason: 'fixed' }, asBob), 200, 'close')
    await status.getByText('Closed', { exact: true }).waitFor({ timeout: WAIT_MS })
    t.equal(await status.getByRole('button').count(), 0, 'a closed ticket offers no move')
    await page.getByRole('link', { name: 'Back to tickets' }).click()
    await rowOf('Scanner jams on page two').filter({ hasText: 'Closed' }).waitFor({ timeout: WAIT_MS })
    t.pass('the list shows the close')
    await checkAxe(t, page, 'the tickets list after live updates')
  },
)
