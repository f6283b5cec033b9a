import type { Dialect } from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'
import { AGGREGATES } from './aggregates.repository.ts'
import type { StatisticsDatabase } from './database.ts'
import { secondsBetween, utcDay } from './sql-dialect.ts'

// The aggregates built set-based from the raw rows: what the projections' per-event deltas add up to
// (aggregates.repository.ts). The same statements as migration 0003's build of a v1 schema, which keeps its own frozen
// copy (a migration imports no runtime code); these follow the tables as they are now.

/** Every aggregate emptied and built again from the raw rows, in `db` (a transaction: not while projections run). */
export async function buildAggregates(db: Kysely<StatisticsDatabase>, dialect: Dialect): Promise<void> {
  const any = db as unknown as Kysely<any>
  for (const table of Object.keys(AGGREGATES)) await any.deleteFrom(table).execute()
  await buildDirectoryAggregates(any)
  await buildTicketAggregates(any, dialect)
  await buildConversationAggregates(any, dialect)
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
 * The tickets projection's aggregates computed from its raw rows (tickets, satisfactions, sla_violations), set-based.
 * The tables must be empty.
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
