import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// Each projection's newest applied event (stream sequence and occurred_at): what its lag is measured from; while a
// rebuild runs, how far it has replayed its stream.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('projection_positions')
    .addColumn('projection', 'text', (c) => c.primaryKey())
    .addColumn('stream_seq', t.bigint, (c) => c.notNull())
    .addColumn('occurred_at', t.timestamp, (c) => c.notNull())
    .addColumn('applied_at', t.timestamp, (c) => c.notNull())
    .addColumn('rebuild_seq', t.bigint)
    .execute()
}
