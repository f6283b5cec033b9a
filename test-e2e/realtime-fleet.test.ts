// The realtime hub across replicas, in the fleet only (the embedded default has one hub): two replicas of each
// service it needs (identity, conversations, realtime-voice) and two gateways, real processes. A widget through
// gateway A and the agent's console through gateway B sit on different hub replicas (found through the cluster
// stats): messages both ways, WebRTC relayed between them and to nobody else, the connection state answered alike
// by every replica. Then the widget's replica is killed -9 mid-conversation while the agent keeps writing: the
// widget and the agent's console on that replica reconnect through their gateways and resume from the last message
// they saw — no message lost, none doubled.
import t from 'tap'
import { login } from './harness/auth.ts'
import { conversationsKit, hubClient, must } from './harness/conversations-kit.ts'
import { client, until } from './harness/http.ts'
import { selectedModes } from './harness/modes.ts'
import {
  type Frame,
  isMessage,
  oneTo,
  openSocket,
  type RealtimeSocket,
  range,
  reconnectSocket,
  type SocketOptions,
} from './harness/realtime-kit.ts'
import { startSystem } from './harness/system.ts'

type Kind = 'visitor' | 'customer' | 'console' | 'service'

// Frequent stats snapshots: the cluster stats say which replica a socket landed on within a second.
const env = { HUB_STATS_INTERVAL_MS: '300' }

// E2E_MODES=embedded narrows a local run: this file then has nothing to run
const skip = selectedModes().includes('fleet') ? false : 'E2E_MODES leaves the fleet out'

t.test('realtime across two hub replicas and two gateways [fleet]', { skip }, async (t) => {
  const started = Date.now()
  const system = await startSystem('fleet', { env, replicas: 2, gatewayReplicas: 2, without: ['tickets', 'audit'] })
  t.teardown(() => system.close())
  t.comment(`fleet of 2 replicas per service and 2 gateways ready in ${Date.now() - started} ms`)
  const [gatewayA, gatewayB] = system.gatewayUrls as [string, string]
  t.equal(system.gatewayUrls.length, 2, 'two gateways')
  const hubUrls = system.serviceUrls['realtime-voice']!
  t.equal(hubUrls.length, 2, 'two hub replicas')

  const kit = await conversationsKit(system)
  const scope = kit.freshScope('rtfleet')
  const widgetScope = { tenant_id: scope.tenant_id, workspace_id: scope.workspace_id }
  const staff = kit.svc(scope)
  const alice = await kit.agent(scope, 'alice', { online: true })
  await kit.onlineAgents(scope, 1)
  const aliceToken = (await kit.agentLogin(alice)).token
  // Stats are read through gateway B only: the round robin of gateway A (the widget's) then moves only when a
  // widget opens, so a second try lands on the other replica.
  const apiA = client(gatewayA)
  const apiB = client(gatewayB)

  // Each replica's own id (what the stats call it), asked of the replica itself, to know which process to kill.
  const replicaIds: string[] = []
  for (const url of hubUrls) {
    const r = await hubClient(url, system.env.INTERNAL_SECRET!, scope).get('/api/v1/ws/stats')
    replicaIds.push(must(r, 200, `stats of ${url}`).replica)
  }
  t.equal(new Set(replicaIds).size, 2, 'two replicas, two ids')

  /**
   * Sockets of `kind` in the scope on each live replica, once `replicas` replicas are in the cluster stats with
   * counts taken after `since`: the replica answering counts its own now, the others' are as they last published
   * them (every 300 ms here), and an older snapshot could show a socket that is gone.
   */
  const perReplica = (kind: Kind, replicas = 2, since = Date.now()) =>
    until(`${replicas} replicas in the cluster stats`, async () => {
      const s = must(await apiB.get('/api/v1/ws/stats?scope=cluster', staff), 200, 'cluster stats')
      if (s.replicas.length !== replicas) return undefined
      if (s.replicas.some((r: any) => Date.parse(r.updated_at) < since)) return undefined
      return new Map<string, number>(s.replicas.map((r: any) => [r.replica, r.by_kind[kind]]))
    })
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0)

  /**
   * Opens a socket until it lands on a replica `accept` takes (the gateway's round robin decides; the cluster
   * stats tell where the new socket is counted). A socket on the wrong replica is closed before the next try.
   */
  async function landOn(
    kind: Kind,
    gateway: string,
    opts: SocketOptions,
    accept: (replica: string) => boolean,
    what: string,
  ): Promise<{ socket: RealtimeSocket; replica: string }> {
    for (let attempt = 1; attempt <= 6; attempt++) {
      const before = await perReplica(kind)
      const socket = await openSocket(gateway, opts, t)
      let seen = before
      const replica = await until(
        `${what} in the stats (${kind} per replica before: ${JSON.stringify([...before])})`,
        async () => {
          const now = await perReplica(kind)
          seen = now
          if (total(now) !== total(before) + 1) return undefined
          return [...now].find(([r, n]) => n === (before.get(r) ?? 0) + 1)?.[0]
        },
      ).catch((err) => {
        throw new Error(`${err.message}; last seen: ${JSON.stringify([...seen])}`)
      })
      if (accept(replica)) return { socket, replica }
      socket.ws.terminate()
      await until(`${what} gone from the stats`, async () => {
        const now = await perReplica(kind)
        return total(now) === total(before) ? now : undefined
      })
    }
    throw new Error(`${what}: never landed where wanted in 6 tries`)
  }

  const ctx = { sessionId: '', credential: '', visitorId: '', widgetReplica: '', consoleReplica: '' }
  let widget: RealtimeSocket
  let console1: RealtimeSocket
  const listed = async () =>
    must(await apiA.get(`/api/omni/sessions/${ctx.sessionId}/messages?limit=200`, staff), 200, 'messages')
      .items as Array<{ id: string; sender: string; content: string }>

  t.test('widget on gateway A, console on gateway B, on different hub replicas: messages both ways', async (t) => {
    const c = await landOn('console', gatewayB, { token: aliceToken, via: 'protocol' }, () => true, 'the console')
    console1 = c.socket
    ctx.consoleReplica = c.replica
    const w = await landOn('visitor', gatewayA, { query: widgetScope }, (r) => r !== ctx.consoleReplica, 'the widget')
    widget = w.socket
    ctx.widgetReplica = w.replica
    t.not(ctx.widgetReplica, ctx.consoleReplica, 'the widget and the console are on different hub replicas')
    t.ok(replicaIds.includes(ctx.widgetReplica) && replicaIds.includes(ctx.consoleReplica))

    widget.send({ type: 'text-message', data: 'Hello, can a human help me?' })
    const session = await widget.next('session')
    ctx.sessionId = session.data.session_id
    ctx.credential = session.data.visitor.credential
    ctx.visitorId = session.data.visitor.visitor_id
    const handed = await console1.next('transfer_notification', { match: (f) => f.session_id === ctx.sessionId })
    t.match(handed.data, { event: 'transferred', agent_id: alice.user_id }, 'the console (other replica) gets it')
    t.match((await console1.next('system')).data, { seq: 2, content: /handed over/ })

    widget.send({ type: 'text-message', data: 'From replica A' })
    t.match((await console1.next('text-message')).data, { seq: 3, content: 'From replica A', sender: 'customer' })
    console1.send({ type: 'text-message', session_id: ctx.sessionId, data: 'From replica B' })
    t.match((await widget.next('agent-message')).data, { seq: 4, content: 'From replica B' })
    const viaHttp = await apiA.post(
      `/api/omni/sessions/${ctx.sessionId}/messages`,
      { content: 'Over HTTP, through gateway A' },
      { token: aliceToken },
    )
    t.equal(viaHttp.status, 201, viaHttp.text)
    t.match((await widget.next('agent-message')).data, { seq: 5, message_id: viaHttp.body.id })
    t.match((await console1.next('agent-message', { match: (f) => f.data.seq === 5 })).data, {
      message_id: viaHttp.body.id,
    })
    await widget.sync()
    t.same(widget.seqs(ctx.sessionId), oneTo(5), 'the widget: every message once, in order')
  })

  t.test('WebRTC across replicas, never to a third party; its state answered by either gateway', async (t) => {
    const name = `sup_${kit.suffix}`
    const password = `Pw-${name}-0123456789`
    const body = { username: name, email: `${name}@e2e.example.com`, role: 'supervisor', password }
    must(await apiA.post('/api/security/users', body, staff), 201, 'supervisor')
    const supToken = (await login(apiA, name, password)).token
    // the third party sits on the widget's replica, where the offer comes in
    const { socket: supervisor } = await landOn(
      'console',
      gatewayA,
      { token: supToken },
      (r) => r === ctx.widgetReplica,
      'the supervisor',
    )
    supervisor.send({ type: 'join', data: { session_id: ctx.sessionId } })
    await supervisor.next('session')

    widget.send({ type: 'webrtc-offer', session_id: ctx.sessionId, data: { type: 'offer', sdp: 'v=0 offer' } })
    t.same(
      (await console1.next('webrtc-offer')).data,
      { type: 'offer', sdp: 'v=0 offer', from: { kind: 'visitor', id: ctx.visitorId } },
      'the offer, from the widget replica to the console replica',
    )
    console1.send({ type: 'webrtc-answer', session_id: ctx.sessionId, data: { type: 'answer', sdp: 'v=0 answer' } })
    t.match((await widget.next('webrtc-answer')).data, { sdp: 'v=0 answer', from: { kind: 'console' } })
    const candidate = {
      candidate: 'candidate:1 1 udp 2122260223 10.0.0.1 54400 typ host',
      sdpMid: '0',
      sdpMLineIndex: 0,
    }
    widget.send({ type: 'webrtc-candidate', session_id: ctx.sessionId, data: candidate })
    console1.send({ type: 'webrtc-candidate', session_id: ctx.sessionId, data: { ...candidate, sdpMid: '1' } })
    t.match((await console1.next('webrtc-candidate')).data, { sdpMid: '0', from: { kind: 'visitor' } })
    t.match((await widget.next('webrtc-candidate')).data, { sdpMid: '1', from: { kind: 'console' } })

    supervisor.send({ type: 'webrtc-offer', session_id: ctx.sessionId, data: { sdp: 'v=0 sneaky' } })
    t.match((await supervisor.next('error')).data, { code: 'REALTIME_NOT_A_PARTICIPANT' }, 'a supervisor')
    // barrier: typing from the console, on the same stream after every WebRTC frame, reaches the supervisor
    console1.send({ type: 'typing', session_id: ctx.sessionId, data: { state: 'start' } })
    await supervisor.next('typing', { match: (f) => f.data.from.kind === 'console' })
    await widget.next('typing', { match: (f) => f.data.from.kind === 'console' })
    const webrtc = (f: Frame) => f.type.startsWith('webrtc-')
    t.notOk(supervisor.frames.some(webrtc), 'the supervisor got no WebRTC frame')
    t.equal(widget.frames.filter((f) => f.type === 'webrtc-offer').length, 0, 'the widget not its own offer back')

    // each side reports from its own replica (one after the other: the record is last-writer-wins); both
    // gateways, and so both replicas, answer the same record
    const reported = (want: Record<string, string>) =>
      until(`the WebRTC record with ${JSON.stringify(want)}`, async () => {
        const r = must(await apiB.get(`/api/v1/webrtc/stats?session_id=${ctx.sessionId}`, staff), 200, 'stats')
        return Object.entries(want).every(([k, v]) => r[k] === v) ? r : undefined
      })
    widget.send({
      type: 'webrtc-stats',
      session_id: ctx.sessionId,
      data: { connection_state: 'connected', ice_gathering_state: 'complete' },
    })
    await reported({ connection_state: 'connected' })
    console1.send({ type: 'webrtc-stats', session_id: ctx.sessionId, data: { ice_connection_state: 'completed' } })
    const states = {
      connection_state: 'connected',
      ice_connection_state: 'completed',
      ice_gathering_state: 'complete',
    }
    await reported(states)
    for (const [gw, api] of [
      ['A', apiA],
      ['B', apiB],
    ] as const) {
      const record = must(await api.get(`/api/v1/webrtc/stats?session_id=${ctx.sessionId}`, staff), 200, 'stats')
      t.match(record, { session_id: ctx.sessionId, ...states }, `gateway ${gw}: the states both sides reported`)
      t.same(
        record.participants.map((p: any) => p.kind).sort(),
        ['console', 'visitor'],
        `gateway ${gw}: the two participants`,
      )
      const list = must(await api.get('/api/v1/webrtc/connections', staff), 200, 'connections')
      t.match(list, { count: 1, items: [{ session_id: ctx.sessionId, connection_state: 'connected' }] })
    }
    supervisor.close()
    const consoles = await until('the supervisor gone from the stats', async () => {
      const m = await perReplica('console')
      return total(m) === 1 ? m : undefined
    })
    t.equal(consoles.get(ctx.consoleReplica), 1, "only the agent's console is left")
  })

  t.test("kill -9 the widget's hub replica mid-conversation: reconnect, resume, nothing lost or doubled", async (t) => {
    // a second console of the agent, on the doomed replica: it follows the session from its next frame
    const { socket: console2 } = await landOn(
      'console',
      gatewayB,
      { token: aliceToken },
      (r) => r === ctx.widgetReplica,
      "the agent's second console",
    )
    const warm = await apiB.post(
      `/api/omni/sessions/${ctx.sessionId}/messages`,
      { content: 'Still with you' },
      { token: aliceToken },
    )
    t.equal(warm.status, 201, warm.text)
    await console2.next('agent-message', { match: (f) => f.data.message_id === warm.body.id })
    await widget.next('agent-message', { match: (f) => f.data.message_id === warm.body.id })
    const doomed = replicaIds.indexOf(ctx.widgetReplica)

    // The agent keeps writing over HTTP (conversations, not the hub) while the replica dies under the widget.
    const POSTS = 10
    let posted = 0
    const writer = (async () => {
      for (let i = 1; i <= POSTS; i++) {
        const r = await apiB.post(
          `/api/omni/sessions/${ctx.sessionId}/messages`,
          { content: `Update ${i} of ${POSTS}` },
          { token: aliceToken },
        )
        if (r.status !== 201) throw new Error(`agent post ${i}: ${r.status} ${r.text}`)
        posted = i
        await new Promise((r) => setTimeout(r, 100))
      }
    })()
    await until('a few updates posted', async () => (posted >= 3 ? true : undefined))
    const killedUrl = await system.kill!('realtime-voice', doomed)
    t.comment(`killed realtime-voice.${doomed + 1} (${killedUrl}) after ${posted} of ${POSTS} updates`)
    const [widgetClose, console2Close] = await Promise.all([widget.closed, console2.closed])
    t.equal(widgetClose.code, 1011, 'the widget: the gateway says its upstream was lost (1011)')
    t.equal(console2Close.code, 1011, 'the second console too')
    t.ok(console1.isOpen(), 'the console on the other replica stays connected')

    // what each had before the drop: a gapless run of seqs; it resumes after the last one
    const widgetBefore = widget.messages(ctx.sessionId)
    t.same(
      widgetBefore.map((f) => f.data.seq),
      oneTo(widgetBefore.length),
      'the widget had no gap before the kill',
    )
    const console2Before = console2.messages(ctx.sessionId)
    const c2First = console2Before[0]!.data.seq as number
    t.same(
      console2Before.map((f) => f.data.seq),
      range(c2First, c2First + console2Before.length - 1),
      'the second console had no gap either',
    )

    // and one more while they are away for sure: only a resume can bring it
    const away = await apiB.post(
      `/api/omni/sessions/${ctx.sessionId}/messages`,
      { content: 'While you were away' },
      { token: aliceToken },
    )
    t.equal(away.status, 201, away.text)

    const w = await reconnectSocket(gatewayA, {}, t)
    w.socket.send({
      type: 'join',
      data: {
        session_id: ctx.sessionId,
        visitor_credential: ctx.credential,
        after: widgetBefore.at(-1)!.data.message_id,
      },
    })
    const c2 = await reconnectSocket(gatewayB, { token: aliceToken }, t)
    c2.socket.send({
      type: 'join',
      data: { session_id: ctx.sessionId, after: console2Before.at(-1)!.data.message_id },
    })
    t.comment(
      `reconnects: widget in ${w.attempts} (refused ${JSON.stringify(w.refusals)}), ` +
        `console in ${c2.attempts} (refused ${JSON.stringify(c2.refusals)})`,
    )
    t.match((await w.socket.next('session')).data, { session_id: ctx.sessionId, agent_id: alice.user_id })
    t.match((await c2.socket.next('session')).data, { session_id: ctx.sessionId })
    await writer
    t.equal(posted, POSTS, 'every update was posted')

    // and the conversation goes on, both ways
    w.socket.send({ type: 'text-message', data: 'Back again' })
    await console1.next('text-message', { match: (f) => f.data.content === 'Back again' })
    console1.send({ type: 'text-message', session_id: ctx.sessionId, data: 'Welcome back' })
    const messages = await until('the last message everywhere', async () => {
      const all = await listed()
      const lastId = all.at(-1)!.id
      const everywhere = [w.socket, c2.socket, console1].every((s) =>
        s.frames.some((f) => isMessage(f, ctx.sessionId) && f.data.message_id === lastId),
      )
      return all.at(-1)!.content === 'Welcome back' && everywhere ? all : undefined
    })
    const n = messages.length
    const ids = messages.map((m) => m.id)
    const idsOf = (frames: Frame[]) => frames.map((f) => f.data.message_id)

    for (const [who, s] of [
      ['the widget', w.socket],
      ['the second console', c2.socket],
    ] as const) {
      t.equal(
        s.messages(ctx.sessionId).filter((f) => f.data.message_id === away.body.id).length,
        1,
        `${who} got what was said while it was away, once`,
      )
    }
    const widgetSeqs = [...widgetBefore, ...w.socket.messages(ctx.sessionId)].map((f) => f.data.seq)
    t.same(widgetSeqs, oneTo(n), `the widget, across the drop: seqs 1…${n} exactly once, in order`)
    t.same(idsOf([...widgetBefore, ...w.socket.messages(ctx.sessionId)]), ids, 'the very messages conversations holds')
    const console2Seqs = [...console2Before, ...c2.socket.messages(ctx.sessionId)].map((f) => f.data.seq)
    t.same(console2Seqs, range(c2First, n), `the second console: ${c2First}…${n} exactly once`)
    const console1Seqs = console1.seqs(ctx.sessionId)
    t.same(console1Seqs, range(console1Seqs[0]!, n), 'the surviving console: no gap, no double')
    t.equal(console1Seqs[0], 2, 'from the hand-over on')

    // the dead replica leaves the cluster stats; both gateways still serve the hub
    const live = await perReplica('visitor', 1)
    t.same(
      [...live.keys()],
      replicaIds.filter((r) => r !== ctx.widgetReplica),
      'only the live replica is counted',
    )
    for (const api of [apiA, apiB]) {
      const s = await api.get('/api/v1/ws/stats', staff)
      t.equal(s.status, 200, s.text)
      t.not(s.body.replica, ctx.widgetReplica, 'answered by the live replica')
    }
  })
})
