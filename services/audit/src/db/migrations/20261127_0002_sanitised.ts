import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// A record whose text had to be made storable (NUL → ␀, lone surrogate → �) says so (docs/api.md §12).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .alterTable('audit_logs')
    .addColumn('sanitised', t.bool, (c) => c.notNull().defaultTo(false))
    .execute()
}
