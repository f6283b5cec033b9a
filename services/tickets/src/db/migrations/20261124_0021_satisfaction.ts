import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))

  await db.schema
    .createTable('customer_satisfactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // one rating per ticket, settled by the database when the survey and a staff entry race
    .addColumn('ticket_id', 'text', (c) => c.notNull().unique())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('agent_id', 'text')
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('customer_satisfactions_scope_idx')
    .on('customer_satisfactions')
    .columns(['tenant_id', 'workspace_id', 'created_at'])
    .execute()

  await db.schema
    .createTable('satisfaction_surveys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ticket_id', 'text', (c) => c.notNull().unique())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('agent_id', 'text')
    // what the public page may show of the agent, captured at close
    .addColumn('agent_name', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // sha256 of the link's token: a read of this table does not yield a usable link
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('sent_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('completed_at', t.timestamp)
    .addColumn('satisfaction_id', 'text')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('satisfaction_surveys_scope_idx')
    .on('satisfaction_surveys')
    .columns(['tenant_id', 'workspace_id', 'created_at'])
    .execute()

  // identity's agents, for the display name a survey shows and macros render
  await db.schema
    .createTable('satisfaction_agents')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('satisfaction_agents_pk', ['tenant_id', 'workspace_id', 'user_id'])
    .execute()
}
