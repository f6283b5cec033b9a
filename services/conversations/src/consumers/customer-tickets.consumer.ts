import type { Static } from '@sinclair/typebox'
import { TicketEvents } from '@switchboard/contracts'
import { type ConsumedEvent, type ConsumerDef, on, versionOf } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import { changeCustomerTicketStatus, projectCustomerTicket } from '../db/customer-tickets.repository.ts'

export const CUSTOMER_TICKETS_DURABLE = 'conversations-customer-tickets'

/**
 * tickets' ticket events → `customer_tickets`, the tickets a customer's activity lists (GET
 * /api/customers/:id/activity). Created and updated carry the ticket whole (newest wins on the event's time and id);
 * a status change moves the status unless the row is newer. Idempotent by itself, so no inbox. Replicas share this
 * consumer, so a status change may come before its ticket's creation: it is retried (thrown), not lost.
 */
export const customerTickets: ConsumerDef<ConversationsService> = {
  durable: CUSTOMER_TICKETS_DURABLE,
  stream: 'TICKETS',
  subjects: ['tickets.ticket.>'],
  idempotency: 'handler',
  options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver }),
  handlers: [
    on(TicketEvents.created, (event, svc) => project(event, event.data, svc)),
    on(TicketEvents.updated, (event, svc) => project(event, event.data.ticket, svc)),
    on(TicketEvents.statusChanged, async ({ envelope, data: d }, svc) => {
      const { found } = await changeCustomerTicketStatus(svc.db, d.ticket_id, d.to, versionOf(envelope))
      if (!found) throw new Error(`ticket ${d.ticket_id} not projected yet`)
    }),
  ],
  // closed (a status change says it too), comments and session links change nothing listed here
}

/** A ticket whole (created, updated), newest wins. */
async function project(
  { envelope }: ConsumedEvent<unknown>,
  f: Static<typeof TicketEvents.created.data>,
  svc: ConversationsService,
) {
  if (!envelope.tenant_id || !envelope.workspace_id) throw new Error(`${envelope.type} ${envelope.id} has no scope`)
  await projectCustomerTicket(svc.db, {
    ticket_id: f.ticket_id,
    tenant_id: envelope.tenant_id,
    workspace_id: envelope.workspace_id,
    customer_id: f.customer_id,
    agent_id: f.agent_id,
    title: f.title ?? '',
    category: f.category,
    priority: f.priority,
    status: f.status,
    source: f.source,
    created_at: new Date(f.created_at).toISOString(),
    ...versionOf(envelope),
  })
}
