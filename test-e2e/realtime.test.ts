// The realtime hub (services/realtime-voice) end to end through the gateway, in both run modes, with real
// WebSocket clients: an anonymous widget's first message creates a session (the visitor credential issued once),
// the online agent's console gets it, replies over HTTP and over its socket reach the widget; the credential (and
// only it) rejoins and resumes; another customer's session is refused like a missing one; frames off the protocol
// are answered, never a crash; WebRTC between the two participants only, its state over HTTP. The queue and socket
// stats: realtime-queue-stats.test.ts; across replicas (kill -9 one mid-conversation): realtime-fleet.test.ts; voice
// calls: realtime-voice.test.ts.
import { randomUUID } from 'node:crypto'
import { login } from './harness/auth.ts'
import { conversationsKit, must } from './harness/conversations-kit.ts'
import { until } from './harness/http.ts'
import { isError } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'
import { type Frame, openSocket, range } from './harness/realtime-kit.ts'

/** The hub's own frame limit, under the gateway's (64 KiB): an oversize frame is the hub's to close (1009). */
const HUB_MAX_FRAME_BYTES = 16 * 1024
const env = { HUB_MAX_FRAME_BYTES: String(HUB_MAX_FRAME_BYTES), HUB_STATS_INTERVAL_MS: '500' }

/** An error frame's message with the session id taken out: a refusal must not tell a session that exists. */
const template = (f: Frame, id: string) => String(f.data.message).replaceAll(id, '<id>')

inEachMode('realtime: the hub through the gateway', { env }, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api } = kit
  const scope = kit.freshScope('rthub')
  const widgetScope = { tenant_id: scope.tenant_id, workspace_id: scope.workspace_id }
  const alice = await kit.agent(scope, 'alice', { online: true })
  const bob = await kit.agent(scope, 'bob')
  await kit.onlineAgents(scope, 1)
  const aliceToken = (await kit.agentLogin(alice)).token
  const bobToken = (await kit.agentLogin(bob)).token

  // The agent console, as a browser opens it (the token as a sub-protocol), for the whole suite.
  const console1 = await openSocket(system.url, { token: aliceToken, via: 'protocol' })
  t.teardown(() => console1.ws.terminate())
  const widget = await openSocket(system.url, { query: widgetScope })
  t.teardown(() => widget.ws.terminate())
  const ctx = { sessionId: '', credential: '', visitorId: '' }
  /** the session's messages as conversations lists them, oldest first */
  const listed = async (sessionId = ctx.sessionId) =>
    must(await api.get(`/api/omni/sessions/${sessionId}/messages?limit=200`, { token: aliceToken }), 200, 'messages')
      .items as Array<{ id: string; sender: string; content: string }>

  t.test('an anonymous widget starts a session; the console gets it; replies reach the widget', async (t) => {
    t.equal(console1.ws.protocol, 'switchboard.v1', 'the console gets the real sub-protocol, never its bearer entry')
    widget.send({ type: 'text-message', data: 'Hello, I would like to talk to a human please' })
    const session = await widget.next('session')
    t.match(session.data, { status: 'active', agent_id: null, visitor: { visitor_id: String, credential: String } })
    ctx.sessionId = session.data.session_id
    ctx.credential = session.data.visitor.credential
    ctx.visitorId = session.data.visitor.visitor_id
    t.equal(session.session_id, ctx.sessionId)
    const own = await widget.next('text-message')
    t.match(own, { session_id: ctx.sessionId, data: { seq: 1, sender: 'customer', content: /talk to a human/ } })

    // "human" asks conversations for one: the online agent takes it, and its console hears of it
    const toConsole = await console1.next('transfer_notification', {
      match: (f) => f.session_id === ctx.sessionId,
      what: "the hand-over on alice's console",
    })
    t.match(toConsole.data, { event: 'transferred', agent_id: alice.user_id, previous_agent_id: null })
    t.match((await widget.next('transfer_notification')).data, { agent_id: alice.user_id })
    const handed = await console1.next('system', { match: (f) => f.session_id === ctx.sessionId })
    t.match(handed.data, { seq: 2, sender: 'system', content: /handed over/ })
    t.match((await widget.next('system')).data, { seq: 2 })
    const seen = must(await api.get(`/api/omni/sessions/${ctx.sessionId}`, { token: aliceToken }), 200, 'session')
    t.match(seen, { agent_id: alice.user_id, visitor_id: ctx.visitorId, channel: 'web', tenant_id: scope.tenant_id })

    // the agent replies over HTTP (through the gateway, as itself)
    const reply = await api.post(
      `/api/omni/sessions/${ctx.sessionId}/messages`,
      { content: 'Hi, Alice here. How can I help?' },
      { token: aliceToken },
    )
    t.equal(reply.status, 201, reply.text)
    const agentMessage = await widget.next('agent-message')
    t.match(agentMessage, {
      session_id: ctx.sessionId,
      data: { message_id: reply.body.id, seq: 3, sender: 'agent', sender_id: alice.user_id, content: /Alice here/ },
      timestamp: String,
    })

    // the visitor's next message reaches the console; the console's own message (over its socket) the widget
    widget.send({ type: 'text-message', data: { content: 'My order 1234 is late', metadata: { page: '/orders' } } })
    const atConsole = await console1.next('text-message', { match: (f) => f.session_id === ctx.sessionId })
    t.match(atConsole.data, {
      seq: 4,
      sender: 'customer',
      content: 'My order 1234 is late',
      metadata: { page: '/orders' },
    })
    console1.send({ type: 'text-message', session_id: ctx.sessionId, data: 'Let me look into order 1234' })
    t.match((await widget.next('agent-message')).data, { seq: 5, sender_id: alice.user_id, content: /order 1234/ })

    // bob is not assigned: his console may watch the session (he may read it over HTTP too), never post in it
    const bobConsole = await openSocket(system.url, { token: bobToken }, t)
    bobConsole.send({ type: 'join', data: { session_id: ctx.sessionId } })
    t.match((await bobConsole.next('session')).data, { session_id: ctx.sessionId }, 'bob joins as an observer')
    bobConsole.send({ type: 'text-message', session_id: ctx.sessionId, data: 'me too' })
    t.match((await bobConsole.next('error')).data, { code: 'CONVERSATIONS_NOT_ASSIGNED' }, 'but may not post')
    const seenId = (await listed())[0]!.id
    for (const type of ['typing', 'read'] as const) {
      bobConsole.send({
        type,
        session_id: ctx.sessionId,
        data: type === 'typing' ? { state: 'start' } : { message_id: seenId },
      })
      t.match((await bobConsole.next('error')).data, { code: 'REALTIME_FRAME_NOT_ALLOWED' }, `nor send ${type}`)
    }
    widget.send({ type: 'text-message', data: 'Still there?' })
    t.match(
      (await bobConsole.next('text-message', { match: (f) => f.session_id === ctx.sessionId })).data,
      { seq: 6, content: 'Still there?' },
      'the observer sees the live conversation',
    )
    await widget.sync()
    t.same(widget.seqs(ctx.sessionId), [1, 2, 3, 4, 5, 6], 'the widget got every message once, in order')
    t.same(
      widget.messages(ctx.sessionId).map((f) => f.data.message_id),
      (await listed()).map((m) => m.id),
      'exactly the messages conversations holds',
    )
    await bobConsole.sync()
    t.notOk(
      bobConsole.frames.some(
        (f) => f.session_id === ctx.sessionId && f.type === 'agent-message' && f.data.sender_id === bob.user_id,
      ),
      'nothing was posted as bob',
    )
    t.notOk(
      widget.frames.some((f) => (f.type === 'typing' || f.type === 'read') && f.data?.from?.id === bob.user_id),
      "the widget never saw bob's typing or read receipts",
    )
  })

  t.test(
    'the visitor credential, and only it, rejoins the session; a rejoin resumes after its last message',
    async (t) => {
      const missing = randomUUID()
      // a stolen session id: nothing without the credential, in any way of asking
      const thief = await openSocket(system.url, {}, t)
      thief.send({ type: 'join', data: { session_id: ctx.sessionId } })
      const bare = await thief.next('error')
      thief.send({ type: 'join', data: { session_id: ctx.sessionId, visitor_credential: 'guessed-credential' } })
      const wrong = await thief.next('error')
      thief.send({ type: 'join', data: { session_id: missing, visitor_credential: ctx.credential } })
      const none = await thief.next('error')
      for (const [what, f] of [
        ['a bare session id', bare],
        ['a wrong credential', wrong],
        ['a session that does not exist', none],
      ] as const) {
        t.equal(f.data.code, 'CONVERSATIONS_SESSION_NOT_FOUND', `${what}: not found`)
      }
      t.equal(template(bare, ctx.sessionId), template(none, missing), 'the bare id is answered like a missing session')
      t.equal(template(wrong, ctx.sessionId), template(none, missing), 'so is a wrong credential')
      const byQuery = await openSocket(system.url, { query: { session_id: ctx.sessionId } }, t)
      t.match((await byQuery.next('error')).data, { code: 'CONVERSATIONS_SESSION_NOT_FOUND' }, '?session_id= alone')
      thief.send({ type: 'text-message', session_id: ctx.sessionId, data: 'let me in' })
      t.match((await thief.next('error')).data, { code: 'REALTIME_NOT_JOINED' }, 'nor may it post there')

      // the widget reloads: a new socket with its credential and the last message it had (seq 2)
      const history = await listed()
      const rejoined = await openSocket(system.url, {}, t)
      rejoined.send({
        type: 'join',
        data: { session_id: ctx.sessionId, visitor_credential: ctx.credential, after: history[1]!.id },
      })
      const again = await rejoined.next('session')
      t.match(again.data, { session_id: ctx.sessionId, agent_id: alice.user_id })
      t.notOk('visitor' in again.data, 'the credential is issued once, when the session was created')
      const live = await api.post(
        `/api/omni/sessions/${ctx.sessionId}/messages`,
        { content: 'Found it: it ships today' },
        { token: aliceToken },
      )
      t.equal(live.status, 201, live.text)
      await rejoined.next('agent-message', { match: (f) => f.data.message_id === live.body.id })
      await widget.next('agent-message', { match: (f) => f.data.message_id === live.body.id })
      t.same(
        rejoined.seqs(ctx.sessionId),
        range(3, 7),
        'what it missed after seq 2, in order, then live: no gap, no double',
      )
      t.same(widget.seqs(ctx.sessionId), range(1, 7), 'the first socket carries on')

      // the rejoined socket speaks for the visitor
      rejoined.send({ type: 'text-message', data: 'Great, thanks' })
      t.match((await console1.next('text-message', { match: (f) => f.data.content === 'Great, thanks' })).data, {
        seq: 8,
        sender: 'customer',
      })
      // a resume point that is no message of the session: said in the hub's terms, joined from now
      const lost = await openSocket(system.url, {}, t)
      lost.send({
        type: 'join',
        data: { session_id: ctx.sessionId, visitor_credential: ctx.credential, after: randomUUID() },
      })
      t.match((await lost.next('error')).data, {
        code: 'REALTIME_RESUME_UNKNOWN_MESSAGE',
        message: /joined from now without history/,
      })
      await Promise.all([thief.sync(), byQuery.sync()])
      t.notOk(
        [...thief.frames, ...byQuery.frames].some((f) => f.type !== 'error' && f.type !== 'pong'),
        'the refused sockets got nothing of the session',
      )
    },
  )

  t.test("a customer's session: its own sockets only, refused to anyone else like a missing one", async (t) => {
    const carol = await kit.customer(scope, 'carol')
    const dave = await kit.customer(scope, 'dave')
    const carolToken = (await login(api, carol.username, carol.password)).token
    const daveToken = (await login(api, dave.username, dave.password)).token

    const carolWs = await openSocket(system.url, { token: carolToken }, t)
    carolWs.send({ type: 'text-message', data: 'Where is my parcel?' })
    const started = await carolWs.next('session')
    const carolSession: string = started.data.session_id
    t.notOk(started.data.visitor, 'a signed-in customer gets no visitor credential')
    const first = await carolWs.next('text-message')
    t.match(first.data, { seq: 1, sender: 'customer', sender_id: carol.user_id })
    const owner = must(await api.get(`/api/omni/sessions/${carolSession}`, kit.svc(scope)), 200, 'carol session')
    t.equal(owner.customer_id, carol.user_id)

    const daveWs = await openSocket(system.url, { token: daveToken }, t)
    daveWs.send({ type: 'join', data: { session_id: carolSession } })
    const foreign = await daveWs.next('error')
    const missingId = randomUUID()
    daveWs.send({ type: 'join', data: { session_id: missingId } })
    const missing = await daveWs.next('error')
    t.equal(foreign.data.code, 'CONVERSATIONS_SESSION_NOT_FOUND', "dave joining carol's session")
    t.equal(template(foreign, carolSession), template(missing, missingId), 'answered like a missing session')
    const daveByQuery = await openSocket(system.url, { token: daveToken, query: { session_id: carolSession } }, t)
    t.match((await daveByQuery.next('error')).data, { code: 'CONVERSATIONS_SESSION_NOT_FOUND' }, 'by ?session_id=')
    // the widget visitor's credential opens its own session, not carol's
    widget.send({ type: 'join', data: { session_id: carolSession, visitor_credential: ctx.credential } })
    t.match(
      (await widget.next('error', { match: (f) => f.data.code === 'CONVERSATIONS_SESSION_NOT_FOUND' })).data,
      { code: 'CONVERSATIONS_SESSION_NOT_FOUND' },
      "a visitor's credential for another session",
    )

    // carol reconnects with ?session_id=&after=: what she missed comes first
    carolWs.send({ type: 'text-message', data: 'Tracking says nothing' })
    await carolWs.next('text-message', { match: (f) => f.data.seq === 2 })
    const back = await openSocket(
      system.url,
      { token: carolToken, query: { session_id: carolSession, after: first.data.message_id } },
      t,
    )
    t.match((await back.next('session')).data, { session_id: carolSession, status: 'active' })
    t.match((await back.next('text-message')).data, { seq: 2, content: 'Tracking says nothing' })
    await Promise.all([daveWs.sync(), daveByQuery.sync(), widget.sync()])
    t.notOk(
      [...daveWs.frames, ...daveByQuery.frames, ...widget.frames].some(
        (f) => f.session_id === carolSession && f.type !== 'error',
      ),
      "nobody else got anything of carol's session",
    )
  })

  t.test('frames off the protocol: an error frame or a close code, never a crash', async (t) => {
    const ws = await openSocket(system.url, {}, t)
    const answers: Array<[string, () => void, string]> = [
      ['not JSON', () => ws.sendRaw('{"type": "text-message", '), 'REALTIME_INVALID_FRAME'],
      ['not a frame', () => ws.sendRaw('[1, 2, 3]'), 'REALTIME_INVALID_FRAME'],
      ['binary', () => ws.sendRaw(Buffer.from([1, 2, 3]), true), 'REALTIME_INVALID_FRAME'],
      ['an unknown type', () => ws.send({ type: 'launch-rockets', data: {} }), 'REALTIME_UNKNOWN_FRAME'],
      ['data off its schema', () => ws.send({ type: 'join', data: { session_id: 42 } }), 'REALTIME_INVALID_FRAME'],
      [
        'typing before any join',
        () => ws.send({ type: 'typing', data: { state: 'start' } }),
        'REALTIME_SESSION_REQUIRED',
      ],
      [
        'a first message without the widget scope',
        () => ws.send({ type: 'text-message', data: 'hi' }),
        'REALTIME_WIDGET_SCOPE_REQUIRED',
      ],
    ]
    for (const [what, act, code] of answers) {
      act()
      t.match((await ws.next('error', { what: `the error of ${what}` })).data, { code, message: String }, what)
    }
    await ws.sync()
    t.ok(ws.isOpen(), 'the socket stays open through all of it')

    // a frame over the hub's limit (under the gateway's): the hub closes with 1009, the gateway relays the code
    const big = await openSocket(system.url, { query: widgetScope }, t)
    big.send({ type: 'text-message', data: 'x'.repeat(HUB_MAX_FRAME_BYTES + 1024) })
    t.equal((await big.closed).code, 1009, 'oversize: 1009')
    // past the frame budget (20 a second): an error frame, then 1008
    const flood = await openSocket(system.url, {}, t)
    for (let i = 0; i < 45; i++) flood.send({ type: 'ping', session_id: `flood-${i}` })
    t.equal((await flood.closed).code, 1008, 'a flood: 1008')
    t.ok(
      flood.errors().some((f) => f.data.code === 'REALTIME_RATE_LIMITED'),
      'told why before the close',
    )

    // the hub lives on: the old sockets talk, and new ones open
    await ws.sync()
    widget.send({ type: 'text-message', session_id: ctx.sessionId, data: 'still there?' })
    t.match((await console1.next('text-message', { match: (f) => f.data.content === 'still there?' })).data, {
      sender: 'customer',
    })
    const fresh = await openSocket(system.url, {}, t)
    await fresh.sync()
    const plain = await api.get('/api/v1/ws')
    t.equal(plain.status, 426, `a plain GET of the socket path: 426 (${plain.text.slice(0, 120)})`)
  })

  t.test('WebRTC: relayed between the visitor and its agent only; the connection state over HTTP', async (t) => {
    const supervisorName = `sup_${kit.suffix}`
    const password = `Pw-${supervisorName}-0123456789`
    must(
      await api.post(
        '/api/security/users',
        { username: supervisorName, email: `${supervisorName}@e2e.example.com`, role: 'supervisor', password },
        kit.svc(scope),
      ),
      201,
      'supervisor',
    )
    const supervisor = await openSocket(system.url, { token: (await login(api, supervisorName, password)).token }, t)
    supervisor.send({ type: 'join', data: { session_id: ctx.sessionId } })
    t.match((await supervisor.next('session')).data, { session_id: ctx.sessionId }, 'a supervisor may join')
    const bobConsole = await openSocket(system.url, { token: bobToken }, t)
    await bobConsole.sync()

    // before any agent has a session, WebRTC has nobody to go to
    const lonely = await openSocket(system.url, { query: widgetScope }, t)
    lonely.send({ type: 'text-message', data: 'Just browsing' })
    await lonely.next('session')
    lonely.send({ type: 'webrtc-offer', data: { type: 'offer', sdp: 'v=0 lonely' } })
    t.match((await lonely.next('error')).data, { code: 'REALTIME_NO_AGENT' }, 'no agent yet')

    widget.send({ type: 'webrtc-offer', session_id: ctx.sessionId, data: { type: 'offer', sdp: 'v=0 offer', x: 1 } })
    const offer = await console1.next('webrtc-offer')
    t.same(
      offer.data,
      { type: 'offer', sdp: 'v=0 offer', from: { kind: 'visitor', id: ctx.visitorId } },
      'the offer reaches the assigned agent, fields beyond the schema dropped',
    )
    t.equal(offer.session_id, ctx.sessionId)
    console1.send({ type: 'webrtc-answer', session_id: ctx.sessionId, data: { type: 'answer', sdp: 'v=0 answer' } })
    t.match((await widget.next('webrtc-answer')).data, {
      sdp: 'v=0 answer',
      from: { kind: 'console', id: alice.user_id },
    })
    const candidate = {
      candidate: 'candidate:1 1 udp 2122260223 10.0.0.1 54400 typ host',
      sdpMid: '0',
      sdpMLineIndex: 0,
    }
    widget.send({ type: 'webrtc-candidate', session_id: ctx.sessionId, data: candidate })
    console1.send({ type: 'webrtc-candidate', session_id: ctx.sessionId, data: { ...candidate, sdpMid: '1' } })
    t.match((await console1.next('webrtc-candidate')).data, { ...candidate, from: { kind: 'visitor' } })
    t.match((await widget.next('webrtc-candidate')).data, { sdpMid: '1', from: { kind: 'console' } })

    // a third party in the session is refused, and hears none of it
    supervisor.send({ type: 'webrtc-offer', session_id: ctx.sessionId, data: { sdp: 'v=0 sneaky' } })
    t.match((await supervisor.next('error')).data, { code: 'REALTIME_NOT_A_PARTICIPANT' }, 'a supervisor')
    bobConsole.send({ type: 'webrtc-offer', session_id: ctx.sessionId, data: { sdp: 'v=0 bob' } })
    t.match((await bobConsole.next('error')).data, { code: 'REALTIME_NOT_JOINED' }, 'an agent not in the session')
    // typing goes to the whole session, after the WebRTC frames on the same stream: once the supervisor has it,
    // any WebRTC frame meant for it would have come before
    widget.send({ type: 'typing', session_id: ctx.sessionId, data: { state: 'start' } })
    await supervisor.next('typing', { match: (f) => f.data.from.kind === 'visitor' })
    await bobConsole.sync()
    const webrtc = (f: Frame) => f.type.startsWith('webrtc-')
    t.notOk(supervisor.frames.some(webrtc), 'the supervisor got no WebRTC frame')
    t.notOk(bobConsole.frames.some(webrtc), 'another agent got none')
    t.notOk(lonely.frames.some(webrtc), 'nor another visitor')
    t.equal(console1.frames.filter((f) => f.type === 'webrtc-offer').length, 1, 'the agent got the offer once')

    // the clients report their states; any replica answers from the shared cache
    widget.send({
      type: 'webrtc-stats',
      session_id: ctx.sessionId,
      data: { connection_state: 'connected', ice_connection_state: 'connected', ice_gathering_state: 'complete' },
    })
    const staff = kit.svc(scope)
    const record = await until('the reported WebRTC state', async () => {
      const r = must(await api.get(`/api/v1/webrtc/stats?session_id=${ctx.sessionId}`, staff), 200, 'webrtc stats')
      return r.connection_state === 'connected' ? r : undefined
    })
    t.match(record, {
      connection_id: String,
      session_id: ctx.sessionId,
      tenant_id: scope.tenant_id,
      workspace_id: scope.workspace_id,
      connection_state: 'connected',
      ice_connection_state: 'connected',
      ice_gathering_state: 'complete',
    })
    t.same(
      [...record.participants].sort((a: any, b: any) => a.kind.localeCompare(b.kind)),
      [
        { kind: 'console', id: alice.user_id },
        { kind: 'visitor', id: ctx.visitorId },
      ],
      'the two participants, and nobody else',
    )
    const list = must(await api.get('/api/v1/webrtc/connections', staff), 200, 'connections')
    t.match(list, { count: 1, items: [{ session_id: ctx.sessionId, connection_id: record.connection_id }] })
    t.match(must(await api.get('/api/v1/webrtc/stats', staff), 200, 'count'), { connection_count: 1, scope })
    isError(
      t,
      await api.get(`/api/v1/webrtc/stats?session_id=${ctx.sessionId}`, kit.svc(kit.freshScope('rtother'))),
      404,
      'REALTIME_CONNECTION_NOT_FOUND',
      "another tenant's caller",
    )

    // the call ends; a new offer starts another connection
    console1.send({ type: 'webrtc-stats', session_id: ctx.sessionId, data: { connection_state: 'closed' } })
    await until('the closed state', async () => {
      const r = await api.get(`/api/v1/webrtc/stats?session_id=${ctx.sessionId}`, staff)
      return r.body.connection_state === 'closed' ? r : undefined
    })
    widget.send({ type: 'webrtc-offer', session_id: ctx.sessionId, data: { sdp: 'v=0 again' } })
    await console1.next('webrtc-offer', { match: (f) => f.data.sdp === 'v=0 again' })
    const next = await until('a new connection', async () => {
      const r = await api.get(`/api/v1/webrtc/stats?session_id=${ctx.sessionId}`, staff)
      return r.body.connection_id !== record.connection_id ? r.body : undefined
    })
    t.match(next, { connection_state: 'new', ice_connection_state: 'new' }, 'a fresh connection record')
  })
})
