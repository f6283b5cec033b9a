import type { Envelope } from '@switchboard/contracts'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { EventsTables } from './migrations.ts'

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
    const inbox = trx as unknown as Transaction<EventsTables>
    // On a concurrent duplicate, PostgreSQL makes this insert wait for the other transaction, so
    // exactly one of them applies the event.
    const result = await inbox
      .insertInto('inbox')
      .values({ consumer, event_id: envelope.id, processed_at: new Date().toISOString() })
      .onConflict((oc) => oc.columns(['consumer', 'event_id']).doNothing())
      .executeTakeFirst()
    if (Number(result.numInsertedOrUpdatedRows ?? 0n) === 0) return false
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
