import type { Kysely } from 'kysely'
import type { AiDatabase, AiRepliesTable } from './database.ts'

type Db = Kysely<AiDatabase>

/** Has this customer message been answered (or handed over) already? */
export async function findReply(db: Db, message_id: string) {
  return db.selectFrom('ai_replies').selectAll().where('message_id', '=', message_id).executeTakeFirst()
}

/** Claims a message before answering it (`outcome: 'pending'`); false when a row for it exists already. */
export async function claimReply(db: Db, row: AiRepliesTable): Promise<boolean> {
  const res = await db
    .insertInto('ai_replies')
    .values(row)
    .onConflict((oc) => oc.column('message_id').doNothing())
    .executeTakeFirst()
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0
}

/** The outcome of a claimed message, once its answer is written (or it turned out to need none). */
export async function settleReply(db: Db, message_id: string, outcome: string, query_id: string | null) {
  await db.updateTable('ai_replies').set({ outcome, query_id }).where('message_id', '=', message_id).execute()
}
