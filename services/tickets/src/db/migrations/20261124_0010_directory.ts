import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// Identity's customers and agents as tickets needs them (references checked on write, auto-assignment), a
// projection of identity's events rebuilt by replay: never written by a request.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('directory_customers')
    .addColumn('customer_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    // the newest event applied: an older one redelivered later must not win
    .addColumn('event_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('directory_customers_scope_user_idx')
    .on('directory_customers')
    .columns(['tenant_id', 'workspace_id', 'user_id'])
    .execute()

  await db.schema
    .createTable('directory_agents')
    .addColumn('agent_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('max_concurrent', 'integer', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    // the record and its status change by different events, each applied only if newer than the last
    .addColumn('record_at', t.timestamp, (c) => c.notNull())
    .addColumn('status_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('directory_agents_scope_user_idx')
    .on('directory_agents')
    .columns(['tenant_id', 'workspace_id', 'user_id'])
    .execute()
  await db.schema
    .createIndex('directory_agents_scope_status_idx')
    .on('directory_agents')
    .columns(['tenant_id', 'workspace_id', 'status'])
    .execute()
}
