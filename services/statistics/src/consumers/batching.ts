import type { Delivery } from '@switchboard/events'
import { type ConsumerDef, systemCaller, type Tx } from '@switchboard/platform'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { StatisticsService } from '../context.ts'
import { applyNow } from '../db/aggregates.repository.ts'
import { countMessageBucketsNow } from '../db/conversations.repository.ts'
import { bumpDailyNow } from '../db/daily-stats.repository.ts'
import type { StatisticsDatabase } from '../db/database.ts'
import { deferCounters, type Pending, takePending } from '../db/pending.ts'
import { advancePositionNow } from '../db/positions.repository.ts'
import { writeBatchTickets } from '../db/tickets.repository.ts'
import type { Projection } from './projections.ts'

// Group commit. A commit waits for the disk (≈ 2 ms here, against ≈ 0.05 ms for a statement), and each event moved
// its counters (aggregates, DailyStats, message counts, the position) with a statement each: one event per
// transaction capped a projection at ≈ 600 events/s. Here several deliveries of one projection are applied in
// arrival order in ONE transaction: their inbox rows in one statement, each handler as alone, the counters they moved
// added up and written once (db/pending.ts), one commit; each delivery is acknowledged once it commits. If any of
// them throws, the batch is rolled back whole and its events are applied one by one, each in its own transaction:
// the one that threw is redelivered (or dead-lettered) as usual and the others are not held back by it.

/** Deliveries applied in one transaction at most. */
export const MAX_BATCH = 256

/** The unit of work a projection's handler gets, around a transaction opened here; a projection emits nothing. */
export function txOf(trx: Transaction<StatisticsDatabase>): Tx<StatisticsDatabase> {
  return {
    db: trx,
    caller: systemCaller(),
    emit: async (def) => {
      throw new Error(`a projection emits no events (${def.type})`)
    },
  }
}

/**
 * Every transaction of a projection starts by taking its lock (PostgreSQL): they all update its one position row
 * anyway, so they commit one after the other whatever this does; taken first, the lock keeps a batch holding some
 * rows and waiting for another batch's rows from ever meeting that batch waiting for its own (a deadlock).
 */
async function lockProjection(svc: StatisticsService, trx: Transaction<StatisticsDatabase>, def: Projection) {
  if (svc.dialect === 'postgres') await sql`select pg_advisory_xact_lock(12013, hashtext(${def.durable}))`.execute(trx)
}

/**
 * Records the batch's events in the inbox (one statement) and answers those recorded now: the others were applied
 * before (a redelivery, a replay) and are skipped, as handleOnce (@switchboard/events) skips them.
 */
async function claim(trx: Transaction<StatisticsDatabase>, def: Projection, batch: Delivery[]): Promise<Set<string>> {
  const ids = [...new Set(batch.map((d) => d.envelope.id))]
  const processed_at = new Date().toISOString()
  // the inbox belongs to @switchboard/events, not to the service's typed tables
  const rows = await (trx as unknown as Kysely<any>)
    .insertInto('inbox')
    .values(ids.map((event_id) => ({ consumer: def.durable, event_id, processed_at })))
    .onConflict((oc) => oc.columns(['consumer', 'event_id']).doNothing())
    .returning('event_id')
    .execute()
  return new Set(rows.map((r) => r.event_id as string))
}

/** The tickets and counters the batch's handlers moved, written once each, in one order (db/pending.ts). */
async function flush(trx: Transaction<StatisticsDatabase>, p: Pending): Promise<void> {
  const byId = <V>(m: Map<string, V>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  await writeBatchTickets(trx, p)
  const shares = [...p.shares.values()]
    .map((s) => ({ ...s, add: Object.fromEntries(Object.entries(s.add).filter(([, by]) => by !== 0)) }))
    .filter((s) => Object.keys(s.add).length > 0)
  await applyNow(trx, shares)
  for (const [date, day] of byId(p.daily)) await bumpDailyNow(trx, date, day.counters, day.now)
  await countMessageBucketsNow(
    trx,
    byId(p.messages).map(([, m]) => m),
  )
  if (p.position) {
    const { projection, seq, occurredAt, now } = p.position
    await advancePositionNow(trx, projection, seq, occurredAt, now)
  }
}

/** The batch in one transaction: each event once, in its order; true for those applied now. */
async function applyTogether(svc: StatisticsService, def: Projection, batch: Delivery[]): Promise<boolean[]> {
  return svc.db.transaction().execute(async (trx) => {
    await lockProjection(svc, trx, def)
    const fresh = await claim(trx, def, batch)
    const pending = deferCounters(trx)
    await def.prepare?.(
      svc,
      trx,
      batch.filter((d) => fresh.has(d.envelope.id)),
    )
    const applied: boolean[] = []
    for (const d of batch) {
      const now = fresh.delete(d.envelope.id) // a second copy of one event in the batch is seen already
      if (now) await def.handle(svc, d, txOf(trx))
      applied.push(now)
    }
    takePending(trx)
    await flush(trx, pending)
    return applied
  })
}

export type Outcome = { ok: true; applied: boolean } | { ok: false; error: unknown }

/**
 * Applies `batch` (in its order) once each: in one transaction, or, if any of them throws, one by one. An outcome
 * per delivery: applied now, seen already, or the error of its own transaction.
 */
export async function applyBatch(svc: StatisticsService, def: Projection, batch: Delivery[]): Promise<Outcome[]> {
  if (batch.length > 1) {
    try {
      return (await applyTogether(svc, def, batch)).map((applied) => ({ ok: true, applied }))
    } catch {
      // one of them throws (a partial event before its record, say): each alone
    }
  }
  const outcomes: Outcome[] = []
  for (const d of batch) {
    try {
      const [applied] = await applyTogether(svc, def, [d])
      outcomes.push({ ok: true, applied: applied ?? false })
    } catch (error) {
      outcomes.push({ ok: false, error })
    }
  }
  return outcomes
}

interface Waiting {
  delivery: Delivery
  resolve(): void
  reject(err: unknown): void
}

/** One projection's deliveries of one app, queued by its lanes and applied a batch at a time. */
function batcher(svc: StatisticsService, def: Projection) {
  const queue: Waiting[] = []
  let running = false
  const run = async () => {
    if (running || queue.length === 0) return
    running = true
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, MAX_BATCH)
        const outcomes = await applyBatch(
          svc,
          def,
          batch.map((w) => w.delivery),
        )
        batch.forEach((w, i) => {
          const o = outcomes[i]!
          if (o.ok) w.resolve()
          else w.reject(o.error)
        })
      }
    } finally {
      running = false
    }
  }
  return {
    submit(delivery: Delivery): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        queue.push({ delivery, resolve, reject })
        void run()
      })
    },
  }
}

const batchers = new WeakMap<StatisticsService, Map<string, ReturnType<typeof batcher>>>()

function batcherOf(svc: StatisticsService, def: Projection) {
  let mine = batchers.get(svc)
  if (!mine) {
    mine = new Map()
    batchers.set(svc, mine)
  }
  let b = mine.get(def.durable)
  if (!b) {
    b = batcher(svc, def)
    mine.set(def.durable, b)
  }
  return b
}

/**
 * A projection's consumer as `lanes` pull loops on its durable (each holds one delivery at a time, as every
 * consumer of the platform does), feeding one batcher per app: while a batch commits, the next one gathers. The
 * handler applies the inbox itself (idempotency `handler`), in the batch's transaction.
 */
export function batchedConsumers(def: Projection, lanes: number): ConsumerDef<StatisticsService>[] {
  return Array.from({ length: lanes }, () => ({
    durable: def.durable,
    stream: def.stream,
    subjects: def.subjects,
    idempotency: 'handler' as const,
    ...(def.options ? { options: def.options } : {}),
    handle: (svc: StatisticsService, delivery: Delivery) => batcherOf(svc, def).submit(delivery),
  }))
}
