import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('macros')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('active', t.bool, (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute()
  // a name is unique in its scope: two concurrent creates of one name meet here (409)
  await db.schema
    .createIndex('macros_name_key')
    .on('macros')
    .columns(['tenant_id', 'workspace_id', 'name'])
    .unique()
    .execute()
}
