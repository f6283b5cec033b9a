import type { Static } from '@sinclair/typebox'
import { TicketEvents } from '@switchboard/contracts'
import { type ConsumedEvent, type ConsumerDef, type ConsumerTx, on, versionOf } from '@switchboard/platform'
import type { AiService } from '../context.ts'
import type { AiDatabase } from '../db/database.ts'
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
  handlers: [
    on(TicketEvents.created, (event, tx) => project(event, event.data, tx)),
    on(TicketEvents.updated, (event, tx) => project(event, event.data.ticket, tx)),
    on(TicketEvents.statusChanged, async (event, tx) => {
      scopeOf(event)
      const { ticket_id, to } = event.data
      if (!(await changeTicketStatus(tx.db, ticket_id, to, versionOf(event.envelope)))) {
        throw new Error(`ticket ${ticket_id} not indexed yet`)
      }
    }),
  ],
  // closed, session_linked: nothing assist shows
}

/** A whole ticket (created, updated), in its own scope. */
function project(event: ConsumedEvent<unknown>, t: Facts, tx: ConsumerTx<AiDatabase>) {
  return projectTicket(
    tx.db,
    {
      ticket_id: t.ticket_id,
      ...scopeOf(event),
      title: t.title,
      status: t.status,
      category: t.category,
      priority: t.priority,
      created_at: new Date(t.created_at).toISOString(),
    },
    versionOf(event.envelope),
  )
}

/** tickets scopes every event by the ticket's own scope; one without is a bug upstream, dead-lettered. */
function scopeOf({ envelope }: ConsumedEvent<unknown>) {
  if (!envelope.tenant_id || !envelope.workspace_id) throw new Error(`${envelope.type} ${envelope.id} has no scope`)
  return { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
}
