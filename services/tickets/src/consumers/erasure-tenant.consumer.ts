import { IdentityTenantErasureEvents, TenantErasureReportEvents, tenantErasureReport } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { tombstoneTenantTickets } from '../db/erasure-tenant.repository.ts'

/** What tickets emits for a tenant's erasure: its report. */
export const TicketTenantErasureEvents = { reported: TenantErasureReportEvents.tickets } as const

/**
 * A tenant's erasure, tickets' part (db/erasure-tenant.repository.ts): all the tenant's tickets tombstoned, its
 * macros deleted, its projections' names forgotten; then `tickets.tenant_erasure.reported`. Applied once, in the
 * inbox's transaction.
 */
export const tenantErasureConsumer: ConsumerDef<TicketsService> = {
  durable: 'tickets-tenant-erasure',
  stream: 'IDENTITY',
  subjects: [IdentityTenantErasureEvents.requested.type],
  idempotency: 'inbox',
  handlers: [
    on(IdentityTenantErasureEvents.requested, async ({ envelope, data: e }, tx) => {
      const at = new Date(envelope.occurred_at).toISOString()
      const counts = await tombstoneTenantTickets(tx.db, e.tenant_id, at)
      await tx.emit(TicketTenantErasureEvents.reported, tenantErasureReport(e, 'tickets', counts), {
        tenant_id: envelope.tenant_id,
        workspace_id: envelope.workspace_id,
      })
    }),
  ],
}
