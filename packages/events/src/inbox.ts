import type { Envelope } from '@switchboard/contracts'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { EventsTables } from './migrations.ts'

// The inbox's rows belong to this package, not to a service's typed tables: these operations take any Kysely
// (a service's transaction) and reach the table through its own types, so that no service has to.

const inboxOf = (db: Kysely<any> | Transaction<any>) => db as unknown as Kysely<EventsTables>

/**
 * Records `ids` as applied by `consumer`, in `trx`, in one statement; answers the ids recorded now (the others were
 * applied before: a redelivery, a replay, a second copy). On a concurrent duplicate PostgreSQL makes the insert wait
 * for the other transaction, so exactly one of them claims an event. Rolled back with `trx`.
 */
export async function claimInbox<DB>(
  trx: Transaction<DB>,
  consumer: string,
  ids: readonly string[],
): Promise<Set<string>> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Set()
  const processed_at = new Date().toISOString()
  const rows = await inboxOf(trx)
    .insertInto('inbox')
    .values(unique.map((event_id) => ({ consumer, event_id, processed_at })))
    .onConflict((oc) => oc.columns(['consumer', 'event_id']).doNothing())
    .returning('event_id')
    .execute()
  return new Set(rows.map((r) => r.event_id))
}

/** Which of `ids` `consumer` has applied (their inbox rows), read in `db`. */
export async function appliedOf<DB>(
  db: Kysely<DB> | Transaction<DB>,
  consumer: string,
  ids: readonly string[],
): Promise<Set<string>> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Set()
  const rows = await inboxOf(db)
    .selectFrom('inbox')
    .select('event_id')
    .where('consumer', '=', consumer)
    .where('event_id', 'in', unique)
    .execute()
  return new Set(rows.map((r) => r.event_id))
}

/** Forgets every event `consumer` applied (a projection emptied to be replayed applies them again). */
export async function forgetInbox<DB>(db: Kysely<DB> | Transaction<DB>, consumer: string): Promise<void> {
  await inboxOf(db).deleteFrom('inbox').where('consumer', '=', consumer).execute()
}

/**
 * Applies an event once per consumer: records the event id in the inbox and runs `fn` in the same
 * transaction. A redelivered (or replayed) event finds its row and is skipped; if `fn` throws, the
 * transaction, inbox row included, rolls back and the event will be applied on a later delivery.
 * Resolves true when `fn` ran, false when the event had already been applied.
 */
export async function handleOnce<DB>(
  db: Kysely<DB>,
  consumer: string,
  envelope: Pick<Envelope, 'id'>,
  fn: (trx: Transaction<DB>) => Promise<void>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await claimInbox(trx, consumer, [envelope.id])).has(envelope.id)) return false
    await fn(trx)
    return true
  })
}

/**
 * Deletes inbox rows processed before `before` (older than any redelivery or replay you expect), `batch` rows per
 * statement so that a large backlog never holds one long transaction; stops between batches once `signal` aborts.
 * Resolves with the rows deleted.
 */
export async function pruneInbox(
  db: Kysely<any>,
  before: Date,
  opts: { batch?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const batch = opts.batch ?? 5000
  const cutoff = before.toISOString()
  let total = 0
  for (;;) {
    const result = await sql`
      delete from inbox where (consumer, event_id) in (
        select consumer, event_id from inbox where processed_at < ${cutoff} limit ${batch}
      )
    `.execute(db)
    const deleted = Number(result.numAffectedRows ?? 0n)
    total += deleted
    if (deleted < batch || opts.signal?.aborted) return total
  }
}
