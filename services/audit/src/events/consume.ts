import { AUDIT_RECORDED_TYPE } from '@switchboard/contracts'
import type { EventBus, Subscription } from '@switchboard/events'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import { v7 as uuidv7 } from 'uuid'
import { insertAuditLog } from '../db/audit-logs.repository.ts'
import type { AuditDatabase } from '../db/database.ts'
import { recordFromEnvelope } from '../domain/record.ts'

export const AUDIT_CONSUMER = 'audit-recorder'

export interface AuditConsumerOptions {
  bus: EventBus
  db: Kysely<AuditDatabase>
  logger: Logger
  maxDeliver?: number
  backoffMs?: number[]
}

/**
 * Stores every audit event of the AUDIT stream once. Idempotence is the unique `event_id` with
 * ON CONFLICT DO NOTHING rather than the inbox (`handleOnce`): the record is itself the proof the event
 * was applied, so one insert does in one statement what the inbox does with a transaction and a second
 * row per event, and retention has only one table to prune.
 *
 * A record that fails validation throws: it is redelivered and, after max_deliver, dead-lettered where
 * `switchboard dead-letters` shows it, rather than being dropped silently.
 */
export function startAuditConsumer(opts: AuditConsumerOptions): Promise<Subscription> {
  const log = opts.logger.child({ component: 'audit-consumer' })
  return opts.bus.consume(
    {
      durable: AUDIT_CONSUMER,
      stream: 'AUDIT',
      filterSubjects: ['audit.>'],
      maxDeliver: opts.maxDeliver,
      backoffMs: opts.backoffMs,
    },
    async (delivery) => {
      const { envelope } = delivery
      if (envelope.type !== AUDIT_RECORDED_TYPE) {
        log.debug({ type: envelope.type, subject: delivery.subject }, 'not an audit record; skipped')
        return
      }
      const result = recordFromEnvelope(envelope, uuidv7())
      if (!result.ok) throw new Error(result.error)
      const inserted = await insertAuditLog(opts.db, result.record)
      if (!inserted) log.debug({ event_id: envelope.id }, 'audit event already recorded')
    },
  )
}
