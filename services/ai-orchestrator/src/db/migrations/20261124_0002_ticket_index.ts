import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// What assist suggestions know of tickets: a projection of tickets' events (consumers/ticket-index.consumer.ts),
// newest event wins (version_at, version_id). The title is absent from events of tickets older than the contract's
// `title`; such a ticket has '' until its next update.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('ai_ticket_index')
    .addColumn('ticket_id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('version_at', t.timestamp, (c) => c.notNull())
    .addColumn('version_id', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('ai_ticket_index_scope_created_idx')
    .on('ai_ticket_index')
    .columns(['tenant_id', 'workspace_id', 'created_at'])
    .execute()
}
