import { IdentityTenantErasureEvents, TenantErasureReportEvents, tenantErasureReport } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import type { AuditService } from '../context.ts'
import { addErasedSubjects, lockAuditLogs } from '../db/erased-subjects.repository.ts'
import { maskTenantRecords } from '../db/erasure-tenant.repository.ts'
import { type Subject, subjectOf } from '../domain/erased-subjects.ts'

/** What audit emits for a tenant's erasure: its report (which the recorder skips: not an audit record). */
export const AuditTenantErasureEvents = { reported: TenantErasureReportEvents.audit } as const

/**
 * A tenant's erasure, audit's part (db/erasure-tenant.repository.ts): the tenant's records keep the action, not the
 * people; then `audit.tenant_erasure.reported`. Applied once, in the inbox's transaction. Its people's account ids and
 * the identifiers are remembered as hashed subjects (`audit_erased_subjects`, as for a customer's erasure), so a
 * record done by or naming one of them that arrives later is masked by the recorder; the table is locked first so
 * that none slips between the scan and the subjects.
 */
export const tenantErasureConsumer: ConsumerDef<AuditService> = {
  durable: 'audit-tenant-erasure',
  stream: 'IDENTITY',
  subjects: [IdentityTenantErasureEvents.requested.type],
  idempotency: 'inbox',
  handlers: [
    on(IdentityTenantErasureEvents.requested, async ({ envelope, data: e }, tx, svc) => {
      await lockAuditLogs(tx.db, svc.dialect)
      const subjects = [
        ...e.user_ids.map((id) => subjectOf(e.tenant_id, id, 'id')),
        ...e.identifiers.map((i) => subjectOf(e.tenant_id, i, 'identifier')),
      ].filter((s): s is Subject => s !== undefined)
      await addErasedSubjects(tx.db, e.tenant_id, e.tenant_erasure_id, subjects)
      const masked = await maskTenantRecords(tx.db, e)
      await tx.emit(AuditTenantErasureEvents.reported, tenantErasureReport(e, 'audit', { records_masked: masked }), {
        tenant_id: envelope.tenant_id,
        workspace_id: envelope.workspace_id,
      })
    }),
  ],
}
