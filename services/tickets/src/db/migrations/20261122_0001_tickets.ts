import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('tickets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('agent_id', 'text')
    .addColumn('session_id', 'text')
    .addColumn('category', 'text', (c) => c.notNull().defaultTo('general'))
    .addColumn('priority', 'text', (c) => c.notNull().defaultTo('normal'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('web'))
    .addColumn('tags', t.json, (c) => c.notNull())
    .addColumn('custom_fields', t.json, (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('resolved_at', t.timestamp)
    .addColumn('closed_at', t.timestamp)
    .execute()
  // Lists are always scoped and newest first; the usual filters ride on the scope prefix.
  await db.schema
    .createIndex('tickets_scope_created_idx')
    .on('tickets')
    .columns(['tenant_id', 'workspace_id', 'created_at'])
    .execute()
  await db.schema
    .createIndex('tickets_scope_status_idx')
    .on('tickets')
    .columns(['tenant_id', 'workspace_id', 'status'])
    .execute()
  await db.schema.createIndex('tickets_customer_idx').on('tickets').column('customer_id').execute()
  await db.schema.createIndex('tickets_agent_idx').on('tickets').column('agent_id').execute()

  await db.schema
    .createTable('ticket_comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ticket_id', 'text', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('comment'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('ticket_comments_ticket_idx')
    .on('ticket_comments')
    .columns(['ticket_id', 'created_at'])
    .execute()
}
