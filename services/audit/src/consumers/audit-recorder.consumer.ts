import { AUDIT_RECORDED_TYPE } from '@switchboard/contracts'
import type { ConsumerDef } from '@switchboard/platform'
import { recordAuditEvent } from '../commands/record.commands.ts'
import type { AuditService } from '../context.ts'

export const AUDIT_CONSUMER = 'audit-recorder'

/**
 * Stores every audit event of the AUDIT stream once. Idempotence is the unique `event_id` with
 * ON CONFLICT DO NOTHING rather than the inbox (`handleOnce`): the record is itself the proof the event
 * was applied, so one insert does in one statement what the inbox does with a transaction and a second
 * row per event, and retention has only one table to prune.
 *
 * Text a store would refuse (NUL, unpaired surrogates) is made storable and the record kept (`sanitised`). A
 * record off its contract can never be stored: it is dead-lettered on its first delivery (PoisonMessageError)
 * with an error log naming it, rather than retried into the dead-letter stream silently; a failure of the
 * database is retried and dead-lettered after max_deliver.
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
    await recordAuditEvent(svc, envelope, 'stream')
  },
}
