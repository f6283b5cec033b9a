import { IdentityTenantErasureEvents, TenantErasureReportEvents, tenantErasureReport } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import type { ConfigGovernanceService } from '../context.ts'
import { eraseTenantConfig } from '../db/erasure-tenant.repository.ts'

/** What config-governance emits for a tenant's erasure: its report. */
export const ConfigTenantErasureEvents = { reported: TenantErasureReportEvents.config } as const

/**
 * A tenant's erasure, config-governance's part: the tenant's governed documents, their history, approvals,
 * verifications and pending changes emptied of people and text (tokenised), its app integrations deleted
 * (db/erasure-tenant.repository.ts), then `config.tenant_erasure.reported`. Applied once, in the inbox's transaction.
 * A customer's erasure does not concern it: nothing here is held per customer. The public portal's answer, cached
 * per replica for PORTAL_CACHE_MS (250 ms by default), follows within that.
 */
export const tenantErasureConsumer: ConsumerDef<ConfigGovernanceService> = {
  durable: 'config-governance-tenant-erasure',
  stream: 'IDENTITY',
  subjects: [IdentityTenantErasureEvents.requested.type],
  idempotency: 'inbox',
  handlers: [
    on(IdentityTenantErasureEvents.requested, async ({ envelope, data: e }, tx, svc) => {
      const now = new Date().toISOString()
      const counts = await eraseTenantConfig(tx.db, svc.box, e.tenant_id, now)
      await tx.emit(ConfigTenantErasureEvents.reported, tenantErasureReport(e, 'config-governance', counts, now), {
        tenant_id: envelope.tenant_id,
        workspace_id: envelope.workspace_id,
      })
    }),
  ],
}
