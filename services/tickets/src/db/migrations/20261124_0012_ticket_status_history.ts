import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// Every status a ticket took, written by the command that changed it (GET /api/tickets/:id/history). Tickets
// older than this migration start their history at their next change.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('ticket_status_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ticket_id', 'text', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    // null on creation
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('ticket_status_history_ticket_idx')
    .on('ticket_status_history')
    .columns(['ticket_id', 'created_at'])
    .execute()
}
