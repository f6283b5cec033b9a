import { columnTypes, dialectOf } from '@switchboard/platform'
import type { CreateTableBuilder, Kysely } from 'kysely'

// Indexes lead with the scope (tenant, workspace), as every scoped query filters on it; the unscoped (administrator)
// view has its own on the time columns it ranges over.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  const versioned = <N extends string>(b: CreateTableBuilder<N>) =>
    b.addColumn('version_at', t.timestamp, (c) => c.notNull()).addColumn('version_id', 'text', (c) => c.notNull())
  const scoped = <N extends string>(b: CreateTableBuilder<N>) =>
    b.addColumn('tenant_id', 'text', (c) => c.notNull()).addColumn('workspace_id', 'text', (c) => c.notNull())
  const index = (table: string, name: string, columns: string[]) =>
    db.schema.createIndex(`${table}_${name}_idx`).on(table).columns(columns).execute()

  await versioned(
    db.schema
      .createTable('users')
      .addColumn('user_id', 'text', (c) => c.primaryKey())
      .addColumn('role', 'text', (c) => c.notNull()),
  ).execute()
  await index('users', 'role', ['role'])

  await versioned(
    scoped(
      db.schema
        .createTable('customers')
        .addColumn('customer_id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull()),
    ).addColumn('source', 'text', (c) => c.notNull()),
  ).execute()
  await index('customers', 'scope_source', ['tenant_id', 'workspace_id', 'source'])
  await index('customers', 'user', ['user_id'])

  await versioned(
    scoped(
      db.schema
        .createTable('agents')
        .addColumn('agent_id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull()),
    )
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('department', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('avg_response_time', 'double precision', (c) => c.notNull())
      .addColumn('rating', 'double precision', (c) => c.notNull()),
  ).execute()
  await index('agents', 'scope_status', ['tenant_id', 'workspace_id', 'status'])

  await versioned(
    scoped(db.schema.createTable('tickets').addColumn('ticket_id', 'text', (c) => c.primaryKey()))
      .addColumn('agent_id', 'text')
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('priority', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('resolved_at', t.timestamp),
  ).execute()
  await index('tickets', 'scope_created', ['tenant_id', 'workspace_id', 'created_at'])
  await index('tickets', 'scope_resolved', ['tenant_id', 'workspace_id', 'resolved_at'])
  await index('tickets', 'scope_status', ['tenant_id', 'workspace_id', 'status'])
  await index('tickets', 'scope_agent', ['tenant_id', 'workspace_id', 'agent_id', 'created_at'])
  await index('tickets', 'created', ['created_at'])
  await index('tickets', 'resolved', ['resolved_at'])

  await versioned(
    scoped(db.schema.createTable('sessions').addColumn('session_id', 'text', (c) => c.primaryKey()))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull()),
  ).execute()
  await index('sessions', 'scope_created', ['tenant_id', 'workspace_id', 'created_at'])
  await index('sessions', 'scope_status', ['tenant_id', 'workspace_id', 'status'])
  await index('sessions', 'created', ['created_at'])

  await scoped(db.schema.createTable('message_counts'))
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_counts_pk', ['tenant_id', 'workspace_id', 'bucket'])
    .execute()
  await index('message_counts', 'bucket', ['bucket'])

  await versioned(
    scoped(
      db.schema
        .createTable('satisfactions')
        .addColumn('satisfaction_id', 'text', (c) => c.primaryKey())
        .addColumn('ticket_id', 'text', (c) => c.notNull()),
    )
      .addColumn('rating', 'integer', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('removed', 'integer', (c) => c.notNull()),
  ).execute()
  await index('satisfactions', 'scope_created', ['tenant_id', 'workspace_id', 'created_at'])
  await index('satisfactions', 'created', ['created_at'])

  await scoped(
    db.schema
      .createTable('sla_violations')
      .addColumn('violation_id', 'text', (c) => c.primaryKey())
      .addColumn('ticket_id', 'text', (c) => c.notNull()),
  )
    .addColumn('violated_at', t.timestamp, (c) => c.notNull())
    .execute()
  await index('sla_violations', 'violated', ['violated_at'])

  const counter = (b: CreateTableBuilder<'daily_stats'>, name: string) =>
    b.addColumn(name, 'integer', (c) => c.notNull().defaultTo(0))
  let daily = db.schema.createTable('daily_stats').addColumn('date', 'text', (c) => c.primaryKey())
  for (const name of [
    'total_sessions',
    'total_messages',
    'total_tickets',
    'resolved_tickets',
    'ai_usage_count',
    'knowledge_provider_usage_count',
    'compat_provider_usage_count',
    'sla_violations',
  ]) {
    daily = counter(daily, name)
  }
  await daily.addColumn('updated_at', t.timestamp, (c) => c.notNull()).execute()
}
