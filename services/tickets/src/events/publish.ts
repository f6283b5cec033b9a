import type { Static } from '@sinclair/typebox'
import { TicketEvents } from '@switchboard/contracts'
import type { Outbox } from '@switchboard/platform'
import type { FastifyRequest } from 'fastify'
import type { Transaction } from 'kysely'
import type { TicketsDatabase } from '../db/database.ts'
import type { Ticket } from '../schemas/tickets.schemas.ts'

type EventsOf = typeof TicketEvents
type EventName = keyof EventsOf
type DataOf<K extends EventName> = Static<EventsOf[K]['data']>

export function ticketFacts(t: Ticket): DataOf<'created'> {
  return {
    ticket_id: t.id,
    customer_id: t.customer_id,
    agent_id: t.agent_id,
    category: t.category,
    priority: t.priority,
    status: t.status,
    source: t.source,
    created_at: t.created_at,
  }
}

/**
 * Queues one ticket event in the caller's transaction (published only if it commits). The subject is the
 * event type (`tickets.ticket.created`); the envelope carries the ticket's own scope, so an unscoped admin's
 * change still lands in the tenant it touched, and the caller as actor.
 */
export async function queueTicketEvent<K extends EventName>(
  outbox: Outbox,
  trx: Transaction<TicketsDatabase>,
  request: FastifyRequest,
  ticket: Pick<Ticket, 'tenant_id' | 'workspace_id'>,
  name: K,
  data: DataOf<K>,
): Promise<void> {
  const type = TicketEvents[name].type
  const envelope = {
    ...outbox.envelope(type, data, request),
    tenant_id: ticket.tenant_id,
    workspace_id: ticket.workspace_id,
  }
  await outbox.append(trx, type, envelope)
}
