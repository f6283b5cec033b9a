// The console's customer sidebar in a real browser (Debian's Chromium) against the embedded default: the customer's
// notes — the record's own notes text and the dated notes staff left (identity's /api/customers/:id/notes) with
// their authors' names — and adding one: no box for an agent (its role reads customers but does not write them; the API
// refuses it anyway), stored and listed for the admin. In the seeded demo workspace, where the admin is staff. Every
// wait is on a role, a name or a text: no sleeps, no retries.
import t from 'tap'
import { login } from '../harness/auth.ts'
import { conversationsKit, must } from '../harness/conversations-kit.ts'
import { openSocket } from '../harness/realtime-kit.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)
const kit = await conversationsKit(system)
const DEMO = { tenant_id: 'demo', workspace_id: 'main' }

t.test("the sidebar shows the customer's notes; adding one is the server's call", async (t) => {
  const alice = await kit.agent(DEMO, 'alice', { online: true })
  const carol = await kit.customer(DEMO, 'carol')
  must(
    await kit.api.put(`/api/customers/${carol.id}`, { notes: 'Prefers email over phone' }, kit.svc(DEMO)),
    200,
    'profile notes',
  )
  const carolToken = (await login(kit.api, carol.username, carol.password)).token
  const customer = await openSocket(system.url, { token: carolToken, via: 'protocol' }, t)
  customer.send({ type: 'text-message', data: 'My invoice is wrong' })
  const id = (await customer.next('session')).data.session_id as string
  must(await kit.api.post(`/api/omni/sessions/${id}/assign`, { agent_id: alice.user_id }, kit.svc(DEMO)), 200, 'assign')

  const page = await newPage(t, browser, system)
  await loginAs(page, alice, `/conversations/${id}`)
  const notes = page.getByRole('complementary', { name: 'Customer' }).getByRole('region', { name: 'Notes' })
  await notes.getByText('Prefers email over phone').waitFor({ timeout: WAIT_MS })
  t.pass("the record's notes text is shown under Notes")
  t.equal(await notes.getByRole('textbox', { name: 'New note on the customer' }).count(), 0, 'no note box for an agent')
  t.equal(await notes.getByRole('button', { name: 'Add note' }).count(), 0, 'no Add note button for an agent')
  const agentToken = (await login(kit.api, alice.username, alice.password)).token
  const refused = await kit.api.post(`/api/customers/${carol.id}/notes`, { content: 'x' }, { token: agentToken })
  t.equal(refused.status, 403, 'the API refuses an agent’s note anyway')
  const none = must(await kit.api.get(`/api/customers/${carol.id}/notes`, kit.svc(DEMO)), 200, 'notes')
  t.equal(none.count, 0, 'nothing stored')

  // the admin (staff of the demo workspace, customers.write) adds one
  const admin = await newPage(t, browser, system)
  await loginAs(admin, system.admin, `/conversations/${id}`)
  const adminNotes = admin.getByRole('complementary', { name: 'Customer' }).getByRole('region', { name: 'Notes' })
  await adminNotes.getByText('Prefers email over phone').waitFor({ timeout: WAIT_MS })
  await adminNotes.getByRole('textbox', { name: 'New note on the customer' }).fill('Refund approved, called back')
  await adminNotes.getByRole('button', { name: 'Add note' }).click()
  const listed = adminNotes.getByRole('list', { name: 'Customer notes' }).getByRole('listitem')
  await listed.filter({ hasText: 'Refund approved, called back' }).waitFor({ timeout: WAIT_MS })
  t.equal(await adminNotes.getByRole('textbox', { name: 'New note on the customer' }).inputValue(), '', 'box emptied')
  const stored = must(await kit.api.get(`/api/customers/${carol.id}/notes`, kit.svc(DEMO)), 200, 'notes')
  t.match(stored.items, [{ content: 'Refund approved, called back', author_user_id: String }], 'stored by the API')
  const adminId = stored.items[0].author_user_id as string

  // the agent's sidebar lists it (read again on a reload) with the author's name, not the id
  await page.reload()
  const note = notes.getByRole('list', { name: 'Customer notes' }).getByRole('listitem')
  await note.filter({ hasText: 'Refund approved, called back' }).waitFor({ timeout: WAIT_MS })
  const meta = (await note.first().textContent()) ?? ''
  t.match(meta, /Administrator/, "the note names its author (the admin's display name)")
  t.notOk(meta.includes(adminId), "not the author's id")
  await checkAxe(t, page, 'the customer sidebar with notes')
})
