// The persons and records a request names, end to end in both run modes: a session's customer, the agent of an
// assignment, a transfer or a shift is one of the record's own workspace — another tenant's person gets the very
// answer of an id nobody has (400 naming the field), a customer or agent made a moment before is accepted (the
// projections catch up while the request looks), and conversation management is audited as workspace.*. The same
// for the records other services store: a ticket's session, an AI question's session, a media event's recording.
import { randomUUID } from 'node:crypto'
import type { Test } from 'tap'
import { conversationsKit, must } from './harness/conversations-kit.ts'
import { type Reply, until } from './harness/http.ts'
import { ERROR_KEYS } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'
import { createTicket } from './harness/tickets-kit.ts'

const HOUR = 3_600_000
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi

inEachMode('conversations: the persons a request names', {}, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api } = kit
  const a = kit.freshScope('cvrefa')
  const b = kit.freshScope('cvrefb')
  const asA = kit.svc(a)
  const agentA = await kit.agent(a, 'ada', { online: true })
  const agentB = await kit.agent(b, 'bea', { online: true })
  const customerA = await kit.customer(a, 'acust')
  const customerB = await kit.customer(b, 'bcust')
  await kit.onlineAgents(a, 1)
  await kit.onlineAgents(b, 1)

  /** `call(foreign)` against `call(<an id nobody has>)`: both 400 with the same body, the id aside. */
  async function likeUnknown(
    t: Test,
    label: string,
    call: (ref: string) => Promise<Reply>,
    foreign: string,
    code: string,
  ) {
    const f = await call(foreign)
    const m = await call(randomUUID())
    const shape = (r: Reply) => ({
      status: r.status,
      error: r.body?.error,
      code: r.body?.code,
      message: String(r.body?.message).replace(UUID, '<id>'),
    })
    t.equal(f.status, 400, `${label}: 400 (got ${f.status} ${f.text.slice(0, 160)})`)
    t.same(Object.keys(f.body ?? {}).sort(), ERROR_KEYS, `${label}: error body`)
    t.equal(f.body?.code, code, `${label}: ${code}`)
    t.same(shape(f), shape(m), `${label}: the same answer as an id nobody has`)
    return f
  }

  t.test('a session names a customer of its own workspace', async (t) => {
    const refused = await likeUnknown(
      t,
      'POST /api/omni/sessions customer_id',
      (ref) => api.post('/api/omni/sessions', { customer_id: ref }, asA),
      customerB.user_id,
      'CONVERSATIONS_UNKNOWN_CUSTOMER',
    )
    t.match(refused.body.message, /^body\.customer_id: /, 'names the field')
    const list = must(await api.get(`/api/omni/sessions?customer_id=${customerB.user_id}`, asA), 200, 'list A')
    t.equal(list.total, 0, "no session of A points at B's customer")
    const own = must(await api.post('/api/omni/sessions', { customer_id: customerA.id }, asA), 201, 'by record id')
    t.equal(own.customer_id, customerA.user_id, 'named by its record id, stored by its user id')
  })

  t.test('a customer made a moment before the session is accepted', async (t) => {
    const fresh = await kit.customer(a, 'fresh')
    const s = must(await api.post('/api/omni/sessions', { customer_id: fresh.user_id }, asA), 201, 'fresh customer')
    t.equal(s.customer_id, fresh.user_id)
    const freshAgent = await kit.agent(a, 'newbie')
    const shift = {
      agent_id: freshAgent.id,
      shift_type: 'night',
      start_time: new Date(Date.now() + 48 * HOUR).toISOString(),
      end_time: new Date(Date.now() + 50 * HOUR).toISOString(),
    }
    t.equal(must(await api.post('/api/shifts', shift, asA), 201, 'fresh agent').agent_id, freshAgent.user_id)
  })

  t.test('assignments, transfers and shifts name an agent of the workspace', async (t) => {
    const session = must(await api.post('/api/omni/sessions', { customer_id: customerA.user_id }, asA), 201, 'session')
    const url = `/api/omni/sessions/${session.id}`
    const code = 'CONVERSATIONS_UNKNOWN_AGENT'
    await likeUnknown(t, 'assign', (ref) => api.post(`${url}/assign`, { agent_id: ref }, asA), agentB.user_id, code)
    await likeUnknown(
      t,
      'transfer',
      (ref) => api.post(`${url}/transfer`, { to_agent_id: ref }, asA),
      agentB.user_id,
      code,
    )
    await likeUnknown(
      t,
      'to-agent',
      (ref) => api.post('/api/session-transfer/to-agent', { session_id: session.id, target_agent_id: ref }, asA),
      agentB.user_id,
      code,
    )
    await likeUnknown(
      t,
      'open with an agent',
      (ref) => api.post('/api/omni/sessions', { customer_id: customerA.user_id, agent_id: ref }, asA),
      agentB.id,
      code,
    )
    const shift = (ref: string) => ({
      agent_id: ref,
      shift_type: 'morning',
      start_time: new Date(Date.now() + 24 * HOUR).toISOString(),
      end_time: new Date(Date.now() + 30 * HOUR).toISOString(),
    })
    await likeUnknown(t, 'POST /api/shifts', (ref) => api.post('/api/shifts', shift(ref), asA), agentB.user_id, code)
    const shifts = must(await api.get(`/api/shifts?agent_id=${agentB.user_id}`, asA), 200, 'shifts A')
    t.equal(shifts.total, 0, "no shift of A for B's agent")
    const history = must(await api.get(`/api/session-transfer/history/${session.id}`, asA), 200, 'history')
    t.equal(history.count, 0, 'no hand-over was recorded')

    const taken = must(await api.post(`${url}/assign`, { agent_id: agentA.id }, asA), 200, 'by record id')
    t.equal(taken.agent_id, agentA.user_id, 'named by its record id, assigned by its user id')
    must(await api.post(`${url}/close`, {}, asA), 200, 'close')
    const audited = await until('the assignment audited as workspace.assign', async () => {
      const r = await api.get('/api/audit/logs?action=workspace.assign&limit=200', asA)
      if (r.status !== 200) return undefined
      const mine = r.body.data.filter((x: { resource_id: string }) => x.resource_id === session.id)
      return mine.length >= 3 ? mine : undefined
    })
    t.same(
      audited.map((x: { status_code: number }) => x.status_code).sort(),
      [200, 400, 400],
      'refused and accepted alike',
    )
    t.match(audited[0], { resource_type: 'workspace', tenant_id: a.tenant_id })
    const closed = await until('the close audited as workspace.close', async () => {
      const r = await api.get('/api/audit/logs?action=workspace.close', asA)
      return r.status === 200
        ? r.body.data.find((x: { resource_id: string }) => x.resource_id === session.id)
        : undefined
    })
    t.match(closed, { success: true, route: '/api/omni/sessions/:id/close' })
  })
  t.test("a ticket's session, an AI question's session, a media event's recording: of the workspace", async (t) => {
    const asB = kit.svc(b)
    const sessionA = must(await api.post('/api/omni/sessions', { customer_id: customerA.user_id }, asA), 201, 'A')
    const sessionB = must(await api.post('/api/omni/sessions', { customer_id: customerB.user_id }, asB), 201, 'B')
    // tickets has seen B's session (a ticket of B continues it), so refusing it in A is not mere ignorance
    const ticketB = await createTicket(
      api,
      { title: 'B', customer_id: customerB.user_id, session_id: sessionB.id },
      asB,
    )
    t.equal(ticketB.status, 201, ticketB.text)
    await likeUnknown(
      t,
      'POST /api/tickets session_id',
      (ref) => api.post('/api/tickets', { title: 'A', customer_id: customerA.user_id, session_id: ref }, asA),
      sessionB.id,
      'TICKETS_UNKNOWN_SESSION',
    )
    const ticketA = await createTicket(
      api,
      { title: 'A', customer_id: customerA.user_id, session_id: sessionA.id },
      asA,
    )
    t.equal(ticketA.status, 201, ticketA.text)

    await likeUnknown(
      t,
      'POST /api/v1/ai/query session_id',
      (ref) => api.post('/api/v1/ai/query', { query: 'refunds', session_id: ref }, asA),
      sessionB.id,
      'AI_UNKNOWN_SESSION',
    )
    must(await api.post('/api/v1/ai/query', { query: 'refunds', session_id: sessionA.id }, asA), 200, 'own session')

    const invite = (scope: typeof a, call_id: string) =>
      api.post(
        '/api/voice/protocols/sip/call-events/invite',
        { payload: { call_id, from: '+15550100', to: '+15550199' } },
        kit.svc(scope),
      )
    const callA = `ref-a-${kit.suffix}`
    const callB = `ref-b-${kit.suffix}`
    must(await invite(a, callA), 200, 'call A')
    must(await invite(b, callB), 200, 'call B')
    const recB = must(await api.post('/api/voice/recordings/start', { call_id: callB }, asB), 201, 'recording B')
    await likeUnknown(
      t,
      'media event recording_id',
      (ref) =>
        api.post(
          '/api/voice/protocols/webrtc/media-events/recording_started',
          { payload: { call_id: callA, recording_id: ref } },
          asA,
        ),
      recB.id,
      'REALTIME_UNKNOWN_RECORDING',
    )
  })
})
