import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// A workspace's satisfaction-survey settings beside its ticket settings: whether closing a ticket sends a survey and
// how many days its link answers. Existing rows keep the behaviour they had (on, 7 days).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .alterTable('ticket_settings')
    .addColumn('survey_enabled', t.bool, (c) => c.notNull().defaultTo(true))
    .execute()
  await db.schema
    .alterTable('ticket_settings')
    .addColumn('survey_expiry_days', 'integer', (c) => c.notNull().defaultTo(7))
    .execute()
}
