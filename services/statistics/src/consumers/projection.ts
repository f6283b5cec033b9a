import type { Delivery } from '@switchboard/events'
import type { InboxConsumer, Tx } from '@switchboard/platform'
import type { StatisticsService } from '../context.ts'
import type { StatisticsDatabase } from '../db/database.ts'
import { flushWork, newUnitOfWork, type UnitOfWork } from '../db/unit-of-work.ts'

/** A read model's consumer: every event applied once (inbox), in batches of up to MAX_BATCH per transaction. */
export type Projection = InboxConsumer<StatisticsService, UnitOfWork>

/** Deliveries applied in one transaction at most. */
export const MAX_BATCH = 256

/**
 * Pull loops per projection and replica feeding its batches (each holds one delivery at a time, 10 pulled per
 * request): while a batch commits, the next one gathers.
 */
export const CONSUMER_LANES = 128

type Prepare = (work: UnitOfWork, events: readonly Delivery[], tx: Tx<StatisticsDatabase>) => Promise<void>

/**
 * A projection: its handlers add rows and counters to the batch's unit of work (db/unit-of-work.ts), written once
 * when the batch's handlers are through. Each batch's transaction first takes the projection's lock (PostgreSQL):
 * they all move its one position row anyway, so they commit one after the other whatever this does; taken first,
 * the lock keeps a batch holding some rows and waiting for another batch's rows from ever meeting that batch waiting
 * for its own (a deadlock). The position (the newest applied event's stream sequence and occurred_at, what
 * `stats_projection_lag_seconds` is measured from) moves with the batch's events, in their transaction.
 */
export function projection(
  def: Pick<Projection, 'durable' | 'stream' | 'subjects' | 'handlers'> & { prepare?: Prepare },
): Projection {
  const { prepare, ...rest } = def
  return {
    ...rest,
    idempotency: 'inbox',
    options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver }),
    batch: {
      size: MAX_BATCH,
      lanes: CONSUMER_LANES,
      async open(tx) {
        await tx.advisoryLock(`statistics-projection:${def.durable}`)
        return newUnitOfWork()
      },
      async prepare(work, events, tx) {
        const newest = events.reduce<Delivery | undefined>((a, d) => (a && a.seq >= d.seq ? a : d), undefined)
        if (newest) {
          work.position = {
            projection: def.durable,
            seq: newest.seq,
            occurredAt: new Date(newest.envelope.occurred_at).toISOString(),
            now: new Date().toISOString(),
          }
        }
        await prepare?.(work, events, tx)
      },
      flush: (work, tx) => flushWork(tx.db, work),
    },
  }
}
