import { IdentityTenantErasureEvents, TenantErasureReportEvents } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import type { AuditService } from '../context.ts'
import { maskTenantRecords } from '../db/erasure-tenant.repository.ts'

/** What audit emits for a tenant's erasure: its report (which the recorder skips: not an audit record). */
export const AuditTenantErasureEvents = { reported: TenantErasureReportEvents.audit } as const

/**
 * A tenant's erasure, audit's part (db/erasure-tenant.repository.ts): the tenant's records keep the action, not the
 * people; then `audit.tenant_erasure.reported`. Applied once, in the inbox's transaction.
 */
export const tenantErasureConsumer: ConsumerDef<AuditService> = {
  durable: 'audit-tenant-erasure',
  stream: 'IDENTITY',
  subjects: [IdentityTenantErasureEvents.requested.type],
  idempotency: 'inbox',
  handlers: [
    on(IdentityTenantErasureEvents.requested, async ({ envelope, data: e }, tx) => {
      const masked = await maskTenantRecords(tx.db, e)
      await tx.emit(
        AuditTenantErasureEvents.reported,
        {
          tenant_erasure_id: e.tenant_erasure_id,
          tenant_id: e.tenant_id,
          service: 'audit',
          counts: { records_masked: masked },
          completed_at: new Date().toISOString(),
        },
        { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id },
      )
    }),
  ],
}
