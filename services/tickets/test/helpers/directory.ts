import { ConversationEvents, IdentityEvents, type SessionFacts } from '@switchboard/contracts'
import { type EventBus, newEnvelope } from '@switchboard/events'
import { waitFor } from '@switchboard/testing'
import type { TicketsService } from '../../src/context.ts'

type Scope = { tenant_id: string; workspace_id: string }
const identity = { user_id: 'identity', kind: 'service' }

/** A record id like identity's: one per user and workspace (the same user may be a customer in two tenants). */
export const recordId = (scope: Scope, userId: string) => `rec-${scope.tenant_id}-${scope.workspace_id}-${userId}`

export interface KnownAgent {
  user_id: string
  status?: string
  max_concurrent?: number
}

/**
 * Makes customers and agents known to tickets the way identity does, with its events on the bus (record ids by
 * recordId), and waits until the directory projection holds them: tickets may then name them.
 */
export async function makeKnown(
  svc: TicketsService,
  scope: Scope,
  who: { customers?: string[]; agents?: Array<string | KnownAgent> },
  bus: EventBus = svc.bus,
): Promise<void> {
  const customers = who.customers ?? []
  const agents = (who.agents ?? []).map((a) => (typeof a === 'string' ? { user_id: a } : a))
  for (const user_id of customers) {
    const data = {
      customer_id: recordId(scope, user_id),
      user_id,
      name: `Customer ${user_id}`,
      source: 'web',
      tags: [],
    }
    const envelope = newEnvelope({ type: IdentityEvents.customerUpserted.type, ...scope, actor: identity, data })
    await bus.publish(envelope.type, envelope)
  }
  for (const a of agents) {
    const data = {
      agent_id: recordId(scope, a.user_id),
      user_id: a.user_id,
      name: `Agent ${a.user_id}`,
      department: 'support',
      skills: [],
      max_concurrent: a.max_concurrent ?? 5,
      status: a.status ?? 'online',
      rating: 5,
      avg_response_time: 0,
    }
    const envelope = newEnvelope({ type: IdentityEvents.agentUpserted.type, ...scope, actor: identity, data })
    await bus.publish(envelope.type, envelope)
  }
  await waitFor(async () => {
    const [c, a] = await Promise.all([
      svc.db
        .selectFrom('directory_customers')
        .select('user_id')
        .where('tenant_id', '=', scope.tenant_id)
        .where('workspace_id', '=', scope.workspace_id)
        .execute(),
      svc.db
        .selectFrom('directory_agents')
        .select(['user_id', 'status', 'max_concurrent'])
        .where('tenant_id', '=', scope.tenant_id)
        .where('workspace_id', '=', scope.workspace_id)
        .execute(),
    ])
    const haveC = new Set(c.map((r) => r.user_id))
    return (
      customers.every((u) => haveC.has(u)) &&
      agents.every((x) =>
        a.some(
          (r) =>
            r.user_id === x.user_id &&
            r.status === (x.status ?? 'online') &&
            Number(r.max_concurrent) === (x.max_concurrent ?? 5),
        ),
      )
    )
  })
}

/** An agent's status change, as identity announces it. */
export async function agentStatus(
  svc: TicketsService,
  scope: Scope,
  userId: string,
  status: string,
  previous = 'online',
) {
  const data = { agent_id: recordId(scope, userId), user_id: userId, status, previous }
  const envelope = newEnvelope({ type: IdentityEvents.agentStatusChanged.type, ...scope, actor: identity, data })
  await svc.bus.publish(envelope.type, envelope)
  return envelope
}

/** A session event as conversations announces it (`linked` by default). */
export async function sessionEvent(
  svc: TicketsService,
  scope: Scope,
  session: Partial<SessionFacts> & { session_id: string },
  type: string = ConversationEvents.sessionLinked.type,
) {
  const facts: SessionFacts = {
    status: 'active',
    channel: 'web',
    subject: 'Help',
    customer_id: null,
    visitor_id: null,
    agent_id: null,
    ticket_id: null,
    started_at: new Date().toISOString(),
    last_message_at: null,
    ended_at: null,
    ...session,
  }
  const data = type === ConversationEvents.sessionAssigned.type ? { session: facts, previous_agent_id: null } : facts
  const envelope = newEnvelope({ type, ...scope, actor: { user_id: 'conversations', kind: 'service' }, data })
  await svc.bus.publish(envelope.type, envelope)
  return envelope
}

/**
 * Makes conversations' sessions known to tickets as conversations does (`conversations.session.created` on the bus)
 * and waits until tickets holds them: a ticket may then continue them (`session_id`).
 */
export async function makeSessionsKnown(svc: TicketsService, scope: Scope, sessionIds: string[], customerId?: string) {
  for (const session_id of sessionIds) {
    await sessionEvent(
      svc,
      scope,
      { session_id, customer_id: customerId ?? null },
      ConversationEvents.sessionCreated.type,
    )
  }
  await waitFor(async () => {
    const rows = await svc.db
      .selectFrom('sla_session_tickets')
      .select('session_id')
      .where('tenant_id', '=', scope.tenant_id)
      .where('workspace_id', '=', scope.workspace_id)
      .where('session_id', 'in', sessionIds)
      .execute()
    return rows.length === sessionIds.length
  })
}
