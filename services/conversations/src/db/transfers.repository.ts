import type { Kysely, Selectable } from 'kysely'
import type { ConversationsDatabase, TransfersTable } from './database.ts'

type Db = Kysely<ConversationsDatabase>
export type TransferRow = Selectable<TransfersTable>

export async function insertTransfer(db: Db, row: TransferRow): Promise<void> {
  await db.insertInto('transfers').values(row).execute()
}

/**
 * A session's latest `limit` hand-overs, oldest first (as a page of messages reads). The session itself was already
 * checked against the scope.
 */
export async function transfersOf(db: Db, sessionId: string, limit: number): Promise<TransferRow[]> {
  const rows = await db
    .selectFrom('transfers')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('transferred_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
  return rows.reverse()
}
