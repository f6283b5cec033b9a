import { IdentityTenantErasureEvents, TenantErasureReportEvents, tenantErasureReport } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import type { AiService } from '../context.ts'
import { eraseTenantAi } from '../db/erasure-tenant.repository.ts'

/** What ai-orchestrator emits for a tenant's erasure: its report. */
export const AiTenantErasureEvents = { reported: TenantErasureReportEvents.ai } as const

/**
 * A tenant's erasure, ai-orchestrator's part (db/erasure-tenant.repository.ts): its knowledge docs and its copies of
 * the tenant's ticket titles, then `ai.tenant_erasure.reported`. Applied once, in the inbox's transaction.
 */
export const tenantErasureConsumer: ConsumerDef<AiService> = {
  durable: 'ai-tenant-erasure',
  stream: 'IDENTITY',
  subjects: [IdentityTenantErasureEvents.requested.type],
  idempotency: 'inbox',
  options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver }),
  handlers: [
    on(IdentityTenantErasureEvents.requested, async ({ envelope, data: e }, tx) => {
      const at = new Date(envelope.occurred_at).toISOString()
      const counts = await eraseTenantAi(tx.db, e.tenant_id, at, envelope.id)
      await tx.emit(AiTenantErasureEvents.reported, tenantErasureReport(e, 'ai-orchestrator', counts), {
        tenant_id: envelope.tenant_id,
        workspace_id: envelope.workspace_id,
      })
    }),
  ],
}
