// Conversations end to end through the gateway, in both run modes: a session opened by a customer's first
// message (the realtime hub's path), taken by the online agent, answered, transferred with its history, closed
// and reopened; and one customer never reaching another's session. The queue and shifts are
// conversations-queue.test.ts; cross-tenant ids conversations-tenancy.test.ts; uploads conversations-uploads.test.ts.
import { randomUUID } from 'node:crypto'
import { conversationsKit, must } from './harness/conversations-kit.ts'
import { until } from './harness/http.ts'
import { isError } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'

inEachMode('conversations: a session from first message to close', {}, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api } = kit
  // A workspace of its own: the demo workspace's seeded agents stay out of routing here.
  const scope = kit.freshScope('cvlife')
  const staff = kit.svc(scope)
  const hub = kit.hub(scope)
  const alice = await kit.agent(scope, 'alice', { online: true })
  const bob = await kit.agent(scope, 'bob')
  const carol = await kit.customer(scope, 'carol')
  const dave = await kit.customer(scope, 'dave')
  await kit.onlineAgents(scope, 1)
  const aliceToken = (await kit.agentLogin(alice)).token
  const bobToken = (await kit.agentLogin(bob)).token

  let sessionId = ''

  t.test('a customer message opens a session; to-human hands it to the online agent', async (t) => {
    const first = await hub.open('My order never arrived', carol.user_id)
    t.equal(first.created, true)
    t.match(first.session, {
      tenant_id: scope.tenant_id,
      workspace_id: scope.workspace_id,
      status: 'active',
      customer_id: carol.user_id,
      agent_id: null,
      subject: 'My order never arrived',
    })
    t.equal(first.visitor, null, 'a signed-in customer gets no visitor credential')
    sessionId = first.session.id
    const second = await hub.post(`/internal/sessions/${sessionId}/messages`, {
      sender: 'customer',
      customer_id: carol.user_id,
      content: 'Order 1234',
    })
    t.equal(second.status, 201, second.text)
    t.equal(second.body.created, false, 'the same session')

    const seen = await api.get(`/api/omni/sessions/${sessionId}`, { token: aliceToken })
    t.equal(seen.status, 200, seen.text)
    t.equal(seen.body.message_count, 2)

    const human = await api.post('/api/session-transfer/to-human', { session_id: sessionId, reason: 'asked' }, staff)
    t.equal(human.status, 200, human.text)
    t.match(human.body, { success: true, session_id: sessionId, new_agent_id: alice.user_id, is_waiting: false })
    const taken = await api.get(`/api/omni/sessions/${sessionId}`, { token: aliceToken })
    t.match(taken.body, { status: 'transferred', agent_id: alice.user_id })
    const mine = await api.get('/api/omni/sessions?mine=true', { token: aliceToken })
    t.same(
      mine.body.data.map((s: any) => s.id),
      [sessionId],
      "the agent's own sessions",
    )
  })

  t.test('a ticket continuing the session links it both ways', async (t) => {
    // tickets knows the customer once identity's event has reached it: retried until then
    const ticket = await until('ticket created', async () => {
      const r = await api.post(
        '/api/tickets',
        { title: 'Order 1234 missing', customer_id: carol.id, session_id: sessionId },
        staff,
      )
      return r.status === 201 ? r.body : undefined
    })
    t.equal(ticket.session_id, sessionId)
    // conversations follows tickets' event: the session carries the ticket
    const linked = await until('session linked', async () => {
      const s = must(await api.get(`/api/omni/sessions/${sessionId}`, { token: aliceToken }), 200, 'session')
      return s.ticket_id ? s : undefined
    })
    t.equal(linked.ticket_id, ticket.id)
    // and tickets follows conversations' `session.linked`: the ticket lists its conversation
    const listed = await until('ticket conversations', async () => {
      const r = must(await api.get(`/api/tickets/${ticket.id}/conversations`, staff), 200, 'conversations')
      return r.count > 0 ? r : undefined
    })
    t.match(listed.items, [{ session_id: sessionId, ticket_id: ticket.id, customer_id: carol.user_id }])
    // a ticket of another customer naming this session links nothing
    const other = await until('other ticket', async () => {
      const r = await api.post(
        '/api/tickets',
        { title: 'Not mine', customer_id: dave.id, session_id: sessionId },
        staff,
      )
      return r.status === 201 ? r.body : undefined
    })
    const probe = await until('a later link of carol', async () => {
      const r = await api.post(
        '/api/tickets',
        { title: 'Follow-up', customer_id: carol.id, session_id: sessionId },
        staff,
      )
      return r.status === 201 ? r.body : undefined
    })
    const relinked = await until('relinked to the follow-up', async () => {
      const s = must(await api.get(`/api/omni/sessions/${sessionId}`, { token: aliceToken }), 200, 'session')
      return s.ticket_id === probe.id ? s : undefined
    })
    t.not(relinked.ticket_id, other.id, "another customer's ticket never took the session")
  })

  t.test('the assigned agent replies through the gateway; another agent may not', async (t) => {
    const reply = await api.post(
      `/api/omni/sessions/${sessionId}/messages`,
      { content: 'Let me check that for you' },
      { token: aliceToken },
    )
    t.equal(reply.status, 201, reply.text)
    t.match(reply.body, { session_id: sessionId, sender: 'agent', sender_id: alice.user_id, kind: 'text' })
    isError(
      t,
      await api.post(`/api/omni/sessions/${sessionId}/messages`, { content: 'me too' }, { token: bobToken }),
      403,
      'CONVERSATIONS_NOT_ASSIGNED',
      'an agent not assigned to the session',
    )
    const messages = await api.get(`/api/omni/sessions/${sessionId}/messages`, { token: bobToken })
    t.equal(messages.status, 200, 'any agent of the workspace reads it')
    t.same(
      messages.body.items.map((m: any) => m.sender),
      ['customer', 'customer', 'system', 'agent'],
      'customer, customer, the hand-over, the reply: oldest first',
    )
    // The hub reads the same history for the customer's socket.
    const viaHub = await hub.get(`/internal/sessions/${sessionId}/messages?after=${messages.body.items[1].id}`)
    t.equal(viaHub.status, 200, viaHub.text)
    t.same(
      viaHub.body.items.map((m: any) => m.id),
      messages.body.items.slice(2).map((m: any) => m.id),
      'the after cursor',
    )
  })

  t.test('transfer to a second agent, with its history', async (t) => {
    await kit.setStatus(scope, bob, 'online')
    await kit.onlineAgents(scope, 2)
    const moved = await api.post(
      `/api/omni/sessions/${sessionId}/transfer`,
      { to_agent_id: bob.user_id, reason: 'billing' },
      { token: aliceToken },
    )
    t.equal(moved.status, 200, moved.text)
    t.match(moved.body, { status: 'transferred', agent_id: bob.user_id })
    const history = await api.get(`/api/session-transfer/history/${sessionId}`, { token: bobToken })
    t.equal(history.status, 200, history.text)
    t.match(
      history.body.items.map((h: any) => ({ kind: h.kind, from: h.from_agent_id, to: h.to_agent_id })),
      [
        { kind: 'to_human', from: null, to: alice.user_id },
        { kind: 'transfer', from: alice.user_id, to: bob.user_id },
      ],
      'every hand-over, oldest first',
    )
    t.equal(history.body.items[1].reason, 'billing')
    const bobReply = await api.post(
      `/api/omni/sessions/${sessionId}/messages`,
      { content: 'Billing here' },
      { token: bobToken },
    )
    t.equal(bobReply.status, 201, bobReply.text)
    isError(
      t,
      await api.post(`/api/omni/sessions/${sessionId}/messages`, { content: 'still here' }, { token: aliceToken }),
      403,
      'CONVERSATIONS_NOT_ASSIGNED',
      'the previous agent no longer posts',
    )
  })

  t.test('close; an agent message to a closed session is refused; the customer reopens it', async (t) => {
    const closed = await api.post(`/api/omni/sessions/${sessionId}/close`, { reason: 'solved' }, { token: bobToken })
    t.equal(closed.status, 200, closed.text)
    t.match(closed.body, { status: 'closed', ended_at: String })
    isError(
      t,
      await api.post(`/api/omni/sessions/${sessionId}/messages`, { content: 'one more thing' }, { token: bobToken }),
      409,
      'CONVERSATIONS_SESSION_CLOSED',
    )
    isError(
      t,
      await api.post(`/api/omni/sessions/${sessionId}/close`, undefined, { token: bobToken }),
      409,
      'CONVERSATIONS_SESSION_CLOSED',
      'closing twice',
    )
    const again = await hub.post(`/internal/sessions/${sessionId}/messages`, {
      sender: 'customer',
      customer_id: carol.user_id,
      content: 'It broke again',
    })
    t.equal(again.status, 201, again.text)
    t.match(again.body, { reopened: true, session: { status: 'active', agent_id: null, ended_at: null } })
    const overview = await api.get('/api/omni/workspace', staff)
    t.equal(overview.status, 200, overview.text)
    t.equal(overview.body.online_agents, 2)
    t.ok(
      overview.body.recent_sessions.some((s: any) => s.id === sessionId),
      'the workspace overview lists it',
    )
  })

  t.test("a customer never reaches another customer's session", async (t) => {
    // The hub asks before it joins a customer's socket to a session, and posts for the customer it serves.
    const own = await hub.post(`/internal/sessions/${sessionId}/access`, { customer_id: carol.user_id })
    t.equal(own.status, 200, own.text)
    t.equal(own.body.role, 'customer')
    const foreign = await hub.post(`/internal/sessions/${sessionId}/access`, { customer_id: dave.user_id })
    const missing = await hub.post(`/internal/sessions/${randomUUID()}/access`, { customer_id: dave.user_id })
    isError(t, foreign, 404, 'CONVERSATIONS_SESSION_NOT_FOUND', "dave asking for carol's session")
    t.equal(foreign.body.message.replace(sessionId, '<id>'), missing.body.message.replace(/[0-9a-f-]{36}/, '<id>'))
    isError(
      t,
      await hub.post(`/internal/sessions/${sessionId}/messages`, {
        sender: 'customer',
        customer_id: dave.user_id,
        content: 'let me in',
      }),
      404,
      'CONVERSATIONS_SESSION_NOT_FOUND',
      "dave posting into carol's session",
    )
    const daves = await hub.open('My own question', dave.user_id)
    t.not(daves.session.id, sessionId, 'dave gets a session of his own')
    isError(
      t,
      await hub.post(`/internal/sessions/${daves.session.id}/access`, { customer_id: carol.user_id }),
      404,
      'CONVERSATIONS_SESSION_NOT_FOUND',
      "carol asking for dave's session",
    )
    // A customer's own token never reads sessions through the staff API either.
    const carolToken = must(
      await api.post('/api/v1/auth/login', { username: carol.username, password: carol.password }),
      200,
      'carol login',
    ).token
    isError(t, await api.get(`/api/omni/sessions/${sessionId}`, { token: carolToken }), 403, 'PRINCIPAL_KIND_FORBIDDEN')
    const listed = await api.get(`/api/omni/sessions?customer_id=${dave.user_id}`, staff)
    t.equal(listed.status, 200, listed.text)
    t.same(
      listed.body.data.map((s: any) => s.id),
      [daves.session.id],
      'the customer filter',
    )
  })
})
