import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { agent, customer, hubFixture } from '../helpers/hub.ts'
import { open } from '../helpers/socket.ts'

const WIDGET = { tenant_id: 'acme', workspace_id: 'support' }

inEachStorageMode(t, 'widget visitor and agent console on one hub', async (t, mode) => {
  const fx = await hubFixture(t, mode)
  await fx.seedAgent('agent-1')
  const url = fx.hub.url

  const console1 = await open(t, url, { principal: agent('agent-1') })
  const visitor = await open(t, url, { query: WIDGET })

  visitor.send({ type: 'text-message', data: 'Hello, my parcel is late' })
  const started = await visitor.take((f) => f.type === 'session', 'the session frame')
  const sessionId: string = started.data.session_id
  t.match(started.data, {
    session_id: String,
    status: 'active',
    visitor: { visitor_id: String, credential: /^[A-Za-z0-9_-]{43}$/ },
  })
  t.equal(started.session_id, sessionId)
  const credential: string = started.data.visitor.credential
  const echo = await visitor.take((f) => f.type === 'text-message', 'its own message')
  t.match(echo, {
    session_id: sessionId,
    timestamp: String,
    data: { seq: 1, sender: 'customer', content: 'Hello, my parcel is late', message_id: String },
  })

  await t.test('the agent assigned through conversations gets the session on its console', async (t) => {
    const assigned = await fx.call(agent('agent-1'), 'POST', `/api/omni/sessions/${sessionId}/assign`, {
      agent_id: 'agent-1',
    })
    t.equal(assigned.status, 200)
    const note = await console1.take((f) => f.type === 'transfer_notification', 'transfer_notification')
    t.match(note, { session_id: sessionId, data: { event: 'assigned', agent_id: 'agent-1' } })
    const joined = await console1.take((f) => f.type === 'system', 'the system message')
    t.match(joined.data, { seq: 2, sender: 'system', content: /joined the conversation/ })
    await visitor.take((f) => f.type === 'system' && f.data.seq === 2, 'the system message at the visitor')

    visitor.send({ type: 'text-message', data: { content: 'Are you there?' } })
    const received = await console1.take((f) => f.type === 'text-message', 'the visitor message at the console')
    t.match(received, { session_id: sessionId, data: { seq: 3, sender: 'customer', content: 'Are you there?' } })
  })

  await t.test("the agent's reply over HTTP and over the socket reach the visitor", async (t) => {
    const reply = await fx.call(agent('agent-1'), 'POST', `/api/omni/sessions/${sessionId}/messages`, {
      content: 'Yes, looking into it',
    })
    t.equal(reply.status, 201)
    const m = await visitor.take((f) => f.type === 'agent-message', 'agent-message')
    t.match(m.data, { message_id: reply.body.id, seq: 4, sender: 'agent', sender_id: 'agent-1' })

    console1.send({ type: 'text-message', session_id: sessionId, data: 'Found it: it ships today' })
    const m2 = await visitor.take((f) => f.type === 'agent-message', 'agent-message over the socket')
    t.match(m2.data, { seq: 5, sender_id: 'agent-1', content: 'Found it: it ships today' })
    await console1.take((f) => f.type === 'agent-message' && f.data.seq === 5, 'its own message, as the console shows')
  })

  await t.test('an agent may not post in a session assigned to someone else', async (t) => {
    const other = await open(t, url, { principal: agent('agent-2') })
    other.send({ type: 'text-message', session_id: sessionId, data: 'hi' })
    const err = await other.take((f) => f.type === 'error', 'error')
    t.equal(err.data.code, 'CONVERSATIONS_NOT_ASSIGNED')
  })

  await t.test('rejoining takes the credential; a bare id or a wrong one is not found', async (t) => {
    const again = await open(t, url)
    again.send({ type: 'join', data: { session_id: sessionId, visitor_credential: credential } })
    const joined = await again.take((f) => f.type === 'session', 'session')
    t.match(joined.data, { session_id: sessionId, agent_id: 'agent-1' })
    t.notOk(joined.data.visitor, 'the credential is handed out once')
    visitor.send({ type: 'text-message', data: 'one more thing' })
    const live = await again.take((f) => f.type === 'text-message', 'live after the rejoin')
    t.equal(live.data.content, 'one more thing')

    const stranger = await open(t, url, { query: WIDGET })
    for (const data of [{ session_id: sessionId }, { session_id: sessionId, visitor_credential: 'x'.repeat(43) }]) {
      stranger.send({ type: 'join', data })
      const err = await stranger.take((f) => f.type === 'error', 'error')
      t.match(err.data, { code: 'CONVERSATIONS_SESSION_NOT_FOUND', message: `session ${sessionId} not found` })
    }
    stranger.send({ type: 'typing', session_id: sessionId, data: { state: 'start' } })
    t.equal((await stranger.take((f) => f.type === 'error', 'error')).data.code, 'REALTIME_NOT_JOINED')
    visitor.send({ type: 'text-message', data: 'and another' })
    await again.take((f) => f.type === 'text-message' && f.data.content === 'and another', 'the next live message')
    await stranger.sync()
    t.notOk(
      stranger.frames.some((f) => f.session_id === sessionId && f.type !== 'error'),
      'nothing of the session reached the stranger',
    )
  })

  await t.test("another customer's session is not found; the customer's own is", async (t) => {
    const alice = await open(t, url, { principal: customer('cust-alice') })
    alice.send({ type: 'text-message', data: 'Alice here' })
    const s = await alice.take((f) => f.type === 'session', 'session')
    t.notOk(s.data.visitor, 'a signed-in customer gets no visitor credential')
    const aliceSession = s.data.session_id
    await alice.take((f) => f.type === 'text-message', 'echo')

    const bob = await open(t, url, { principal: customer('cust-bob') })
    bob.send({ type: 'join', data: { session_id: aliceSession } })
    t.equal((await bob.take((f) => f.type === 'error', 'error')).data.code, 'CONVERSATIONS_SESSION_NOT_FOUND')
    const bobByQuery = await open(t, url, { principal: customer('cust-bob'), query: { session_id: aliceSession } })
    t.equal((await bobByQuery.take((f) => f.type === 'error', 'error')).data.code, 'CONVERSATIONS_SESSION_NOT_FOUND')

    const aliceAgain = await open(t, url, { principal: customer('cust-alice'), query: { session_id: aliceSession } })
    t.match((await aliceAgain.take((f) => f.type === 'session', 'session')).data, { session_id: aliceSession })
    alice.send({ type: 'text-message', data: 'from the first tab' })
    t.equal((await aliceAgain.take((f) => f.type === 'text-message', 'live')).data.content, 'from the first tab')
    await bob.sync()
    t.notOk(
      bob.frames.some((f) => f.session_id === aliceSession && f.type !== 'error'),
      'bob saw nothing of it',
    )
  })

  await t.test("the widget's scope must take visitors", async (t) => {
    const noScope = await open(t, url)
    noScope.send({ type: 'text-message', data: 'hi' })
    t.equal((await noScope.take((f) => f.type === 'error', 'error')).data.code, 'REALTIME_WIDGET_SCOPE_REQUIRED')
    const closed = await open(t, url, { query: { tenant_id: 'acme', workspace_id: 'closed' } })
    closed.send({ type: 'text-message', data: 'hi' })
    t.equal((await closed.take((f) => f.type === 'error', 'error')).data.code, 'IDENTITY_WIDGET_DISABLED')
    const unknown = await open(t, url, { query: { tenant_id: 'hooli', workspace_id: 'desk' } })
    unknown.send({ type: 'text-message', data: 'hi' })
    t.equal((await unknown.take((f) => f.type === 'error', 'error')).data.code, 'IDENTITY_TENANT_NOT_FOUND')
  })

  await t.test('handoff words and transfer-request ask conversations for a human', async (t) => {
    // sales has no agent online: the session waits, and the sales console hears of the queue
    const salesConsole = await open(t, url, { principal: agent('agent-s', { workspace_id: 'sales' }) })
    const supportConsole = await open(t, url, { principal: agent('agent-3') })
    const v = await open(t, url, { query: { tenant_id: 'acme', workspace_id: 'sales' } })
    v.send({ type: 'text-message', data: 'I want to talk to a HUMAN please' })
    const sid = (await v.take((f) => f.type === 'session', 'session')).data.session_id
    const waiting = await v.take((f) => f.type === 'waiting_notification', 'waiting_notification')
    t.match(waiting, { session_id: sid, data: { status: 'waiting', position: 1, message: /number 1 in the queue/ } })
    const queued = await salesConsole.take((f) => f.type === 'waiting_notification', 'queue at the console')
    t.match(queued.data, { position: 1, waiting_id: waiting.data.waiting_id })
    await supportConsole.sync()
    t.notOk(
      supportConsole.frames.some((f) => f.session_id === sid),
      "another workspace's console hears nothing",
    )

    const v2 = await open(t, url, { query: { tenant_id: 'acme', workspace_id: 'sales' } })
    v2.send({ type: 'text-message', data: 'The reagent I ordered is humanely packed?' })
    const sid2 = (await v2.take((f) => f.type === 'session', 'session')).data.session_id
    await v2.take((f) => f.type === 'text-message', 'echo')
    await v2.sync()
    t.notOk(
      v2.frames.some((f) => f.type === 'waiting_notification'),
      'words that only hold a handoff word ask for nobody',
    )
    v2.send({ type: 'transfer-request', data: { reason: 'billing' } })
    const w2 = await v2.take((f) => f.type === 'waiting_notification', 'waiting after transfer-request')
    t.equal(w2.session_id, sid2)
  })
})
