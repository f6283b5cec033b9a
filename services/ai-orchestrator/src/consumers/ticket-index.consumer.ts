import type { Static, TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { TicketEvents } from '@switchboard/contracts'
import { type ConsumerDef, versionOf } from '@switchboard/platform'
import type { AiService } from '../context.ts'
import { changeTicketStatus, projectTicket } from '../db/ticket-index.repository.ts'

export const TICKET_INDEX_CONSUMER = 'ai-ticket-index'

type Facts = Static<typeof TicketEvents.created.data>

/**
 * tickets' events → `ai_ticket_index`, what assist suggestions know of tickets (title, status, category, priority,
 * creation), in the ticket's own scope. Whole-ticket events (created, updated) win when newer (occurred_at, then
 * id), like statistics' projections; a status change before its ticket is known is retried (replicas share the
 * consumer, so the creation may be on its way), then dead-lettered. Applied once (inbox).
 */
export const ticketIndex: ConsumerDef<AiService> = {
  durable: TICKET_INDEX_CONSUMER,
  stream: 'TICKETS',
  // created, updated and status_changed are what it reads; one wildcard rather than three subjects, because a
  // consumer filtering on several subjects needs NATS 2.10 (the others of tickets.ticket.> are skipped)
  subjects: ['tickets.ticket.>'],
  idempotency: 'inbox',
  options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver }),
  async handle(_svc, { envelope }, tx) {
    const v = versionOf(envelope)
    // tickets scopes every event by the ticket's own scope; one without is a bug upstream, dead-lettered
    if (!envelope.tenant_id || !envelope.workspace_id) throw new Error(`${envelope.type} ${envelope.id} has no scope`)
    const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
    const project = (t: Facts) =>
      projectTicket(
        tx.db,
        {
          ticket_id: t.ticket_id,
          ...scope,
          title: t.title,
          status: t.status,
          category: t.category,
          priority: t.priority,
          created_at: new Date(t.created_at).toISOString(),
        },
        v,
      )
    switch (envelope.type) {
      case TicketEvents.created.type:
        return project(payload(TicketEvents.created, envelope.data))
      case TicketEvents.updated.type:
        return project(payload(TicketEvents.updated, envelope.data).ticket)
      case TicketEvents.statusChanged.type: {
        const d = payload(TicketEvents.statusChanged, envelope.data)
        if (!(await changeTicketStatus(tx.db, d.ticket_id, d.to, v))) {
          throw new Error(`ticket ${d.ticket_id} not indexed yet`)
        }
        return
      }
    }
    // closed, session_linked: nothing assist shows
  },
}

/** An event's data checked against its contract; a mismatch is thrown (redelivered, then dead-lettered), not skipped. */
function payload<T extends TSchema>(def: { type: string; data: T }, data: unknown): Static<T> {
  if (!Value.Check(def.data, data)) {
    const first = Value.Errors(def.data, data).First()
    throw new Error(`${def.type} does not match its contract: ${first?.path || '/'} ${first?.message ?? ''}`)
  }
  return data as Static<T>
}
