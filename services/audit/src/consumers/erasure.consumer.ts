import { ErasureReportEvents, IdentityErasureEvents } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import type { AuditService } from '../context.ts'
import { addErasedSubjects, lockAuditLogs } from '../db/erased-subjects.repository.ts'
import { maskRecord, recordsOfPerson } from '../db/erasure.repository.ts'
import { type Subject, subjectOf } from '../domain/erased-subjects.ts'

export const ERASURE_CONSUMER = 'audit-erasure'

/** The only events audit emits: its erasure reports. */
export const AuditErasureEvents = { reported: ErasureReportEvents.audit } as const

/**
 * The right to erasure, audit's part: every record of the tenant that concerns the person keeps its action, actor
 * kind, resource, route, status and time, with the person's fields and identifiers masked (db/erasure.repository.ts);
 * then `audit.erasure.reported` (which the recorder skips: not an audit record). Applied once, in the inbox's
 * transaction; masking twice changes nothing. The person's ids, identifiers and resources are remembered as hashes
 * (`audit_erased_subjects`), so that a record about them arriving later is masked by the recorder on arrival
 * (commands/store-record.ts); the table is locked for the transaction so that no record slips between the two.
 */
export const erasureConsumer: ConsumerDef<AuditService> = {
  durable: ERASURE_CONSUMER,
  stream: 'IDENTITY',
  subjects: [IdentityErasureEvents.requested.type],
  idempotency: 'inbox',
  handlers: [
    on(IdentityErasureEvents.requested, async ({ envelope, data: e }, tx, svc) => {
      const tenant = envelope.tenant_id
      const person = { tenant_id: tenant, ids: [e.customer_id, e.user_id], identifiers: e.identifiers }
      // first: the recorder's inserts in flight finish before the scan, later ones wait for the subjects below
      await lockAuditLogs(tx.db, svc.dialect)
      const { rows: records, resources } = await recordsOfPerson(tx.db, svc.dialect, person)
      const subjects = [
        ...person.ids.map((id) => subjectOf(tenant, id, 'id')),
        ...e.identifiers.filter((i) => i.length >= 3).map((i) => subjectOf(tenant, i, 'identifier')),
        ...resources.map((id) => subjectOf(tenant, id, 'resource')),
      ].filter((s): s is Subject => s !== undefined)
      await addErasedSubjects(tx.db, tenant, e.erasure_id, subjects)
      for (const row of records) await maskRecord(tx.db, row, person)
      await tx.emit(
        AuditErasureEvents.reported,
        {
          erasure_id: e.erasure_id,
          customer_id: e.customer_id,
          service: 'audit',
          counts: { records_masked: records.length },
          completed_at: new Date().toISOString(),
        },
        { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id },
      )
    }),
  ],
}
