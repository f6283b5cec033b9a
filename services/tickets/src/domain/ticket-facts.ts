import type { Static } from '@sinclair/typebox'
import type { TicketEvents } from '@switchboard/contracts'
import type { Ticket } from '../schemas/tickets.schemas.ts'

/** The facts about a ticket that its events carry (contract `TicketEvents.created` in packages/contracts). */
export function ticketFacts(t: Ticket): Static<(typeof TicketEvents)['created']['data']> {
  return {
    ticket_id: t.id,
    title: t.title,
    customer_id: t.customer_id,
    agent_id: t.agent_id,
    category: t.category,
    priority: t.priority,
    status: t.status,
    source: t.source,
    created_at: t.created_at,
  }
}
