import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

/**
 * The console's inbox (README "Inbox"): read markers per (session, user), customers' display names in their
 * projection (filled by identity's next `identity.customer.upserted`, or a replay; '' until then), and the indexes
 * its keyset pages walk — newest activity first (`updated_at`, `id`) within a scope, by agent (mine, unassigned:
 * agent_id null) and by status (waiting). A reconnecting console's `changed_since` walks the same scope index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .alterTable('customers')
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .execute()
  await db.schema
    .createTable('session_reads')
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('last_read_seq', 'integer', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('session_reads_pk', ['session_id', 'user_id'])
    .execute()
  // a console's resync: its own markers moved since (another tab read a conversation)
  await db.schema
    .createIndex('session_reads_user_changed_idx')
    .on('session_reads')
    .columns(['user_id', 'tenant_id', 'workspace_id', 'updated_at'])
    .execute()
  await db.schema
    .createIndex('sessions_scope_activity_idx')
    .on('sessions')
    .columns(['tenant_id', 'workspace_id', 'updated_at', 'id'])
    .execute()
  await db.schema
    .createIndex('sessions_scope_agent_activity_idx')
    .on('sessions')
    .columns(['tenant_id', 'workspace_id', 'agent_id', 'updated_at', 'id'])
    .execute()
  await db.schema
    .createIndex('sessions_scope_status_activity_idx')
    .on('sessions')
    .columns(['tenant_id', 'workspace_id', 'status', 'updated_at', 'id'])
    .execute()
}
