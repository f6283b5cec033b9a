// The earlier system's agent routing and customer activity calls, end to end through the gateway in both run
// modes: GET /api/agents/find-available, POST /api/agents/:id/assign-session|release-session (conversations, by the
// gateway's :param prefixes under identity's /api/agents), current_load on identity's agent record (moved by
// conversations' events), GET /api/customers/:id/activity — and another tenant's ids answered like missing ones.
import { randomUUID } from 'node:crypto'
import { conversationsKit, must } from './harness/conversations-kit.ts'
import { until } from './harness/http.ts'
import { isError, likeMissing } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'
import { createTicket } from './harness/tickets-kit.ts'

inEachMode('agents routing and customer activity', {}, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api } = kit
  const a = kit.freshScope('agra')
  const b = kit.freshScope('agrb')

  const star = await kit.agent(a, 'star', { online: true, max_concurrent: 1, skills: ['billing'] })
  const spare = await kit.agent(a, 'spare', { online: true, max_concurrent: 3 })
  const customer = await kit.customer(a, 'cust')
  const bea = await kit.agent(b, 'bea', { online: true })
  const customerB = await kit.customer(b, 'custb')
  await kit.onlineAgents(a, 2)
  await kit.onlineAgents(b, 1)
  const { session } = await kit.hub(a).open('I was charged twice', customer.user_id)
  const { session: second } = await kit.hub(a).open('And another thing', customer.user_id)
  const { session: sessionB } = await kit.hub(b).open('Tenant B question', customerB.user_id)
  const agentToken = (await kit.agentLogin(star)).token
  const load = async (agentId: string) =>
    must(await api.get(`/api/agents/${agentId}`, kit.svc(a)), 200, 'agent').current_load as number
  const loadIs = (agentId: string, want: number) =>
    until(`current_load ${want}`, async () => ((await load(agentId)) === want ? want : undefined))

  t.test('find-available picks by the routing score; an agent may ask (agents.read)', async (t) => {
    const pick = must(await api.get('/api/agents/find-available?skills=billing', { token: agentToken }), 200, 'pick')
    t.match(pick, { id: star.id, user_id: star.user_id, current_load: 0, tenant_id: a.tenant_id })
    const none = await api.get('/api/agents/find-available', kit.svc(kit.freshScope('agrnone')))
    isError(t, none, 404, 'CONVERSATIONS_NO_AGENT_AVAILABLE')
  })

  t.test('assign-session and release-session move current_load on the agent record', async (t) => {
    const denied = await api.post(
      `/api/agents/${star.id}/assign-session`,
      { session_id: session.id },
      { token: agentToken },
    )
    isError(t, denied, 403, 'PERMISSION_DENIED', 'an agent does not hold agents.write')
    const assigned = must(
      await api.post(`/api/agents/${star.id}/assign-session`, { session_id: session.id }, kit.svc(a)),
      200,
      'assign',
    )
    t.match(assigned, { message: 'Session assigned successfully', agent_id: star.id, session_id: session.id })
    t.equal(assigned.current_load, 1)
    t.equal(await loadIs(star.id, 1), 1, "identity's record follows")
    const full = await api.post(`/api/agents/${star.id}/assign-session`, { session_id: second.id }, kit.svc(a))
    isError(t, full, 409, 'CONVERSATIONS_AGENT_AT_CAPACITY')
    const next = must(await api.get('/api/agents/find-available', kit.svc(a)), 200, 'pick')
    t.equal(next.id, spare.id, 'a full agent is not picked')

    // a transfer moves the load from one agent to the other
    must(
      await api.post(`/api/omni/sessions/${session.id}/transfer`, { to_agent_id: spare.user_id }, kit.svc(a)),
      200,
      'transfer',
    )
    t.equal(await loadIs(star.id, 0), 0, 'transferred away')
    t.equal(await loadIs(spare.id, 1), 1, 'transferred to')
    const released = must(
      await api.post(`/api/agents/${spare.id}/release-session`, { session_id: session.id }, kit.svc(a)),
      200,
      'release',
    )
    t.match(released, { message: 'Session released successfully', current_load: 0, session: { agent_id: null } })
    t.equal(await loadIs(spare.id, 0), 0, 'released')
    must(await api.post(`/api/agents/${spare.id}/assign-session`, { session_id: second.id }, kit.svc(a)), 200, 'again')
    t.equal(await loadIs(spare.id, 1), 1)
    must(await api.post(`/api/omni/sessions/${second.id}/close`, {}, kit.svc(a)), 200, 'close')
    t.equal(await loadIs(spare.id, 0), 0, 'closed')
    const list = must(await api.get('/api/agents/online', kit.svc(a)), 200, 'online')
    t.ok(
      list.items.every((x: { current_load: number }) => typeof x.current_load === 'number'),
      'every agent answer carries current_load',
    )

    const audit = await until("star's assignment audited", async () => {
      const r = await api.get('/api/audit/logs?action=agents.assign_session&success=true', kit.svc(a))
      return r.status === 200 ? r.body.data.find((x: { resource_id: string }) => x.resource_id === star.id) : undefined
    })
    t.match(audit, { resource_type: 'agents', tenant_id: a.tenant_id })
    t.ok(JSON.stringify(audit).includes(session.id), 'the session snapshots are in the record')
  })

  t.test("customer activity: the sidebar's sessions, tickets and messages", async (t) => {
    must(
      await createTicket(
        api,
        { title: 'Double charge', customer_id: customer.user_id, session_id: session.id },
        kit.svc(a),
      ),
      201,
      'ticket',
    )
    const activity = await until('the ticket in the activity', async () => {
      const r = await api.get(`/api/customers/${customer.id}/activity?limit=50`, { token: agentToken })
      return r.status === 200 && r.body.recent_tickets.length === 1 ? r.body : undefined
    })
    t.match(activity, {
      customer_id: customer.id,
      user_id: customer.user_id,
      recent_tickets: [{ title: 'Double charge' }],
    })
    t.same(activity.recent_sessions.map((s: { id: string }) => s.id).sort(), [session.id, second.id].sort())
    t.ok(
      activity.recent_messages.some((m: { content: string }) => m.content === 'I was charged twice'),
      "the customer's words are there",
    )
    isError(t, await api.get(`/api/customers/${customer.id}/activity?limit=500`, kit.svc(a)), 400, 'VALIDATION_FAILED')
  })

  t.test("another tenant's agents, sessions and customers are missing ones", async (t) => {
    const nobody = randomUUID()
    await likeMissing(
      t,
      'assign-session: a foreign agent',
      () => api.post(`/api/agents/${bea.id}/assign-session`, { session_id: second.id }, kit.svc(a)),
      () => api.post(`/api/agents/${nobody}/assign-session`, { session_id: second.id }, kit.svc(a)),
    )
    for (const verb of ['assign-session', 'release-session']) {
      await likeMissing(
        t,
        `${verb}: a foreign session`,
        () => api.post(`/api/agents/${star.id}/${verb}`, { session_id: sessionB.id }, kit.svc(a)),
        () => api.post(`/api/agents/${star.id}/${verb}`, { session_id: nobody }, kit.svc(a)),
      )
    }
    await likeMissing(
      t,
      'activity: a foreign customer',
      () => api.get(`/api/customers/${customerB.id}/activity`, kit.svc(a)),
      () => api.get(`/api/customers/${nobody}/activity`, kit.svc(a)),
    )
    const pickB = must(await api.get('/api/agents/find-available', kit.svc(b)), 200, 'pick B')
    t.equal(pickB.id, bea.id, "B's pick is B's agent")
    const untouched = must(await api.get(`/api/omni/sessions/${sessionB.id}`, kit.svc(b)), 200, 'session B')
    t.equal(untouched.agent_id, null, "B's session was not assigned")
  })
})
