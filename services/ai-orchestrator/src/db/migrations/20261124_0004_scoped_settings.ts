import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// A tenant's and a workspace's stored LLM and knowledge-provider overrides, from config-governance's
// `config.scope.changed` (consumers/config-overrides.consumer.ts); `workspace_id` '' is the tenant's own. Secrets are
// kept sealed as the event carried them.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('ai_scoped_settings')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('llm', t.json)
    .addColumn('knowledge_provider', t.json)
    .addColumn('sealed_secrets', t.json, (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('ai_scoped_settings_pk', ['tenant_id', 'workspace_id'])
    .execute()
}
