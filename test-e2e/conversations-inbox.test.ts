// The agent console's inbox end to end through the gateway, in both run modes: views (mine; all only for
// supervisors), the customer's name from identity's events, the last message, unread counts from read markers
// (over HTTP and over the console's socket) and a resync with changed_since/server_time.
import { conversationsKit, must } from './harness/conversations-kit.ts'
import { type CallOptions, until } from './harness/http.ts'
import { inEachMode } from './harness/modes.ts'
import { openSocket } from './harness/realtime-kit.ts'

inEachMode('conversations: the inbox', {}, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api } = kit
  const scope = kit.freshScope('cvinbox')
  const hub = kit.hub(scope)
  const alice = await kit.agent(scope, 'alice', { online: true })
  const carol = await kit.customer(scope, 'carol')
  await kit.onlineAgents(scope, 1)
  const aliceToken = (await kit.agentLogin(alice)).token
  const as = { token: aliceToken }
  const first = await hub.open('My parcel is late', carol.user_id)
  const sessionId: string = first.session.id
  must(await api.post(`/api/omni/sessions/${sessionId}/assign`, { agent_id: alice.user_id }, as), 200, 'assign')
  const row = async (qs = 'view=mine', opts: CallOptions = as) => {
    const page = must(await api.get(`/api/omni/inbox?${qs}`, opts), 200, `inbox ${qs}`)
    return { page, item: page.items.find((i: { id: string }) => i.id === sessionId) }
  }

  t.test("mine: the row a list shows, the customer's name included", async (t) => {
    const { item } = await until('the customer named in the inbox', async () => {
      const r = await row()
      return r.item?.customer_name ? r : undefined
    })
    t.match(item, {
      status: 'active',
      agent_id: alice.user_id,
      customer_id: carol.user_id,
      customer_name: /carol/,
      last_message: { sender: 'system', visibility: 'public' },
      unread_count: 1,
      last_read_seq: 0,
      in_view: true,
    })
    const denied = await api.get('/api/omni/inbox?view=all', as)
    t.equal(denied.status, 403, 'all: not an agent’s')
    t.ok((await row('view=all', kit.svc(scope))).item, 'all: staff who supervise')
  })

  t.test('read markers and a resync', async (t) => {
    const listed = must(await api.get(`/api/omni/sessions/${sessionId}/messages`, as), 200, 'messages').items
    const read = await api.post(`/api/omni/sessions/${sessionId}/read`, { message_id: listed.at(-1).id }, as)
    t.equal(read.status, 200, read.text)
    t.match(read.body, { session_id: sessionId, unread_count: 0 })
    const { page } = await row()
    const since = encodeURIComponent(page.server_time)
    const said = await hub.post(`/internal/sessions/${sessionId}/messages`, {
      sender: 'customer',
      customer_id: carol.user_id,
      content: 'Any news?',
    })
    t.equal(said.status, 201, said.text)
    const { item } = await row(`view=mine&changed_since=${since}`)
    t.match(item, { unread_count: 1, last_message: { preview: 'Any news?' }, in_view: true }, 'what changed since')

    // the console's read receipt is its read marker too
    const console1 = await openSocket(system.url, { token: aliceToken, via: 'protocol' }, t)
    console1.send({ type: 'join', data: { session_id: sessionId } })
    await console1.next('session')
    console1.send({ type: 'read', session_id: sessionId, data: { message_id: said.body.message.id } })
    const after = await until('the read frame stored', async () => {
      const r = await row()
      return r.item?.unread_count === 0 ? r.item : undefined
    })
    t.equal(after.last_read_seq, said.body.message.seq)
  })
})
