import {
  ConversationEvents,
  IdentityEvents,
  TicketEvents,
  TicketSatisfactionEvents,
  TicketSlaEvents,
} from '@switchboard/contracts'
import type { Scope } from '@switchboard/platform'
import { CONVERSATIONS_PROJECTION } from '../../src/consumers/conversations.consumer.ts'
import { IDENTITY_PROJECTION } from '../../src/consumers/identity.consumer.ts'
import { TICKETS_PROJECTION } from '../../src/consumers/tickets.consumer.ts'
import type { StatisticsService } from '../../src/context.ts'
import { ACME, applied, GLOBEX, publish } from './app.ts'

// A small world of two tenants, published as identity, tickets and conversations publish it, at known instants of
// three UTC days: D2 (two days ago), D1 (yesterday), D0 (today). The definitions test computes every metric of it
// by hand.

const DAY = 86_400_000
const todayStart = () => {
  const d = new Date()
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())
}
export const dayString = (offset: number) => new Date(todayStart() - offset * DAY).toISOString().slice(0, 10)
/** `D<offset>` at `hh:mm:ss` UTC. */
export const at = (offset: number, time: string) => `${dayString(offset)}T${time}.000Z`
export const D0 = dayString(0)
export const D1 = dayString(1)
export const D2 = dayString(2)

const agent = (
  agent_id: string,
  user_id: string,
  name: string,
  department: string,
  status: string,
  avg_response_time: number,
  rating: number,
) => ({ agent_id, user_id, name, department, skills: [], max_concurrent: 5, status, rating, avg_response_time })

export const ticket = (
  ticket_id: string,
  agent_id: string | null,
  category: string,
  priority: string,
  status: string,
  created_at: string,
) => ({ ticket_id, customer_id: 'u-c1', agent_id, category, priority, status, source: 'web', created_at })

export const session = (session_id: string, status: string, started_at: string) => ({
  session_id,
  status,
  channel: 'web',
  subject: '',
  customer_id: 'u-c1',
  visitor_id: null,
  agent_id: null,
  ticket_id: null,
  started_at,
  last_message_at: null,
  ended_at: null,
})

let messageNo = 0
export const message = (session_id: string, created_at: string) => ({
  message_id: `m-${++messageNo}`,
  session_id,
  sender: 'customer',
  sender_id: 'u-c1',
  kind: 'text',
  content: 'hi',
  metadata: {},
  created_at,
  seq: messageNo,
  session_status: 'active',
  agent_id: null,
})

const rating = (satisfaction_id: string, ticket_id: string, value: number, rated_at: string) => ({
  satisfaction_id,
  ticket_id,
  customer_id: 'u-c1',
  agent_id: null,
  rating: value,
  category: 'overall',
  source: 'api',
  rated_at,
})

const violation = (violation_id: string, ticket_id: string, violated_at: string) => ({
  violation_id,
  ticket_id,
  sla_config_id: 'sla-1',
  violation_type: 'resolution',
  priority: 'normal',
  customer_tier: 'normal',
  deadline: violated_at,
  violated_at,
  resolved: false,
})

const statusChange = (ticket_id: string, from: string, to: string, resolved_at: string | null, closed_at = null) => ({
  ticket_id,
  from,
  to,
  resolved_at,
  closed_at,
})

/** Publishes the world and resolves once every projection applied all of it. */
export async function publishWorld(svc: StatisticsService) {
  const p = (def: Parameters<typeof publish>[1], data: unknown, scope: Scope = ACME, occurred_at?: string) =>
    publish(svc, def, data, scope, occurred_at)
  const I = IdentityEvents
  // users: u-c3 became an agent (a late, older registration does not make them a customer again); u-c4 has no
  // customer record anywhere
  for (const u of ['u-c1', 'u-c2', 'u-c4'])
    await p(I.userRegistered, { user_id: u, username: u, role: 'customer', name: u })
  await p(I.userRoleChanged, { user_id: 'u-c3', role: 'agent' })
  const past = new Date(Date.now() - 3_600_000).toISOString()
  await p(I.userRegistered, { user_id: 'u-c3', username: 'u-c3', role: 'customer', name: 'u-c3' }, ACME, past)
  await p(I.userRegistered, { user_id: 'u-cB', username: 'u-cB', role: 'customer', name: 'u-cB' }, GLOBEX)
  const customer = (customer_id: string, user_id: string, source: string) => ({
    customer_id,
    user_id,
    name: user_id,
    source,
    tags: [],
  })
  await p(I.customerUpserted, customer('c1', 'u-c1', 'web'))
  await p(I.customerUpserted, customer('c2', 'u-c2', 'web'), ACME, past)
  await p(I.customerUpserted, customer('c2', 'u-c2', 'app'))
  await p(I.customerUpserted, customer('c3', 'u-c3', 'web'))
  await p(I.customerUpserted, customer('cB', 'u-cB', 'web'), GLOBEX)
  await p(I.agentUpserted, agent('a1', 'u-a1', 'Ann', 'Sales', 'online', 30, 4))
  await p(I.agentUpserted, agent('a2', 'u-a2', 'Bob', 'Support', 'busy', 60, 3))
  await p(I.agentUpserted, agent('a3', 'u-a3', 'Cid', 'Support', 'offline', 90, 0))
  await p(I.agentStatusChanged, { agent_id: 'a3', user_id: 'u-a3', status: 'online', previous: 'offline' })
  await p(I.agentUpserted, agent('aB', 'u-aB', 'Zed', 'Ops', 'online', 100, 5), GLOBEX)
  const identityDone = await p(I.userRegistered, { user_id: 'marker', username: 'm', role: 'admin', name: 'm' })

  const T = TicketEvents
  await p(T.created, ticket('t1', null, 'general', 'normal', 'open', at(1, '10:00:00')))
  // a stale update of t1 from before its creation event (a replay from an earlier point) changes nothing
  await p(
    T.updated,
    { ticket: ticket('t1', null, 'stale', 'low', 'open', at(1, '10:00:00')), changed: ['category'] },
    ACME,
    past,
  )
  await p(T.created, ticket('t2', null, 'billing', 'high', 'open', at(0, '00:10:00')))
  await p(T.updated, {
    ticket: ticket('t2', 'u-a1', 'billing', 'high', 'assigned', at(0, '00:10:00')),
    changed: ['agent_id', 'status'],
  })
  await p(T.statusChanged, statusChange('t2', 'open', 'assigned', null))
  await p(T.created, ticket('t3', 'u-a1', 'billing', 'normal', 'assigned', at(1, '08:00:00')))
  await p(T.updated, {
    ticket: ticket('t3', 'u-a1', 'billing', 'normal', 'resolved', at(1, '08:00:00')),
    changed: ['status'],
  })
  await p(T.statusChanged, statusChange('t3', 'assigned', 'resolved', at(1, '12:00:00')))
  await p(T.created, ticket('t4', 'u-a2', 'technical', 'urgent', 'assigned', at(2, '00:30:00')))
  await p(T.statusChanged, statusChange('t4', 'assigned', 'resolved', at(2, '01:30:00')))
  await p(T.statusChanged, statusChange('t4', 'resolved', 'closed', at(2, '01:30:00')))
  await p(T.closed, { ticket_id: 't4', reason: '', closed_at: at(2, '02:00:00') })
  await p(T.created, ticket('t5', 'u-a2', 'billing', 'high', 'assigned', at(0, '00:20:00')))
  await p(T.statusChanged, statusChange('t5', 'assigned', 'in_progress', null))
  await p(T.created, ticket('tB1', 'u-aB', 'general', 'low', 'assigned', at(0, '00:05:00')), GLOBEX)
  await p(T.statusChanged, statusChange('tB1', 'assigned', 'resolved', at(0, '00:06:40')), GLOBEX)
  const S = TicketSatisfactionEvents
  await p(S.rated, rating('r1', 't3', 5, at(1, '13:00:00')))
  await p(S.rated, rating('r2', 't4', 2, at(2, '03:00:00')))
  await p(S.changed, { ...rating('r2', 't4', 3, at(0, '05:00:00')), previous_rating: 2 })
  await p(S.rated, rating('r3', 't2', 1, at(0, '00:50:00')))
  await p(S.removed, rating('r3', 't2', 1, at(0, '00:50:00')))
  await p(S.rated, rating('rB', 'tB1', 1, at(0, '00:07:00')), GLOBEX)
  await p(TicketSlaEvents.violated, violation('v1', 't1', at(0, '00:15:00')))
  // the same violation announced twice (recorded after the fact as well): one violation
  await p(TicketSlaEvents.violated, violation('v1', 't1', at(0, '00:15:00')))
  await p(TicketSlaEvents.violated, violation('vB', 'tB1', at(1, '23:00:00')), GLOBEX)
  const ticketsDone = await p(T.commented, { ticket_id: 't1', comment_id: 'k1', type: 'comment' })

  const C = ConversationEvents
  await p(C.sessionCreated, session('s1', 'active', at(0, '00:30:00')))
  await p(C.sessionCreated, session('s2', 'active', at(1, '09:00:00')))
  await p(C.sessionClosed, session('s2', 'closed', at(1, '09:00:00')))
  await p(C.sessionCreated, session('s3', 'waiting_human', at(0, '00:40:00')))
  await p(C.sessionAssigned, { session: session('s3', 'active', at(0, '00:40:00')), previous_agent_id: null })
  await p(C.sessionCreated, session('sB', 'active', at(0, '01:00:00')), GLOBEX)
  for (const time of ['00:31:00', '00:32:00', '00:45:00']) await p(C.messageCreated, message('s1', at(0, time)))
  const twice = await p(C.messageCreated, message('s2', at(1, '09:01:00')))
  // delivered again (a replay): the inbox counts it once
  await svc.bus.publish(twice.type, twice, { msgId: `${twice.id}-again` })
  await p(C.messageCreated, message('s2', at(1, '23:59:59')))
  for (const time of ['01:01:00', '01:02:00', '01:03:00', '01:04:00']) {
    await p(C.messageCreated, message('sB', at(0, time)), GLOBEX)
  }
  const conversationsDone = await p(C.queueCancelled, { session_id: 's1', waiting_id: 'w1', reason: 'x' })

  await applied(svc, IDENTITY_PROJECTION, identityDone.id)
  await applied(svc, TICKETS_PROJECTION, ticketsDone.id)
  await applied(svc, CONVERSATIONS_PROJECTION, conversationsDone.id)
}
