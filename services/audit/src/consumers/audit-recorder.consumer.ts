import { AUDIT_RECORDED_TYPE } from '@switchboard/contracts'
import type { ConsumerDef, Outcome } from '@switchboard/platform'
import { recordAuditEvents } from '../commands/record.commands.ts'
import type { AuditService } from '../context.ts'

export const AUDIT_CONSUMER = 'audit-recorder'

/**
 * Stores every audit event of the AUDIT stream once. Idempotence is the unique `event_id` with
 * ON CONFLICT DO NOTHING rather than the inbox (`handleOnce`): the record is itself the proof the event
 * was applied, so one insert does in one statement what the inbox does with a transaction and a second
 * row per event, and retention has only one table to prune.
 *
 * Group commit (the platform's `batch` for handler consumers): the deliveries ready together, up to
 * `AUDIT_CONSUMER_BATCH_SIZE` with no wait added, are written by one multi-row statement, and each is acknowledged
 * once that statement committed. Text a store would refuse (NUL, unpaired surrogates) is made storable and the
 * record kept (`sanitised`). A record off its contract can never be stored: it is dead-lettered on its first
 * delivery (PoisonMessageError) with an error log naming it, alone — it never enters the statement; a failure of
 * the database is tried again record by record, retried and dead-lettered after max_deliver.
 */
export const auditRecorder: ConsumerDef<AuditService> = {
  durable: AUDIT_CONSUMER,
  stream: 'AUDIT',
  subjects: ['audit.>'],
  options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver, backoffMs: svc.config.consumer_backoff_ms }),
  idempotency: 'handler',
  batch: {
    size: (svc) => svc.config.consumer_batch_size,
    async handle(svc, deliveries) {
      const outcomes: Outcome[] = new Array(deliveries.length)
      const records: number[] = []
      deliveries.forEach((delivery, at) => {
        if (delivery.envelope.type === AUDIT_RECORDED_TYPE) {
          records.push(at)
          return
        }
        svc.log.debug(
          { component: 'audit-consumer', type: delivery.envelope.type, subject: delivery.subject },
          'not an audit record; skipped',
        )
        outcomes[at] = { ok: true, applied: false }
      })
      const stored = await recordAuditEvents(
        svc,
        records.map((at) => deliveries[at]!.envelope),
        'stream',
      )
      records.forEach((at, i) => {
        outcomes[at] = stored[i]!
      })
      return outcomes
    },
  },
}
