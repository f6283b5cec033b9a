import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// App integrations (README "App integrations"): one row per integration of a workspace, its secrets sealed in their
// own column; a slug is unique within its tenant and workspace.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('app_integrations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('vendor', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('icon_url', 'text')
    .addColumn('iframe_url', 'text', (c) => c.notNull())
    .addColumn('capabilities', t.json, (c) => c.notNull())
    .addColumn('config_schema', t.json, (c) => c.notNull())
    .addColumn('config', t.json, (c) => c.notNull())
    .addColumn('sealed_secrets', t.json, (c) => c.notNull())
    .addColumn('enabled', t.bool, (c) => c.notNull())
    .addColumn('last_sync_status', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('app_integrations_slug_key')
    .on('app_integrations')
    .columns(['tenant_id', 'workspace_id', 'slug'])
    .unique()
    .execute()
}
