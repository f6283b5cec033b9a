import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// Kysely<unknown>: a migration is schema building, typed against no table (the tables are what it makes).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('audit_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('actor_user_id', 'text', (c) => c.notNull())
    .addColumn('principal_kind', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('success', t.bool, (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('client_ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('request_json', t.json)
    .addColumn('before_json', t.json)
    .addColumn('after_json', t.json)
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .execute()
  // Every list is newest first, usually scoped; each filter gets an index that also serves that order.
  // Retention deletes by created_at alone.
  const indexes: Array<[string, string[]]> = [
    ['audit_logs_created_idx', ['created_at']],
    ['audit_logs_scope_created_idx', ['tenant_id', 'workspace_id', 'created_at']],
    ['audit_logs_action_created_idx', ['action', 'created_at']],
    ['audit_logs_resource_created_idx', ['resource_type', 'created_at']],
    ['audit_logs_actor_created_idx', ['actor_user_id', 'created_at']],
    ['audit_logs_principal_created_idx', ['principal_kind', 'created_at']],
  ]
  for (const [name, columns] of indexes) await db.schema.createIndex(name).on('audit_logs').columns(columns).execute()
}
