import { columnTypes, dialectOf } from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'

// A conversation's rating from the widget (issue 21): `session_id` (one rating per conversation), and `ticket_id`,
// `customer_id` no longer required — a conversation may have no ticket, and an anonymous visitor is no customer.
// PostgreSQL drops the NOT NULLs in place; SQLite cannot, so its table is rebuilt with the rows copied.
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db)
  if (dialect === 'postgres') {
    await sql`alter table customer_satisfactions alter column ticket_id drop not null`.execute(db)
    await sql`alter table customer_satisfactions alter column customer_id drop not null`.execute(db)
    await db.schema.alterTable('customer_satisfactions').addColumn('session_id', 'text').execute()
  } else {
    const t = columnTypes(dialect)
    await db.schema
      .createTable('customer_satisfactions_next')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('ticket_id', 'text', (c) => c.unique())
      .addColumn('customer_id', 'text')
      .addColumn('agent_id', 'text')
      .addColumn('rating', 'integer', (c) => c.notNull())
      .addColumn('comment', 'text', (c) => c.notNull())
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addColumn('session_id', 'text')
      .execute()
    await sql`insert into customer_satisfactions_next (id, ticket_id, customer_id, agent_id, rating, comment, category,
      source, tenant_id, workspace_id, created_at, updated_at)
      select id, ticket_id, customer_id, agent_id, rating, comment, category, source, tenant_id, workspace_id,
      created_at, updated_at from customer_satisfactions`.execute(db)
    await db.schema.dropTable('customer_satisfactions').execute()
    await db.schema.alterTable('customer_satisfactions_next').renameTo('customer_satisfactions').execute()
    await db.schema
      .createIndex('customer_satisfactions_scope_idx')
      .on('customer_satisfactions')
      .columns(['tenant_id', 'workspace_id', 'created_at'])
      .execute()
  }
  // one rating per conversation, settled by the database when two answers race
  await db.schema
    .createIndex('customer_satisfactions_session_uq')
    .on('customer_satisfactions')
    .column('session_id')
    .unique()
    .execute()
}
