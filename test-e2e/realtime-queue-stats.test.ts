// The realtime hub's queue notifications and socket stats end to end through the gateway, in both run modes: a
// visitor's transfer-request with nobody online waits (waiting_notification to the widget and the scope's consoles)
// until an agent comes online; `/api/v1/ws/stats` counts sockets by kind in the caller's scope, on this replica and
// across the cluster. The conversation itself: realtime.test.ts.
import { login } from './harness/auth.ts'
import { conversationsKit, must } from './harness/conversations-kit.ts'
import { until } from './harness/http.ts'
import { isError } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'
import { openSocket, range } from './harness/realtime-kit.ts'

const env = { HUB_STATS_INTERVAL_MS: '500' }

inEachMode('realtime: queue notifications and socket stats through the gateway', { env }, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api } = kit

  t.test('a transfer-request with nobody online waits in the queue; the agent coming online takes it', async (t) => {
    const queueScope = kit.freshScope('rtqueue')
    const dan = await kit.agent(queueScope, 'dan')
    const danConsole = await openSocket(system.url, { token: (await kit.agentLogin(dan)).token }, t)
    await danConsole.sync()
    const visitor = await openSocket(system.url, { query: { ...queueScope } }, t)
    visitor.send({ type: 'text-message', data: 'Hello there' })
    const sessionId: string = (await visitor.next('session')).data.session_id
    t.match((await visitor.next('text-message')).data, { seq: 1 }, 'no handoff word: the AI keeps it')
    visitor.send({ type: 'transfer-request', data: { reason: 'a billing question' } })
    const waiting = await visitor.next('waiting_notification')
    t.match(waiting, {
      session_id: sessionId,
      data: { status: 'waiting', position: 1, waiting_id: String, message: /number 1 in the queue/ },
    })
    const queued = await danConsole.next('waiting_notification')
    t.match(queued, { session_id: sessionId, data: { status: 'waiting', waiting_id: waiting.data.waiting_id } })
    t.equal(queued.data.position, 1, "the scope's consoles see the queue, even an offline agent's")

    await kit.setStatus(queueScope, dan, 'online')
    const taken = await visitor.next('transfer_notification')
    t.match(taken.data, { event: 'transferred', agent_id: dan.user_id }, 'the agent coming online takes it')
    await danConsole.next('transfer_notification', {
      match: (f) => f.session_id === sessionId && f.data.event === 'transferred',
      what: 'the hand-over on the console',
    })
    danConsole.send({ type: 'text-message', session_id: sessionId, data: 'Dan here, about your bill' })
    t.match((await visitor.next('agent-message')).data, { sender_id: dan.user_id, content: /about your bill/ })
    await visitor.sync()
    const seqs = visitor.seqs(sessionId)
    t.same(seqs, range(1, seqs.length), 'every message of the session once, in order')
  })

  t.test('socket stats in the caller scope: this replica, and the cluster', async (t) => {
    const statsScope = kit.freshScope('rtstats')
    const carl = await kit.agent(statsScope, 'carl')
    const cust = await kit.customer(statsScope, 'erin')
    const asStaff = kit.svc(statsScope)
    const stats = async (q = '', as = asStaff) => must(await api.get(`/api/v1/ws/stats${q}`, as), 200, 'ws stats')
    const expectCounts = (q: string, want: Record<string, unknown>) =>
      until(`ws stats${q} = ${JSON.stringify(want)}`, async () => {
        const s = await stats(q)
        const got = { connected_clients: s.connected_clients, by_kind: s.by_kind, sessions: s.sessions_with_sockets }
        return JSON.stringify(got) === JSON.stringify(want) ? s : undefined
      })
    const empty = {
      connected_clients: 0,
      by_kind: { visitor: 0, customer: 0, console: 0, service: 0 },
      sessions: 0,
    }
    t.match(await expectCounts('', empty), { replica: String }, 'nothing yet in a fresh workspace')

    const v1 = await openSocket(system.url, { query: { ...statsScope } }, t)
    const v2 = await openSocket(system.url, { query: { ...statsScope } }, t)
    const custToken = (await login(api, cust.username, cust.password)).token
    const carlToken = (await kit.agentLogin(carl)).token
    const c1 = await openSocket(system.url, { token: custToken }, t)
    const a1 = await openSocket(system.url, { token: carlToken }, t)
    v1.send({ type: 'text-message', data: 'counting' })
    await v1.next('session')
    await Promise.all([v2.sync(), c1.sync(), a1.sync()])
    const want = { connected_clients: 4, by_kind: { visitor: 2, customer: 1, console: 1, service: 0 }, sessions: 1 }
    const replica = await expectCounts('', want)
    t.match(replica, { replica: String }, `this replica's sockets in the scope: ${JSON.stringify(want)}`)
    const cluster = await expectCounts('?scope=cluster', want)
    t.ok(Array.isArray(cluster.replicas) && cluster.replicas.length >= 1, 'each live replica listed')
    t.equal(
      cluster.replicas.reduce((n: number, r: any) => n + r.connected_clients, 0),
      4,
      'the cluster sum is the sum of the replicas',
    )
    t.match(cluster.replicas[0], { replica: String, updated_at: String, by_kind: Object })

    // another workspace's caller sees none of them; only staff with every permission read the stats
    const other = await stats('', kit.svc(kit.freshScope('rtother')))
    t.equal(other.connected_clients, 0, "another tenant's caller counts none of them")
    isError(t, await api.get('/api/v1/ws/stats?scope=galaxy', asStaff), 400, undefined, 'a scope off the schema')
    const asCarl = await stats('', { token: carlToken })
    t.match(asCarl, { connected_clients: 4, by_kind: want.by_kind }, "the workspace's agent reads the same counts")
    isError(
      t,
      await api.get('/api/v1/ws/stats', { token: custToken }),
      403,
      'PRINCIPAL_KIND_FORBIDDEN',
      'a customer may not',
    )

    for (const s of [v1, v2, c1, a1]) s.close()
    const after = await expectCounts('?scope=cluster', empty)
    t.equal(after.connected_clients, 0, 'closed sockets leave the counts')
  })
})
