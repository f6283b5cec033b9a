import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// The agents' load (`current_load` on the agent record): conversations' sessions as their newest event describes
// them — who handles each, in which status — projected by consumers/agent-load.consumer.ts. Rebuilt by replaying the
// CONVERSATIONS stream. `version_at`/`version_id`: the event that last wrote the row (newest wins).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('agent_sessions')
    .addColumn('session_id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('agent_user_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('version_at', t.timestamp, (c) => c.notNull())
    .addColumn('version_id', 'text', (c) => c.notNull())
    .execute()
  // an agent's load: its open sessions in its workspace
  await db.schema
    .createIndex('agent_sessions_load_idx')
    .on('agent_sessions')
    .columns(['tenant_id', 'workspace_id', 'agent_user_id', 'status'])
    .execute()
}
