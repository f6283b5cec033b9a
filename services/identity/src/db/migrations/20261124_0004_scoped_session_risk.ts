import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// Tenant and workspace overrides of the session-risk policy, projected from config-governance's
// `config.scope.changed` (consumers/config-overrides.consumer.ts): one row per scope, `workspace_id` '' for the
// tenant's own, `policy` the scope's `session_risk` section as JSON text (null: no override there), `version` the
// highest the scope announced (an older delivery is ignored). Forward-only: earlier migrations are never edited.
// `Kysely<unknown>`: a migration must not lean on today's table types, only on the schema it builds.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('scoped_session_risk')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('policy', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('scoped_session_risk_pk', ['tenant_id', 'workspace_id'])
    .execute()
}
