import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// config-governance's tables (README "Storage"): current overrides per scope, the change history with its
// governance state, approvals and verifications.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('scoped_configs')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('document', t.json, (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('scoped_configs_pk', ['tenant_id', 'workspace_id'])
    .execute()

  await db.schema
    .createTable('config_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'text', (c) => c.notNull())
    .addColumn('change_ref', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('approval_ref', 'text')
    .addColumn('source_change_id', 'text')
    .addColumn('rolled_back_by', 'text')
    .addColumn('before_doc', t.json, (c) => c.notNull())
    .addColumn('after_doc', t.json, (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('risk_level', 'text', (c) => c.notNull())
    .addColumn('approval_status', 'text', (c) => c.notNull())
    .addColumn('verification_status', 'text', (c) => c.notNull())
    .addColumn('governance_status', 'text', (c) => c.notNull())
    .addColumn('needs_action', t.bool, (c) => c.notNull())
    .addColumn('verification_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('config_changes_scope_idx')
    .on('config_changes')
    .columns(['tenant_id', 'workspace_id', 'created_at'])
    .execute()

  await db.schema
    .createTable('config_approvals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('approval_ref', 'text', (c) => c.notNull())
    .addColumn('change_ref', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'text', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('evidence', t.json, (c) => c.notNull())
    // the change that executed on this approval: one approval, one execution
    .addColumn('used_by', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('config_approvals_key_idx')
    .on('config_approvals')
    .columns(['tenant_id', 'workspace_id', 'approval_ref', 'change_ref'])
    .execute()

  await db.schema
    .createTable('config_verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('change_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'text', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('evidence', t.json, (c) => c.notNull())
    .addColumn('checks', t.json, (c) => c.notNull())
    .addColumn('change_ref', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('config_verifications_change_idx')
    .on('config_verifications')
    .column('change_id')
    .execute()
}
