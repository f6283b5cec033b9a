import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// Tickets as a customer's activity shows them (GET /api/customers/:id/activity): a projection of tickets' ticket
// events (consumers/customer-tickets.consumer.ts), rebuilt by replaying the TICKETS stream, never written by a request.
// `customer_id` is the customer's user id, as sessions carry it. `version_at`/`version_id`: the newest event applied.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('customer_tickets')
    .addColumn('ticket_id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('agent_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('version_at', t.timestamp, (c) => c.notNull())
    .addColumn('version_id', 'text', (c) => c.notNull())
    .execute()
  // a customer's newest tickets
  await db.schema
    .createIndex('customer_tickets_customer_idx')
    .on('customer_tickets')
    .columns(['tenant_id', 'workspace_id', 'customer_id', 'created_at'])
    .execute()
}
