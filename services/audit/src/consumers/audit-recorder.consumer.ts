import { AUDIT_RECORDED_TYPE } from '@switchboard/contracts'
import { type ConsumerDef, newId } from '@switchboard/platform'
import type { AuditService } from '../context.ts'
import { insertAuditLog } from '../db/audit-logs.repository.ts'
import { recordFromEnvelope } from '../domain/record.ts'

export const AUDIT_CONSUMER = 'audit-recorder'

/**
 * Stores every audit event of the AUDIT stream once. Idempotence is the unique `event_id` with
 * ON CONFLICT DO NOTHING rather than the inbox (`handleOnce`): the record is itself the proof the event
 * was applied, so one insert does in one statement what the inbox does with a transaction and a second
 * row per event, and retention has only one table to prune.
 *
 * A record that fails validation throws: it is redelivered and, after max_deliver, dead-lettered where
 * `switchboard dead-letters` shows it, rather than being dropped silently.
 */
export const auditRecorder: ConsumerDef<AuditService> = {
  durable: AUDIT_CONSUMER,
  stream: 'AUDIT',
  subjects: ['audit.>'],
  options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver, backoffMs: svc.config.consumer_backoff_ms }),
  idempotency: 'handler',
  async handle(svc, delivery) {
    const { envelope } = delivery
    if (envelope.type !== AUDIT_RECORDED_TYPE) {
      svc.log.debug(
        { component: 'audit-consumer', type: envelope.type, subject: delivery.subject },
        'not an audit record; skipped',
      )
      return
    }
    const result = recordFromEnvelope(envelope, newId())
    if (!result.ok) throw new Error(result.error)
    const inserted = await insertAuditLog(svc.db, result.record)
    if (!inserted) svc.log.debug({ component: 'audit-consumer', event_id: envelope.id }, 'audit event already recorded')
  },
}
