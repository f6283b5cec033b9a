import { ErasureReportEvents, IdentityErasureEvents } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { ticketIdsOf, tombstoneTickets } from '../db/erasure.repository.ts'

export const ERASURE_CONSUMER = 'tickets-erasure'

/** What tickets emits besides its own events: its erasure reports. */
export const TicketErasureEvents = { reported: ErasureReportEvents.tickets } as const

/**
 * The right to erasure, tickets' part: the person's tickets, their comments and ratings keep their rows, statuses
 * and times with the personal text replaced (db/erasure.repository.ts); then `tickets.erasure.reported` names the
 * tickets, so ai-orchestrator drops its copies of their titles. Applied once, in the inbox's transaction.
 */
export const erasureConsumer: ConsumerDef<TicketsService> = {
  durable: ERASURE_CONSUMER,
  stream: 'IDENTITY',
  subjects: [IdentityErasureEvents.requested.type],
  idempotency: 'inbox',
  handlers: [
    on(IdentityErasureEvents.requested, async ({ envelope, data: e }, tx) => {
      const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
      const person = { ids: [e.user_id, e.customer_id], scope, at: new Date(envelope.occurred_at).toISOString() }
      const tickets = await ticketIdsOf(tx.db, person)
      const counts = await tombstoneTickets(tx.db, person, tickets)
      await tx.emit(
        TicketErasureEvents.reported,
        {
          erasure_id: e.erasure_id,
          customer_id: e.customer_id,
          service: 'tickets',
          counts,
          ticket_ids: tickets,
          completed_at: new Date().toISOString(),
        },
        scope,
      )
    }),
  ],
}
