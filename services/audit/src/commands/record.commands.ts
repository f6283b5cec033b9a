import type { Envelope } from '@switchboard/contracts'
import { newId, PoisonMessageError } from '@switchboard/platform'
import type { AuditService } from '../context.ts'
import { recordFromEnvelope } from '../domain/record.ts'
import { storeAuditRecord } from './store-record.ts'

/** What became of one audit event: stored, already stored (a redelivery), or refused for good. */
export type RecordOutcome = 'stored' | 'duplicate'

/**
 * Stores one audit event, once (unique `event_id`), with its text made storable. An event off its contract can
 * never be stored: it is logged at error level with its ids and refused with a `PoisonMessageError`, which the bus
 * dead-letters at once (alert `EventBusPoisonMessages`) and the gateway's hand-over reports back. Anything else
 * that fails (the database) throws as it is and is retried. A record about a person erased before it arrived is
 * stored masked (commands/store-record.ts).
 */
export async function recordAuditEvent(
  svc: AuditService,
  envelope: Envelope<unknown>,
  source: string,
): Promise<RecordOutcome> {
  const result = recordFromEnvelope(envelope, newId())
  if (!result.ok) {
    const data = (envelope.data ?? {}) as { request_id?: unknown; action?: unknown }
    svc.log.error(
      {
        component: 'audit-recorder',
        source,
        event_id: envelope.id,
        request_id: data.request_id,
        action: data.action,
        reason: result.error,
      },
      'audit record rejected: it can never be stored',
    )
    throw new PoisonMessageError(result.error)
  }
  if (result.record.sanitised) {
    svc.log.info(
      {
        component: 'audit-recorder',
        source,
        event_id: envelope.id,
        request_id: result.record.request_id,
        action: result.record.action,
      },
      'audit record stored with NUL characters or unpaired surrogates replaced by markers',
    )
  }
  const { inserted, masked } = await storeAuditRecord(svc, result.record)
  if (masked) {
    svc.log.info(
      { component: 'audit-recorder', source, event_id: envelope.id, action: result.record.action },
      'audit record of an erased person masked on arrival',
    )
  }
  if (!inserted) svc.log.debug({ component: 'audit-recorder', event_id: envelope.id }, 'audit event already recorded')
  return inserted ? 'stored' : 'duplicate'
}
