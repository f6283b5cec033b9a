import { ErasureReportEvents, IdentityErasureEvents } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import type { AuditService } from '../context.ts'
import { maskRecord, recordsOfPerson } from '../db/erasure.repository.ts'

export const ERASURE_CONSUMER = 'audit-erasure'

/** The only events audit emits: its erasure reports. */
export const AuditErasureEvents = { reported: ErasureReportEvents.audit } as const

/**
 * The right to erasure, audit's part: every record of the tenant that concerns the person keeps its action, actor
 * kind, resource, route, status and time, with the person's fields and identifiers masked (db/erasure.repository.ts);
 * then `audit.erasure.reported` (which the recorder skips: not an audit record). Applied once, in the inbox's
 * transaction; masking twice changes nothing.
 */
export const erasureConsumer: ConsumerDef<AuditService> = {
  durable: ERASURE_CONSUMER,
  stream: 'IDENTITY',
  subjects: [IdentityErasureEvents.requested.type],
  idempotency: 'inbox',
  handlers: [
    on(IdentityErasureEvents.requested, async ({ envelope, data: e }, tx, svc) => {
      const person = { tenant_id: envelope.tenant_id, ids: [e.customer_id, e.user_id], identifiers: e.identifiers }
      const records = await recordsOfPerson(tx.db, svc.dialect, person)
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
