import { type Scope, storedIsOlder } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import { countMessageDay, moveSession } from './aggregates.repository.ts'
import type { SessionsTable, StatisticsDatabase } from './database.ts'
import type { StatsTx, UnitOfWork } from './unit-of-work.ts'

type Db = Kysely<StatisticsDatabase>

/**
 * A session's facts (every session event carries them whole). True when this made the row: the session is
 * counted once in DailyStats whichever of its events arrived first. Its aggregates move with the row (the row is
 * locked on PostgreSQL before it changes, so the status it moves from is the one another replica sees next).
 */
export async function projectSession(tx: StatsTx, row: SessionsTable): Promise<boolean> {
  const { db, work } = tx
  const made = await db
    .insertInto('sessions')
    .values(row)
    .onConflict((oc) => oc.column('session_id').doNothing())
    .executeTakeFirst()
  if (Number(made.numInsertedOrUpdatedRows ?? 0n) > 0) {
    moveSession(work, null, row)
    return true
  }
  const read = db
    .selectFrom('sessions')
    .select(['tenant_id', 'workspace_id', 'status', 'created_at'])
    .where('session_id', '=', row.session_id)
  const before = await tx.forUpdate(read).executeTakeFirst()
  const changed = await db
    .updateTable('sessions')
    .set({ status: row.status, version_at: row.version_at, version_id: row.version_id })
    .where('session_id', '=', row.session_id)
    .where(storedIsOlder('sessions', row))
    .executeTakeFirst()
  if (before && Number(changed.numUpdatedRows) > 0) moveSession(work, before, { ...before, status: row.status })
  return false
}

/** One more message in a scope's quarter hour and day, added up in the batch's unit of work. */
export function countMessage(work: UnitOfWork, scope: Scope, createdAt: string, bucket: string): void {
  countMessageDay(work, scope, createdAt)
  const id = `${scope.tenant_id}\u0000${scope.workspace_id}\u0000${bucket}`
  const row = work.messages.get(id) ?? { scope, bucket, count: 0 }
  row.count += 1
  work.messages.set(id, row)
}

/**
 * Several scopes' quarter hours, each `count` more messages, a few hundred per statement (a batch's flush): one
 * upsert adding to what the row holds, so replicas add up.
 */
export async function writeMessageCounts(
  db: Db,
  buckets: ReadonlyArray<{ scope: { tenant_id: string; workspace_id: string }; bucket: string; count: number }>,
): Promise<void> {
  for (let i = 0; i < buckets.length; i += 200) {
    await db
      .insertInto('message_counts')
      .values(
        buckets.slice(i, i + 200).map(({ scope, bucket, count }) => ({
          tenant_id: scope.tenant_id,
          workspace_id: scope.workspace_id,
          bucket,
          count,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'workspace_id', 'bucket']).doUpdateSet((eb) => ({
          count: eb(eb.ref('message_counts.count'), '+', eb.ref('excluded.count')),
        })),
      )
      .execute()
  }
}
