import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { admin, agent, headersOf, hubFixture, service } from '../helpers/hub.ts'
import { open } from '../helpers/socket.ts'

const WIDGET = { tenant_id: 'acme', workspace_id: 'support' }
const WEBRTC = ['webrtc-offer', 'webrtc-answer', 'webrtc-candidate']

inEachStorageMode(t, 'two hub replicas on one bus and cache', async (t, mode) => {
  const fx = await hubFixture(t, mode, { replicas: 2 })
  await fx.seedAgent('agent-1')
  const [a, b] = fx.hubs as [(typeof fx.hubs)[0], (typeof fx.hubs)[0]]

  const visitor = await open(t, a.url, { query: WIDGET })
  const console1 = await open(t, b.url, { principal: agent('agent-1') })
  visitor.send({ type: 'text-message', data: 'Hi from replica A' })
  const sessionId: string = (await visitor.take((f) => f.type === 'session', 'session')).data.session_id
  await visitor.take((f) => f.type === 'text-message', 'echo')
  const assigned = await fx.call(agent('agent-1'), 'POST', `/api/omni/sessions/${sessionId}/assign`, {
    agent_id: 'agent-1',
  })
  t.equal(assigned.status, 200)
  await console1.take((f) => f.type === 'transfer_notification', 'assignment on replica B')
  // the visitor's replica learns the agent from the same events (WebRTC needs it)
  await visitor.take((f) => f.type === 'transfer_notification', 'assignment on replica A')

  // a third socket in the session: a monitoring service on replica B (it sees messages, never WebRTC)
  const monitor = await open(t, b.url, { principal: service('monitor') })
  monitor.send({ type: 'join', data: { session_id: sessionId } })
  t.match((await monitor.take((f) => f.type === 'session', 'session')).data, { session_id: sessionId })

  // another visitor on replica A, in a session of its own
  const outsiderA = await open(t, a.url, { query: WIDGET })
  outsiderA.send({ type: 'text-message', data: 'unrelated' })
  await outsiderA.take((f) => f.type === 'session', 'session')

  await t.test('messages both ways across replicas', async (t) => {
    visitor.send({ type: 'text-message', data: 'A → B' })
    const atB = await console1.take((f) => f.type === 'text-message', 'visitor message on B')
    t.match(atB, { session_id: sessionId, data: { content: 'A → B', sender: 'customer' } })
    await monitor.take((f) => f.type === 'text-message' && f.data.content === 'A → B', 'at the monitor')
    console1.send({ type: 'text-message', session_id: sessionId, data: 'B → A' })
    const atA = await visitor.take((f) => f.type === 'agent-message', 'agent message on A')
    t.match(atA.data, { content: 'B → A', sender_id: 'agent-1' })
  })

  await t.test('typing and read receipts are relayed, not stored', async (t) => {
    visitor.send({ type: 'typing', data: { state: 'start' } })
    const typing = await console1.take((f) => f.type === 'typing', 'typing on B')
    t.match(typing, { session_id: sessionId, data: { state: 'start', from: { kind: 'visitor', id: String } } })
    console1.send({ type: 'typing', session_id: sessionId, data: { state: 'stop' } })
    const back = await visitor.take((f) => f.type === 'typing', 'typing on A')
    t.match(back.data, { state: 'stop', from: { kind: 'console', id: 'agent-1' } })
    const last = console1.frames.filter((f) => f.type === 'agent-message').at(-1)!
    visitor.send({ type: 'read', data: { message_id: last.data.message_id } })
    t.match((await console1.take((f) => f.type === 'read', 'read on B')).data, { message_id: last.data.message_id })
    await visitor.sync()
    t.notOk(
      visitor.frames.some((f) => f.type === 'typing' && f.data.from.kind === 'visitor'),
      'nobody gets their own typing back',
    )
    const listed = await fx.call(agent('agent-1'), 'GET', `/api/omni/sessions/${sessionId}/messages`)
    t.notOk(
      listed.body.items.some((m: { content: string }) => /typing|start|stop/.test(m.content)),
      'no message was stored',
    )
  })

  await t.test('WebRTC signalling between the visitor (A) and its agent (B), never to a third socket', async (t) => {
    visitor.send({ type: 'webrtc-offer', data: { type: 'offer', sdp: 'v=0 offer' } })
    const offer = await console1.take((f) => f.type === 'webrtc-offer', 'offer on B')
    t.match(offer, { session_id: sessionId, data: { sdp: 'v=0 offer', from: { kind: 'visitor' } } })
    console1.send({ type: 'webrtc-answer', session_id: sessionId, data: { type: 'answer', sdp: 'v=0 answer' } })
    const answer = await visitor.take((f) => f.type === 'webrtc-answer', 'answer on A')
    t.match(answer.data, { sdp: 'v=0 answer', from: { kind: 'console', id: 'agent-1' } })
    const candidate = {
      candidate: 'candidate:1 1 udp 2122260223 10.0.0.1 54400 typ host',
      sdpMid: '0',
      sdpMLineIndex: 0,
    }
    visitor.send({ type: 'webrtc-candidate', data: candidate })
    console1.send({ type: 'webrtc-candidate', session_id: sessionId, data: { ...candidate, sdpMid: '1' } })
    t.match((await console1.take((f) => f.type === 'webrtc-candidate', 'candidate on B')).data, { sdpMid: '0' })
    t.match((await visitor.take((f) => f.type === 'webrtc-candidate', 'candidate on A')).data, { sdpMid: '1' })

    // The monitor may not signal, and hears nothing of it. Barrier: the agent's typing, published after the
    // signals arrived, reaches the monitor after them (one stream, delivered in order by every replica).
    monitor.send({ type: 'webrtc-offer', session_id: sessionId, data: { sdp: 'v=0 sneaky' } })
    t.equal((await monitor.take((f) => f.type === 'error', 'error')).data.code, 'REALTIME_NOT_A_PARTICIPANT')
    console1.send({ type: 'typing', session_id: sessionId, data: { state: 'start' } })
    await monitor.take((f) => f.type === 'typing' && f.data.from.id === 'agent-1', 'typing at the monitor')
    await visitor.take((f) => f.type === 'typing' && f.data.state === 'start', 'typing at the visitor')
    await outsiderA.sync()
    for (const [name, s] of [
      ['the monitor', monitor],
      ['another visitor', outsiderA],
    ] as const) {
      t.notOk(
        s.frames.some((f) => WEBRTC.includes(f.type)),
        `${name} got no WebRTC frame`,
      )
    }
    t.equal(
      visitor.frames.filter((f) => f.type === 'webrtc-offer').length,
      0,
      'the offerer does not get its offer back',
    )
  })

  await t.test('connection state, from the signals and the reports, answered by either replica', async (t) => {
    const staff = await headersOf(agent('agent-1'))
    const stats = async (app: typeof a.app, query = `?session_id=${sessionId}`, headers = staff) => {
      const res = await app.inject({ method: 'GET', url: `/api/v1/webrtc/stats${query}`, headers })
      return { status: res.statusCode, body: res.json() }
    }
    const first = await stats(a.app)
    t.equal(first.status, 200)
    t.match(first.body, {
      connection_id: String,
      session_id: sessionId,
      tenant_id: 'acme',
      workspace_id: 'support',
      connection_state: 'connecting',
      ice_connection_state: 'checking',
      ice_gathering_state: 'gathering',
      created_at: String,
    })
    t.same(first.body.participants.map((p: { kind: string }) => p.kind).sort(), ['console', 'visitor'])

    visitor.send({
      type: 'webrtc-stats',
      data: { connection_state: 'connected', ice_connection_state: 'connected', ice_gathering_state: 'complete' },
    })
    const after = await waitFor(async () => {
      const r = await stats(b.app)
      return r.body.connection_state === 'connected' ? r : undefined
    })
    t.match(after.body, {
      connection_id: first.body.connection_id,
      ice_connection_state: 'connected',
      ice_gathering_state: 'complete',
    })
    t.match((await stats(b.app, '')).body, {
      connection_count: 1,
      scope: { tenant_id: 'acme', workspace_id: 'support' },
    })
    const listed = await b.app.inject({ method: 'GET', url: '/api/v1/webrtc/connections', headers: staff })
    t.match(listed.json(), { count: 1, items: [{ session_id: sessionId, connection_state: 'connected' }] })

    const globex = await headersOf(agent('g-1', { tenant_id: 'globex' }))
    t.equal((await stats(a.app, `?session_id=${sessionId}`, globex)).status, 404, "another tenant's: not found")
    t.match((await stats(a.app, '', globex)).body, { connection_count: 0 })
    const none = await a.app.inject({ method: 'GET', url: '/api/v1/webrtc/connections', headers: globex })
    t.same(none.json(), { count: 0, items: [] })
    t.equal((await stats(a.app, '?session_id=nope')).status, 404)
    const platform = await headersOf(admin({ tenant_id: '', workspace_id: '' }))
    t.match((await stats(a.app, '', platform)).body, { connection_count: 1 })
  })

  await t.test('socket stats per replica, and summed over the cluster', async (t) => {
    const staff = await headersOf(agent('agent-1'))
    const get = async (app: typeof a.app, query = '') =>
      (await app.inject({ method: 'GET', url: `/api/v1/ws/stats${query}`, headers: staff })).json()
    const onA = await get(a.app)
    t.match(onA, { replica: a.svc.hub.replica, by_kind: { visitor: 2, console: 0, service: 0 } })
    t.equal(onA.connected_clients, 2)
    t.equal(onA.sessions_with_sockets, 2, "the visitors' two sessions")
    const onB = await get(b.app)
    t.match(onB, { replica: b.svc.hub.replica, connected_clients: 2, by_kind: { console: 1, service: 1 } })
    const cluster = await waitFor(async () => {
      const c = await get(a.app, '?scope=cluster')
      return c.connected_clients === 4 ? c : undefined
    })
    t.match(cluster, { by_kind: { visitor: 2, customer: 0, console: 1, service: 1 }, replica: a.svc.hub.replica })
    t.same(
      cluster.replicas.map((r: { replica: string }) => r.replica).sort(),
      [a.svc.hub.replica, b.svc.hub.replica].sort(),
    )
    const globex = await headersOf(agent('g-1', { tenant_id: 'globex' }))
    const theirs = (
      await a.app.inject({ method: 'GET', url: '/api/v1/ws/stats?scope=cluster', headers: globex })
    ).json()
    t.match(theirs, { connected_clients: 0, sessions_with_sockets: 0 }, "another tenant's staff count none of these")
  })
})
