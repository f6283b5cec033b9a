import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// Pending changes (README "Pending changes"): a high-risk change proposed by one administrator that waits, unapplied,
// until a second administrator approves it (then it runs) or it is rejected or withdrawn.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('config_pending_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('proposer_user_id', 'text', (c) => c.notNull())
    .addColumn('change_ref', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('approval_ref', 'text', (c) => c.notNull())
    // the scope's version the proposal was made against: approving it on a scope changed since is refused
    .addColumn('base_version', 'integer', (c) => c.notNull())
    .addColumn('before_doc', t.json, (c) => c.notNull())
    .addColumn('after_doc', t.json, (c) => c.notNull())
    .addColumn('risk_level', 'text', (c) => c.notNull())
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', t.timestamp)
    .addColumn('decision_notes', 'text')
    .addColumn('applied_change_id', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('config_pending_changes_scope_idx')
    .on('config_pending_changes')
    .columns(['tenant_id', 'workspace_id', 'status', 'created_at'])
    .execute()
}
