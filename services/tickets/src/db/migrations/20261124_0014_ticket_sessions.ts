import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// The conversations a ticket continues (GET /api/tickets/:id/conversations): a projection of conversations'
// session events whose session carries a ticket_id, rebuilt by replay.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('ticket_sessions')
    .addColumn('session_id', 'text', (c) => c.primaryKey())
    .addColumn('ticket_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text')
    .addColumn('agent_id', 'text')
    .addColumn('started_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_message_at', t.timestamp)
    .addColumn('ended_at', t.timestamp)
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    // the newest event applied: an older one redelivered later must not win
    .addColumn('event_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('ticket_sessions_ticket_idx')
    .on('ticket_sessions')
    .columns(['ticket_id', 'started_at'])
    .execute()
}
