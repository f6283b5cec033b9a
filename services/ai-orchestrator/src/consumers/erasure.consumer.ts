import { ErasureReportEvents } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import type { AiService } from '../context.ts'
import { tombstoneIndexedTickets } from '../db/erasure.repository.ts'

export const ERASURE_CONSUMER = 'ai-erasure'

/** What ai-orchestrator emits besides its own events: its erasure reports. */
export const AiErasureEvents = { reported: ErasureReportEvents.ai } as const

/**
 * The right to erasure, ai-orchestrator's part. What it holds of a customer is its copy of their tickets' titles
 * (`ai_ticket_index`, which assist suggestions search); it learns which tickets from tickets' own report, so it
 * follows tickets rather than guessing from the person. The rows stay (statuses, counts) with the title tombstoned
 * and their version moved to the report's time, so an older ticket event delivered late cannot bring the title back.
 * Knowledge docs are staff-written and AI replies keep ids only: nothing else to drop.
 */
export const erasureConsumer: ConsumerDef<AiService> = {
  durable: ERASURE_CONSUMER,
  stream: 'TICKETS',
  subjects: [ErasureReportEvents.tickets.type],
  idempotency: 'inbox',
  options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver }),
  handlers: [
    on(ErasureReportEvents.tickets, async ({ envelope, data: r }, tx) => {
      const at = new Date(envelope.occurred_at).toISOString()
      const tombstoned = await tombstoneIndexedTickets(tx.db, r.ticket_ids ?? [], at, envelope.id)
      await tx.emit(
        AiErasureEvents.reported,
        {
          erasure_id: r.erasure_id,
          customer_id: r.customer_id,
          service: 'ai-orchestrator',
          counts: { ticket_index_tombstoned: tombstoned },
          completed_at: new Date().toISOString(),
        },
        { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id },
      )
    }),
  ],
}
