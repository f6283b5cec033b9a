import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// Custom field definitions per scope, and each ticket's values as index rows for `cf.<key>=` filters (the
// ticket's `custom_fields` JSON stays what is read and returned).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('custom_fields')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('required', t.bool, (c) => c.notNull())
    .addColumn('active', t.bool, (c) => c.notNull())
    .addColumn('options', t.json, (c) => c.notNull())
    .addColumn('validation', t.json, (c) => c.notNull())
    .addColumn('show_when', t.json)
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute()
  // One key per scope: the database settles two concurrent creates of the same key.
  await db.schema
    .createIndex('custom_fields_scope_key')
    .on('custom_fields')
    .columns(['tenant_id', 'workspace_id', 'key'])
    .unique()
    .execute()

  await db.schema
    .createTable('ticket_custom_values')
    .addColumn('ticket_id', 'text', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value_text', 'text', (c) => c.notNull())
    .addColumn('value_number', 'double precision')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    // a multiselect holds one row per choice
    .addPrimaryKeyConstraint('ticket_custom_values_pk', ['ticket_id', 'key', 'value_text'])
    .execute()
  await db.schema
    .createIndex('ticket_custom_values_text_idx')
    .on('ticket_custom_values')
    .columns(['tenant_id', 'workspace_id', 'key', 'value_text'])
    .execute()
  await db.schema
    .createIndex('ticket_custom_values_number_idx')
    .on('ticket_custom_values')
    .columns(['tenant_id', 'workspace_id', 'key', 'value_number'])
    .execute()
}
