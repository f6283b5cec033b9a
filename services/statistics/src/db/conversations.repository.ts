import type { Kysely } from 'kysely'
import type { SessionsTable, StatisticsDatabase } from './database.ts'
import { storedIsOlder } from './versions.ts'

type Db = Kysely<StatisticsDatabase>

/**
 * A session's facts (every session event carries them whole). True when this made the row: the session is
 * counted once in DailyStats whichever of its events arrived first.
 */
export async function projectSession(db: Db, row: SessionsTable): Promise<boolean> {
  const made = await db
    .insertInto('sessions')
    .values(row)
    .onConflict((oc) => oc.column('session_id').doNothing())
    .executeTakeFirst()
  if (Number(made.numInsertedOrUpdatedRows ?? 0n) > 0) return true
  await db
    .updateTable('sessions')
    .set({ status: row.status, version_at: row.version_at, version_id: row.version_id })
    .where('session_id', '=', row.session_id)
    .where(storedIsOlder('sessions', row))
    .execute()
  return false
}

/** One more message in a scope's quarter hour (one statement: replicas add up). */
export async function countMessage(
  db: Db,
  scope: { tenant_id: string; workspace_id: string },
  bucket: string,
): Promise<void> {
  await db
    .insertInto('message_counts')
    .values({ ...scope, bucket, count: 1 })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'workspace_id', 'bucket']).doUpdateSet((eb) => ({
        count: eb(eb.ref('message_counts.count'), '+', 1),
      })),
    )
    .execute()
}
