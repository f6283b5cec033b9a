import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// Identity's customers as conversations needs them: a session's customer is checked against them (README
// "References"). A projection of identity's events rebuilt by replay, never written by a request.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('customers')
    .addColumn('customer_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    // the occurred_at of the newest event applied: an older one redelivered later must not win
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('customers_scope_user_idx')
    .on('customers')
    .columns(['tenant_id', 'workspace_id', 'user_id'])
    .execute()
}
