import { TypeCompiler } from '@sinclair/typebox/compiler'
import { ConversationEvents, type Envelope } from '@switchboard/contracts'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { as, conversationsApp, principal, servicePrincipal } from '../helpers/app.ts'
import { eventsOf, seedAgent, seedCustomer } from '../helpers/omni.ts'

const contracts = new Map<string, ReturnType<typeof TypeCompiler.Compile>>(
  Object.values(ConversationEvents).map((def) => [def.type, TypeCompiler.Compile(def.data)]),
)
const data = (e: Envelope) => e.data as Record<string, any>

inEachStorageMode(t, 'session events', async (t, mode) => {
  const { app, svc } = await conversationsApp(t, mode)
  const agent = await as(principal())
  const hub = await as(servicePrincipal({ tenant_id: '', workspace_id: '' }))
  const ai = await as(servicePrincipal({ user_id: 'ai-orchestrator' }))
  const admin = await as(principal({ user_id: 'admin-1', kind: 'admin', roles: ['admin'], permissions: ['*'] }))
  await seedAgent(svc, { user_id: 'agent-1', name: 'Ada' })
  await seedAgent(svc, { user_id: 'agent-2', name: 'Bob' })
  await seedCustomer(svc, { user_id: 'cust-1' })
  const post = (url: string, payload: object, headers = agent) => app.inject({ method: 'POST', url, payload, headers })

  t.test('every change emits its events, in order, with the contract payloads', async (t) => {
    const id = `ev-${mode}-1`
    const created = await post(
      `/internal/sessions/${id}/messages`,
      { sender: 'customer', content: 'Help!', channel: 'web', tenant_id: 'acme', workspace_id: 'support' },
      hub,
    )
    t.equal(created.statusCode, 201)
    const { credential, visitor_id } = created.json().visitor
    t.equal((await post(`/internal/sessions/${id}/messages`, { sender: 'ai', content: 'Hello' }, ai)).statusCode, 201)
    t.equal((await post(`/api/omni/sessions/${id}/assign`, { agent_id: 'agent-1' })).statusCode, 200)
    t.equal((await post(`/api/omni/sessions/${id}/messages`, { content: 'Ada here' })).statusCode, 201)
    const transfer = await post(`/api/omni/sessions/${id}/transfer`, { to_agent_id: 'agent-2', reason: 'billing' })
    t.equal(transfer.statusCode, 200)
    t.equal((await post(`/api/omni/sessions/${id}/close`, { reason: 'done' })).statusCode, 200)
    const refused = await post(`/api/omni/sessions/${id}/messages`, { content: 'refused' }, admin)
    t.equal(refused.statusCode, 409, 'closed: no message, no event')
    const back = await post(
      `/internal/sessions/${id}/messages`,
      { sender: 'customer', content: 'again', visitor_credential: credential },
      hub,
    )
    t.equal(back.statusCode, 201)

    const events = await eventsOf(svc, id, 12)
    t.same(
      events.map((e) => e.type),
      [
        'conversations.session.created',
        'conversations.message.created',
        'conversations.message.created',
        'conversations.message.created',
        'conversations.session.assigned',
        'conversations.message.created',
        'conversations.message.created',
        'conversations.session.transferred',
        'conversations.message.created',
        'conversations.session.closed',
        'conversations.session.reopened',
        'conversations.message.created',
      ],
    )
    for (const e of events) {
      t.ok(contracts.get(e.type)?.Check(e.data), `${e.type} matches its contract`)
      t.match(e, { tenant_id: 'acme', workspace_id: 'support' }, 'the session’s own scope, even from an unscoped hub')
    }
    t.match(data(events[0]!), { session_id: id, status: 'active', channel: 'web', visitor_id, customer_id: null })
    t.match(data(events[1]!), {
      session_id: id,
      sender: 'customer',
      sender_id: visitor_id,
      content: 'Help!',
      session_status: 'active',
      agent_id: null,
    })
    t.match(events[1], { actor: { user_id: 'realtime-voice', kind: 'service' } })
    t.match(data(events[2]!), { sender: 'ai', sender_id: 'ai-orchestrator', content: 'Hello' })
    t.match(data(events[3]!), { sender: 'system', content: 'Ada joined the conversation.', agent_id: 'agent-1' })
    t.match(data(events[4]!), {
      session: { session_id: id, agent_id: 'agent-1', status: 'active' },
      previous_agent_id: null,
    })
    t.match(events[4], { actor: { user_id: 'agent-1', kind: 'agent' } })
    t.match(data(events[5]!), { sender: 'agent', sender_id: 'agent-1', content: 'Ada here', agent_id: 'agent-1' })
    t.match(data(events[7]!), {
      session: { agent_id: 'agent-2', status: 'transferred' },
      from_agent_id: 'agent-1',
      to_agent_id: 'agent-2',
      reason: 'billing',
      transfer_id: String,
    })
    t.match(data(events[8]!), {
      sender: 'system',
      content: 'The conversation was closed. Reason: done.',
      session_status: 'closed',
    })
    t.match(data(events[9]!), { session_id: id, status: 'closed', ended_at: String, agent_id: 'agent-2' })
    t.match(data(events[10]!), { session_id: id, status: 'active', ended_at: null, agent_id: null })
    t.match(data(events[11]!), { sender: 'customer', content: 'again', session_status: 'active' })
  })

  t.test('closing a waiting session cancels its waiting record; assigning one takes it off the queue', async (t) => {
    const waitingSession = async (id: string) => {
      await post(
        `/internal/sessions/${id}/messages`,
        { sender: 'customer', customer_id: 'cust-1', content: 'hi', tenant_id: 'acme', workspace_id: 'support' },
        hub,
      )
      await svc.db.updateTable('sessions').set({ status: 'waiting_human' }).where('id', '=', id).execute()
      await svc.db
        .insertInto('waiting')
        .values({
          id: `w-${id}`,
          session_id: id,
          tenant_id: 'acme',
          workspace_id: 'support',
          status: 'waiting',
          priority: 'high',
          priority_rank: 2,
          reason: 'user_request',
          notes: '',
          target_skills: '["billing"]',
          queued_at: new Date(Date.now() - 5000).toISOString(),
          assigned_at: null,
          assigned_to: null,
          cancelled_at: null,
          cancel_reason: null,
        })
        .execute()
    }
    const closed = `ev-${mode}-2`
    await waitingSession(closed)
    t.equal((await post(`/api/omni/sessions/${closed}/close`, {})).statusCode, 200)
    const closing = await eventsOf(svc, closed, 5)
    t.same(
      closing.map((e) => e.type),
      [
        'conversations.session.created',
        'conversations.message.created',
        'conversations.queue.cancelled',
        'conversations.message.created',
        'conversations.session.closed',
      ],
    )
    t.same(data(closing[2]!), { session_id: closed, waiting_id: `w-${closed}`, reason: 'session_closed' })

    const taken = `ev-${mode}-3`
    await waitingSession(taken)
    t.equal((await post(`/api/omni/sessions/${taken}/assign`, { agent_id: 'agent-1' })).statusCode, 200)
    const taking = await eventsOf(svc, taken, 5)
    t.same(taking.map((e) => e.type).slice(2), [
      'conversations.message.created',
      'conversations.session.assigned',
      'conversations.queue.assigned',
    ])
    t.match(data(taking[4]!), {
      session_id: taken,
      waiting_id: `w-${taken}`,
      priority: 'high',
      reason: 'user_request',
      target_skills: ['billing'],
      agent_id: 'agent-1',
      waited_seconds: Number,
    })
    t.ok(contracts.get('conversations.queue.assigned')?.Check(data(taking[4]!)))
    const w = await svc.db.selectFrom('waiting').selectAll().where('id', '=', `w-${taken}`).executeTakeFirstOrThrow()
    t.match(w, { status: 'transferred', assigned_to: 'agent-1', assigned_at: String })
  })

  t.test('a refused write emits nothing', async (t) => {
    const id = `ev-${mode}-4`
    await post(
      `/internal/sessions/${id}/messages`,
      { sender: 'customer', customer_id: 'cust-1', content: 'hi', tenant_id: 'acme', workspace_id: 'support' },
      hub,
    )
    await eventsOf(svc, id, 2)
    const total = async () => svc.bus.replay('CONVERSATIONS', {}, async () => {})
    const before = await total()
    t.equal((await post(`/api/omni/sessions/${id}/messages`, { content: 'not mine' })).statusCode, 403)
    t.equal((await post(`/api/omni/sessions/${id}/assign`, { agent_id: 'ghost' })).statusCode, 400, 'unknown agent')
    t.equal(
      (await post('/api/omni/sessions', { customer_id: 'cust-1', agent_id: 'agent-2', content: 'x' })).statusCode,
      403,
      'an outbound session whose first message is refused is not created either',
    )
    // a later event shows the relay has passed the refused writes
    await post(`/internal/sessions/${id}/messages`, { sender: 'system', content: 'marker' }, hub)
    await eventsOf(svc, id, 3)
    t.equal(await total(), before + 1, 'only the marker was published')
  })
})
