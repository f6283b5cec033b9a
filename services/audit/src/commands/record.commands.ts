import type { Envelope } from '@switchboard/contracts'
import { newId, type Outcome, PoisonMessageError } from '@switchboard/platform'
import type { AuditService } from '../context.ts'
import { recordFromEnvelope } from '../domain/record.ts'
import type { AuditLog } from '../schemas/audit.schemas.ts'
import { type Stored, storeAuditRecords } from './store-record.ts'

/**
 * Stores audit events, once each (unique `event_id`), with their text made storable, in one statement for the lot
 * (commands/store-record.ts; a record about a person erased before it arrived is stored masked). Answers per event,
 * in order: `applied` true when written now, false when stored already (a redelivery). An event off its contract can
 * never be stored: it is logged at error level with its ids and answered with a `PoisonMessageError`, which the bus
 * dead-letters at once (alert `EventBusPoisonMessages`) and the gateway's hand-over reports back; it never enters the
 * statement. If the statement fails (the database), each record is tried alone, so that one the database refuses
 * fails by itself and is retried while the others are stored.
 */
export async function recordAuditEvents(
  svc: AuditService,
  envelopes: readonly Envelope<unknown>[],
  source: string,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(envelopes.length)
  const records: Array<{ at: number; record: AuditLog }> = []
  envelopes.forEach((envelope, at) => {
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
      outcomes[at] = { ok: false, error: new PoisonMessageError(result.error) }
      return
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
    records.push({ at, record: result.record })
  })
  const stored = await storeTogether(
    svc,
    records.map((r) => r.record),
  )
  records.forEach(({ at, record }, i) => {
    const s = stored[i]!
    if (!s.ok) {
      outcomes[at] = { ok: false, error: s.error }
      return
    }
    if (s.masked) {
      svc.log.info(
        { component: 'audit-recorder', source, event_id: record.event_id, action: record.action },
        'audit record of an erased person masked on arrival',
      )
    }
    if (!s.inserted)
      svc.log.debug({ component: 'audit-recorder', event_id: record.event_id }, 'audit event already recorded')
    outcomes[at] = { ok: true, applied: s.inserted }
  })
  return outcomes
}

/** All in one statement, or, when it fails, each alone with its own error. */
async function storeTogether(svc: AuditService, records: readonly AuditLog[]): Promise<Stored[]> {
  try {
    return await storeAuditRecords(svc, records)
  } catch (error) {
    if (records.length === 1) return [{ ok: false, error: asError(error) }]
    svc.log.warn(
      { component: 'audit-recorder', err: error, records: records.length },
      'batch insert failed; one by one',
    )
  }
  const alone: Stored[] = []
  for (const record of records) {
    try {
      alone.push(...(await storeAuditRecords(svc, [record])))
    } catch (error) {
      alone.push({ ok: false, error: asError(error) })
    }
  }
  return alone
}

const asError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)))
