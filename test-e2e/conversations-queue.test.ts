// The waiting queue and shifts end to end through the gateway, in both run modes: a session no agent can take
// waits with its position, leaves the queue on cancel (twice is no change), is handed to an agent who comes
// online; shifts decide who routing may pick, and process-queue assigns what the schedule just allowed.
import { conversationsKit, must, type Scope } from './harness/conversations-kit.ts'
import { until } from './harness/http.ts'
import { isError } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'

// The timer pass (every 5 s by default) would race the explicit process-queue calls; changes still kick passes.
const env = { QUEUE_INTERVAL_MS: '3600000' }
const HOUR = 3_600_000
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString()

inEachMode('conversations: the waiting queue and shifts', { env }, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api } = kit

  /** A customer's session asking for a human: the to-human answer. */
  async function askForHuman(scope: Scope, text: string, body: Record<string, unknown> = {}) {
    const customer = await kit.customer(scope, 'queuer')
    const { session } = await kit.hub(scope).open(text, customer.user_id)
    const r = await api.post('/api/session-transfer/to-human', { session_id: session.id, ...body }, kit.svc(scope))
    return must(r, 200, 'to-human')
  }

  t.test('waiting with a position, cancel (idempotent), and an agent coming online takes the next', async (t) => {
    const scope = kit.freshScope('cvqueue')
    const staff = kit.svc(scope)
    const erin = await kit.agent(scope, 'erin', { max_concurrent: 1, online: true })
    await kit.onlineAgents(scope, 1)
    const taken = await askForHuman(scope, 'first in')
    t.equal(taken.new_agent_id, erin.user_id, 'the one seat is taken')

    const second = await askForHuman(scope, 'second')
    t.match(second, { is_waiting: true, new_agent_id: null, queue_position: 1, waiting_id: String })
    const third = await askForHuman(scope, 'third')
    t.match(third, { is_waiting: true, queue_position: 2 })
    const again = must(
      await api.post('/api/session-transfer/to-human', { session_id: third.session_id }, staff),
      200,
      'to-human twice',
    )
    t.match(again, { is_waiting: true, waiting_id: third.waiting_id, queue_position: 2 }, 'asking twice: no change')

    const waiting = must(await api.get('/api/session-transfer/waiting', staff), 200, 'waiting list')
    t.same(
      waiting.items.map((w: any) => [w.session_id, w.queue_position]),
      [
        [second.session_id, 1],
        [third.session_id, 2],
      ],
      'in queue order, with positions',
    )
    const session = must(await api.get(`/api/omni/sessions/${third.session_id}`, staff), 200, 'waiting session')
    t.match(session, { status: 'waiting_human', agent_id: null, queue_position: 2 })
    const overview = must(await api.get('/api/omni/workspace', staff), 200, 'overview')
    t.match(overview, { waiting_queue: 2, online_agents: 1, busy_agents: 1 }, 'erin counts as busy at capacity')

    const cancel = () => api.post('/api/session-transfer/cancel', { session_id: second.session_id }, staff)
    t.same(must(await cancel(), 200, 'cancel'), { session_id: second.session_id, cancelled: true })
    t.same(must(await cancel(), 200, 'cancel again'), { session_id: second.session_id, cancelled: false })
    const left = must(await api.get(`/api/omni/sessions/${second.session_id}`, staff), 200, 'cancelled session')
    t.match(left, { status: 'active', agent_id: null, queue_position: null }, 'back to the AI')
    const after = must(await api.get('/api/session-transfer/waiting', staff), 200, 'waiting after cancel')
    t.same(
      after.items.map((w: any) => [w.session_id, w.queue_position]),
      [[third.session_id, 1]],
      'the next one moves up',
    )

    // An agent coming online kicks a pass on its own; the explicit one may find it done. Either way: one hand-over.
    // On two replicas the kicked pass may still be committing while the explicit one counts what remains (the row it
    // skips as locked still waits then), so "nobody waits" is read from the queue once the passes are done.
    const frank = await kit.agent(scope, 'frank')
    await kit.setStatus(scope, frank, 'online')
    await kit.onlineAgents(scope, 2)
    const pass = must(await api.post('/api/session-transfer/process-queue', undefined, staff), 200, 'process-queue')
    t.ok(pass.assigned <= 1, `the explicit pass assigned ${pass.assigned}`)
    const emptied = await until('the queue emptied', async () => {
      const w = must(await api.get('/api/session-transfer/waiting', staff), 200, 'waiting after the passes')
      return w.items.length === 0 ? w.items : undefined
    })
    t.same(emptied, [], 'nobody waits any more')
    const handed = must(await api.get(`/api/omni/sessions/${third.session_id}`, staff), 200, 'handed session')
    t.match(handed, { status: 'transferred', agent_id: frank.user_id })
    const history = must(await api.get(`/api/session-transfer/history/${third.session_id}`, staff), 200, 'history')
    t.same(
      history.items.map((h: any) => [h.kind, h.to_agent_id]),
      [['queue', frank.user_id]],
      'exactly one hand-over, from the queue',
    )
    const done = must(await api.get('/api/session-transfer/waiting?status=transferred', staff), 200, 'transferred')
    t.match(done.items, [{ session_id: third.session_id, assigned_to: frank.user_id }])
  })

  t.test('shifts limit routing; process-queue assigns what a new shift allows', async (t) => {
    const scope = kit.freshScope('cvshift')
    const staff = kit.svc(scope)
    // gina has the skill asked for, so routing prefers her whenever she may be picked.
    const gina = await kit.agent(scope, 'gina', { skills: ['billing'], online: true })
    const hank = await kit.agent(scope, 'hank', { online: true })
    await kit.onlineAgents(scope, 2)
    const billing = { target_skills: ['billing'] }
    const free = await askForHuman(scope, 'no shifts yet', billing)
    t.equal(free.new_agent_id, gina.user_id, 'without shifts: the better match')

    const hankShift = must(
      await api.post(
        '/api/shifts',
        { agent_id: hank.user_id, shift_type: 'morning', start_time: at(-HOUR), end_time: at(HOUR) },
        staff,
      ),
      201,
      'shift for hank',
    )
    t.match(hankShift, { agent_id: hank.user_id, status: 'scheduled', tenant_id: scope.tenant_id })
    const onShift = await askForHuman(scope, 'hank is on shift', billing)
    t.equal(onShift.new_agent_id, hank.user_id, 'with shifts: only the agent on shift, though gina matches better')

    // hank's shift over: the workspace still schedules shifts, nobody is on one, so the session waits.
    const ended = must(await api.put(`/api/shifts/${hankShift.id}`, { status: 'completed' }, staff), 200, 'end shift')
    t.equal(ended.status, 'completed')
    const between = await askForHuman(scope, 'between shifts', billing)
    t.match(between, { is_waiting: true, queue_position: 1 }, 'two online agents, neither on shift')

    // A shift changes no session by itself (it kicks no pass): the explicit pass routes the waiting one.
    const ginaShift = must(
      await api.post(
        '/api/shifts',
        { agent_id: gina.user_id, shift_type: 'afternoon', start_time: at(-HOUR), end_time: at(2 * HOUR) },
        staff,
      ),
      201,
      'shift for gina',
    )
    // The timer pass of some replica may hold the record at this instant (claimed with SKIP LOCKED): the explicit
    // pass then assigns nothing and still counts it waiting; whichever pass wins, exactly one routes it to gina.
    const pass = must(await api.post('/api/session-transfer/process-queue', undefined, staff), 200, 'process-queue')
    t.ok(pass.assigned <= 1 && pass.assigned + pass.remaining <= 1, `the explicit pass: ${JSON.stringify(pass)}`)
    const routed = await until('the waiting session routed', async () => {
      const s = must(await api.get(`/api/omni/sessions/${between.session_id}`, staff), 200, 'routed session')
      return s.status === 'transferred' ? s : undefined
    })
    t.match(routed, { status: 'transferred', agent_id: gina.user_id })
    const handovers = must(await api.get(`/api/session-transfer/history/${between.session_id}`, staff), 200, 'history')
    t.same(
      handovers.items.map((h: any) => [h.kind, h.to_agent_id]),
      [['queue', gina.user_id]],
      'exactly one hand-over, from the queue',
    )

    const list = must(await api.get(`/api/shifts?agent_id=${gina.user_id}`, staff), 200, 'shift list')
    t.same(
      list.data.map((s: any) => s.id),
      [ginaShift.id],
      'the agent filter',
    )
    const stats = must(await api.get('/api/shifts/stats', staff), 200, 'shift stats')
    t.match(stats, { total: 2, by_status: { scheduled: 1, completed: 1 } })
    const gone = await api.call('DELETE', `/api/shifts/${ginaShift.id}`, staff)
    t.equal(gone.status, 204, gone.text)
    isError(t, await api.get(`/api/shifts/${ginaShift.id}`, staff), 404, 'CONVERSATIONS_SHIFT_NOT_FOUND')
  })
})
