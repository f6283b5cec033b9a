import { type Dialect, dialectOf } from '@switchboard/platform'
import { type CreateTableBuilder, type Kysely, type RawBuilder, sql } from 'kysely'

// Aggregates kept by the projections in each event's transaction (README "Aggregates"), so that the reports read a
// few hundred rows per scope instead of the raw ones: per scope and UTC day, per scope and status, per agent and day,
// per day and category/priority. Built here from the raw rows a v1 schema already holds.
export async function up(db: Kysely<any>): Promise<void> {
  type Builder = CreateTableBuilder<any, any>
  const scoped = (b: Builder): Builder =>
    b.addColumn('tenant_id', 'text', (c) => c.notNull()).addColumn('workspace_id', 'text', (c) => c.notNull())
  const counters = (b: Builder, names: string[]): Builder =>
    names.reduce((t, name) => t.addColumn(name, 'integer', (c) => c.notNull().defaultTo(0)), b)

  await counters(
    scoped(db.schema.createTable('ticket_days')).addColumn('day', 'text', (c) => c.notNull()),
    ['created', 'resolved'],
  )
    .addColumn('resolution_sum', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('resolution_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_sum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sla_violations', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('ticket_days_pk', ['tenant_id', 'workspace_id', 'day'])
    .execute()
  await db.schema.createIndex('ticket_days_day_idx').on('ticket_days').column('day').execute()

  await counters(
    scoped(db.schema.createTable('ticket_status_counts')).addColumn('status', 'text', (c) => c.notNull()),
    ['count'],
  )
    .addPrimaryKeyConstraint('ticket_status_counts_pk', ['tenant_id', 'workspace_id', 'status'])
    .execute()

  await counters(
    scoped(db.schema.createTable('ticket_agent_days'))
      .addColumn('agent_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull()),
    ['total', 'resolved'],
  )
    .addColumn('resolution_sum', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('resolution_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('ticket_agent_days_pk', ['tenant_id', 'workspace_id', 'agent_id', 'day'])
    .execute()
  await db.schema.createIndex('ticket_agent_days_day_idx').on('ticket_agent_days').column('day').execute()

  await counters(
    scoped(db.schema.createTable('ticket_key_days'))
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('dimension', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull()),
    ['count'],
  )
    .addPrimaryKeyConstraint('ticket_key_days_pk', ['tenant_id', 'workspace_id', 'dimension', 'day', 'key'])
    .execute()
  await db.schema.createIndex('ticket_key_days_day_idx').on('ticket_key_days').columns(['dimension', 'day']).execute()

  await counters(
    scoped(db.schema.createTable('conversation_days')).addColumn('day', 'text', (c) => c.notNull()),
    ['sessions', 'messages'],
  )
    .addPrimaryKeyConstraint('conversation_days_pk', ['tenant_id', 'workspace_id', 'day'])
    .execute()
  await db.schema.createIndex('conversation_days_day_idx').on('conversation_days').column('day').execute()

  await counters(
    scoped(db.schema.createTable('session_status_counts')).addColumn('status', 'text', (c) => c.notNull()),
    ['count'],
  )
    .addPrimaryKeyConstraint('session_status_counts_pk', ['tenant_id', 'workspace_id', 'status'])
    .execute()

  await db.schema
    .createTable('user_role_counts')
    .addColumn('role', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await counters(scoped(db.schema.createTable('customer_counts')), ['customers'])
    .addPrimaryKeyConstraint('customer_counts_pk', ['tenant_id', 'workspace_id'])
    .execute()
  await counters(
    scoped(db.schema.createTable('customer_source_counts')).addColumn('source', 'text', (c) => c.notNull()),
    ['count'],
  )
    .addPrimaryKeyConstraint('customer_source_counts_pk', ['tenant_id', 'workspace_id', 'source'])
    .execute()

  await buildDirectoryAggregates(db)
  await buildTicketAggregates(db, dialectOf(db))
  await buildConversationAggregates(db, dialectOf(db))
}

/**
 * The identity projection's aggregates from its raw rows (users, customers): users by role; per scope, the users
 * with role customer that have a customer record there (each once), and the records by source. The tables empty.
 */
async function buildDirectoryAggregates(db: Kysely<any>): Promise<void> {
  await sql`insert into user_role_counts (role, count) select role, count(*) from users group by role`.execute(db)
  await sql`
    insert into customer_counts (tenant_id, workspace_id, customers)
    select c.tenant_id, c.workspace_id, count(distinct c.user_id) from customers c
    join users u on u.user_id = c.user_id and u.role = 'customer'
    group by c.tenant_id, c.workspace_id
  `.execute(db)
  await sql`
    insert into customer_source_counts (tenant_id, workspace_id, source, count)
    select tenant_id, workspace_id, source, count(*) from customers group by tenant_id, workspace_id, source
  `.execute(db)
}

/**
 * The tickets projection's aggregates computed from its raw rows (tickets, satisfactions, sla_violations), set-based:
 * what the projection's per-event deltas add up to (db/aggregates.repository.ts). The tables must be empty.
 */
async function buildTicketAggregates(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const day = (column: string) => utcDay(dialect, column)
  await sql`
    insert into ticket_days (tenant_id, workspace_id, day, created, resolved, resolution_sum, resolution_count,
      rating_sum, rating_count, sla_violations)
    select tenant_id, workspace_id, d, sum(c), sum(r), sum(rs), sum(rc), sum(gs), sum(gc), sum(v) from (
      select tenant_id, workspace_id, ${day('created_at')} as d, 1 as c, 0 as r, 0.0 as rs, 0 as rc, 0 as gs, 0 as gc,
        0 as v from tickets
      union all
      select tenant_id, workspace_id, ${day('resolved_at')}, 0, 1, ${secondsBetween(dialect, 'created_at', 'resolved_at')},
        1, 0, 0, 0 from tickets where resolved_at is not null
      union all
      select tenant_id, workspace_id, ${day('created_at')}, 0, 0, 0.0, 0, rating, 1, 0 from satisfactions
        where removed = 0
      union all
      select tenant_id, workspace_id, ${day('violated_at')}, 0, 0, 0.0, 0, 0, 0, 1 from sla_violations
    ) u group by tenant_id, workspace_id, d
  `.execute(db)
  await sql`
    insert into ticket_status_counts (tenant_id, workspace_id, status, count)
    select tenant_id, workspace_id, status, count(*) from tickets group by tenant_id, workspace_id, status
  `.execute(db)
  await sql`
    insert into ticket_agent_days (tenant_id, workspace_id, agent_id, day, total, resolved, resolution_sum,
      resolution_count)
    select tenant_id, workspace_id, agent_id, ${day('created_at')}, count(*),
      count(case when status in ('resolved', 'closed') then 1 end),
      coalesce(sum(${secondsBetween(dialect, 'created_at', 'resolved_at')}), 0), count(resolved_at)
    from tickets where agent_id is not null group by tenant_id, workspace_id, agent_id, ${day('created_at')}
  `.execute(db)
  for (const dimension of ['category', 'priority'] as const) {
    await sql`
      insert into ticket_key_days (tenant_id, workspace_id, day, dimension, key, count)
      select tenant_id, workspace_id, ${day('created_at')}, ${sql.lit(dimension)}, ${sql.ref(dimension)}, count(*) from tickets
      group by tenant_id, workspace_id, ${day('created_at')}, ${sql.ref(dimension)}
    `.execute(db)
  }
}

/** The conversations projection's aggregates from its raw rows (sessions, message_counts); the tables empty. */
async function buildConversationAggregates(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await sql`
    insert into conversation_days (tenant_id, workspace_id, day, sessions, messages)
    select tenant_id, workspace_id, d, sum(s), sum(m) from (
      select tenant_id, workspace_id, ${utcDay(dialect, 'created_at')} as d, 1 as s, 0 as m from sessions
      union all
      select tenant_id, workspace_id, substr(bucket, 1, 10), 0, count from message_counts
    ) u group by tenant_id, workspace_id, d
  `.execute(db)
  await sql`
    insert into session_status_counts (tenant_id, workspace_id, status, count)
    select tenant_id, workspace_id, status, count(*) from sessions group by tenant_id, workspace_id, status
  `.execute(db)
}

// Frozen copies of db/sql-dialect.ts's expressions as they were when this migration was written (a migration imports
// no runtime code, so that a later change there cannot change what this one did).

function secondsBetween(dialect: Dialect, from: string, to: string): RawBuilder<number> {
  return dialect === 'postgres'
    ? sql<number>`extract(epoch from (${sql.ref(to)} - ${sql.ref(from)}))`
    : sql<number>`((julianday(${sql.ref(to)}) - julianday(${sql.ref(from)})) * 86400.0)`
}

function utcDay(dialect: Dialect, column: string): RawBuilder<string> {
  return dialect === 'postgres'
    ? sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`substr(${sql.ref(column)}, 1, 10)`
}
