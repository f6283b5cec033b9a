import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

// The customer messages the AI answered in conversations (consumers/conversation-replies.consumer.ts): one row per
// message, so a redelivered event never answers twice.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('ai_replies')
    .addColumn('message_id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    /** answered | handed_over | skipped */
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('query_id', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute()
}
