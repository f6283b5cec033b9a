import { ERASED_TEXT } from '@switchboard/contracts'
import type { Kysely, Transaction } from 'kysely'
import type { AiDatabase } from './database.ts'

type Db = Kysely<AiDatabase> | Transaction<AiDatabase>

/** The tickets' titles tombstoned, their version moved to `at`/`id` (newest wins: an older event cannot undo it). */
export async function tombstoneIndexedTickets(db: Db, tickets: string[], at: string, id: string): Promise<number> {
  if (tickets.length === 0) return 0
  const r = await db
    .updateTable('ai_ticket_index')
    .set({ title: ERASED_TEXT, version_at: at, version_id: id })
    .where('ticket_id', 'in', tickets)
    .executeTakeFirst()
  return Number(r.numUpdatedRows)
}
