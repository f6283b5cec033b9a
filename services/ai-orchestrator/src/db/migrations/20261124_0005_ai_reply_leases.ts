import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// The lease of an AI reply's claim (db/replies.repository.ts): which attempt holds a pending message
// (`claimed_by`) and until when (`claimed_until`, renewed while it works). A pending row without a lease (claimed
// before this migration) counts as expired. One column per statement: SQLite adds one at a time.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema.alterTable('ai_replies').addColumn('claimed_by', 'text').execute()
  await db.schema.alterTable('ai_replies').addColumn('claimed_until', t.timestamp).execute()
}
