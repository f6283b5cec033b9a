import { IdentityTenantErasureEvents, TenantErasureReportEvents, tenantErasureReport } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import type { RealtimeService } from '../context.ts'
import { eraseTenantCalls } from '../db/erasure-tenant.repository.ts'

/** What realtime-voice emits for a tenant's erasure: its report. */
export const VoiceTenantErasureEvents = { reported: TenantErasureReportEvents.realtime } as const

/**
 * A tenant's erasure, realtime-voice's part: all the tenant's calls, recordings and transcripts
 * (db/erasure-tenant.repository.ts), then `realtime.tenant_erasure.reported`. Applied once, in the inbox's transaction.
 */
export const tenantErasureConsumer: ConsumerDef<RealtimeService> = {
  durable: 'realtime-voice-tenant-erasure',
  stream: 'IDENTITY',
  subjects: [IdentityTenantErasureEvents.requested.type],
  idempotency: 'inbox',
  handlers: [
    on(IdentityTenantErasureEvents.requested, async ({ envelope, data: e }, tx) => {
      const counts = await eraseTenantCalls(tx.db, e.tenant_id)
      await tx.emit(VoiceTenantErasureEvents.reported, tenantErasureReport(e, 'realtime-voice', counts), {
        tenant_id: envelope.tenant_id,
        workspace_id: envelope.workspace_id,
      })
    }),
  ],
}
