import { IdentityTenantErasureEvents, TenantErasureReportEvents, tenantErasureReport } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import { deleteUploadRows } from '../db/erasure.repository.ts'
import { tenantUploadIds, tombstoneTenant } from '../db/erasure-tenant.repository.ts'

/** What conversations emits for a tenant's erasure: its report. */
export const ConversationTenantErasureEvents = { reported: TenantErasureReportEvents.conversations } as const

/**
 * A tenant's erasure, conversations' part (db/erasure-tenant.repository.ts): all the tenant's conversations
 * tombstoned, its uploads deleted with their bytes, its projections' names forgotten; then
 * `conversations.tenant_erasure.reported`. In the inbox's transaction: a kill -9 half way replays it whole, a second
 * delivery is skipped; file-store bytes already deleted are simply missing on the replay.
 */
export const tenantErasureConsumer: ConsumerDef<ConversationsService> = {
  durable: 'conversations-tenant-erasure',
  stream: 'IDENTITY',
  subjects: [IdentityTenantErasureEvents.requested.type],
  idempotency: 'inbox',
  options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver }),
  handlers: [
    on(IdentityTenantErasureEvents.requested, async ({ envelope, data: e }, tx, svc) => {
      const counts = await tombstoneTenant(tx.db, e.tenant_id, new Date(envelope.occurred_at).toISOString())
      const uploads = await tenantUploadIds(tx.db, e.tenant_id)
      counts.uploads_deleted = await deleteUploadRows(tx.db, uploads)
      if (svc.blobs.kind === 'file') for (const id of uploads) await svc.blobs.delete(id)
      await tx.emit(ConversationTenantErasureEvents.reported, tenantErasureReport(e, 'conversations', counts), {
        tenant_id: envelope.tenant_id,
        workspace_id: envelope.workspace_id,
      })
    }),
  ],
}
