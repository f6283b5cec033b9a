// The statistics bench's world (statistics.bench.ts, figure 1): the raw read models of services/statistics loaded by
// set-based SQL (generate_series), then its aggregates built by the service's own set-based build.
import { type Kysely, sql } from 'kysely'
import { fmt } from './lib.ts'

/** How big the world is (statisticsBenchOptions). */
export interface WorldSize {
  tickets: number
  sessions: number
  messages: number
  customers: number
  agentsPerTenant: number
}

export const TENANTS = ['bench-t1', 'bench-t2', 'bench-t3'] as const
export const WORKSPACE = 'main'
export const DAYS = 365
const STATUSES = ['open', 'assigned', 'in_progress', 'resolved', 'closed'] as const
// of every 20 tickets: 2 open, 2 assigned, 2 in progress, 6 resolved, 8 closed
const STATUS_OF_20 = [0, 0, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4]
export const CATEGORIES = ['general', 'billing', 'technical', 'account', 'feature_request'] as const
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const
const SOURCES = ['web', 'app', 'email', 'phone', 'chat'] as const

/** The world, set-based: the raw read models as the projections leave them (README of services/statistics). */
export async function loadWorld(db: Kysely<any>, o: WorldSize, buildAggregates: () => Promise<void>) {
  const steps: string[] = []
  let started = performance.now()
  const step = (what: string) => {
    steps.push(`${what} ${fmt((performance.now() - started) / 1000)} s`)
    started = performance.now()
  }
  const tables = ['users', 'customers', 'agents', 'tickets', 'satisfactions', 'sla_violations', 'sessions']
  const bulk = [...tables, 'message_counts', 'daily_stats']
  // secondary indexes dropped, rows written set-based, indexes built again from their own definitions
  const indexes = (
    await sql<{ name: string; def: string }>`
      select i.indexname as name, i.indexdef as def from pg_indexes i
      where i.schemaname = current_schema() and i.tablename in (${sql.join(bulk)})
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)
    `.execute(db)
  ).rows
  for (const ix of indexes) await sql`drop index ${sql.id(ix.name)}`.execute(db)
  const tenants = sql.val([...TENANTS])
  const agents = o.agentsPerTenant * TENANTS.length
  await sql`
    insert into users (user_id, role, version_at, version_id)
    select 'u-c' || g, 'customer', now(), 'bench' from generate_series(1, ${o.customers}::integer) g
    union all
    select 'u-a' || g, 'agent', now(), 'bench' from generate_series(0, ${agents - 1}::integer) g
  `.execute(db)
  await sql`
    insert into customers (customer_id, user_id, tenant_id, workspace_id, source, version_at, version_id)
    select 'c' || g, 'u-c' || g, (${tenants}::text[])[1 + g % 3], ${WORKSPACE},
      (${sql.val([...SOURCES])}::text[])[1 + (g / 3) % 5], now(), 'bench'
    from generate_series(1, ${o.customers}::integer) g
  `.execute(db)
  await sql`
    insert into agents (agent_id, user_id, tenant_id, workspace_id, name, department, status, avg_response_time,
      rating, version_at, version_id)
    select 'a' || g, 'u-a' || g, (${tenants}::text[])[1 + g % 3], ${WORKSPACE}, 'Agent ' || g,
      (array['Sales', 'Support', 'Billing'])[1 + (g / 3) % 3], (array['online', 'busy', 'offline', 'offline'])[1 + (g / 9) % 4],
      30 + g % 120, 3 + (g % 20) / 10.0, now(), 'bench'
    from generate_series(0, ${agents - 1}::integer) g
  `.execute(db)
  step('directory')
  // tickets over 365 days, round-robin over the tenants; an agent of the ticket's tenant unless open; resolved and
  // closed ones resolved 1–47 hours after creation (never after now)
  await sql`
    insert into tickets (ticket_id, tenant_id, workspace_id, agent_id, category, priority, status, created_at,
      resolved_at, version_at, version_id)
    select 'bt-' || g, (${tenants}::text[])[1 + g % 3], ${WORKSPACE},
      case when st = 0 then null else 'u-a' || (3 * (abs(hashtext(g::text)) % ${o.agentsPerTenant}) + g % 3) end,
      (${sql.val([...CATEGORIES])}::text[])[1 + g % 5], (${sql.val([...PRIORITIES])}::text[])[1 + (g / 5) % 4],
      (${sql.val([...STATUSES])}::text[])[1 + st], at,
      case when st >= 3 then least(at + (1 + g % 47) * interval '1 hour', now()) end, at, 'bench'
    from (
      select g, now() - (${o.tickets}::integer - g) * (interval '${sql.raw(String(DAYS))} days' / ${o.tickets}::integer) as at,
        (${sql.val(STATUS_OF_20)}::int[])[1 + (g * 31) % 20] as st
      from generate_series(1, ${o.tickets}::integer) g
    ) s
  `.execute(db)
  step('tickets')
  // a rating for one resolved ticket in five (one in ten of them removed); a violation for one ticket in twenty
  await sql`
    insert into satisfactions (satisfaction_id, ticket_id, tenant_id, workspace_id, rating, created_at, removed,
      version_at, version_id)
    select 'bs-' || ticket_id, ticket_id, tenant_id, workspace_id, 1 + abs(hashtext(ticket_id || 'r')) % 5, resolved_at,
      case when abs(hashtext(ticket_id)) % 50 = 0 then 1 else 0 end, resolved_at, 'bench'
    from tickets where resolved_at is not null and abs(hashtext(ticket_id)) % 5 = 0
  `.execute(db)
  await sql`
    insert into sla_violations (violation_id, ticket_id, tenant_id, workspace_id, violated_at)
    select 'bv-' || ticket_id, ticket_id, tenant_id, workspace_id, least(created_at + interval '4 hours', now())
    from tickets where abs(hashtext(ticket_id || 'v')) % 20 = 0
  `.execute(db)
  step('ratings, violations')
  await sql`
    insert into sessions (session_id, tenant_id, workspace_id, status, created_at, version_at, version_id)
    select 'bss-' || g, (${tenants}::text[])[1 + g % 3], ${WORKSPACE},
      case when at > now() - interval '1 day' then 'active' else 'closed' end, at, at, 'bench'
    from (
      select g, now() - (${o.sessions}::integer - g) * (interval '${sql.raw(String(DAYS))} days' / ${o.sessions}::integer) as at
      from generate_series(1, ${o.sessions}::integer) g
    ) s
  `.execute(db)
  step('sessions')
  // the messages as the projection keeps them: a count per tenant and UTC quarter hour, adding up to the total
  const rows = TENANTS.length * DAYS * 96
  await sql`
    insert into message_counts (tenant_id, workspace_id, bucket, count)
    select (${tenants}::text[])[1 + k], ${WORKSPACE},
      to_char((q - i * interval '15 minutes') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI'),
      ${Math.floor(o.messages / rows)}::integer + case when i * 3 + k < ${o.messages % rows}::integer then 1 else 0 end
    from generate_series(0, ${DAYS * 96 - 1}::integer) i, generate_series(0, 2) k,
      (select to_timestamp(floor(extract(epoch from now()) / 900) * 900) as q) n
  `.execute(db)
  step('message counts')
  // DailyStats as the events move it: system level, per UTC day of each record's own timestamp
  await sql`
    insert into daily_stats (date, total_sessions, total_messages, total_tickets, resolved_tickets, ai_usage_count,
      knowledge_provider_usage_count, compat_provider_usage_count, sla_violations, updated_at)
    select d, sum(s), sum(m), sum(t), sum(r), 0, 0, 0, sum(v), now() from (
      select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as d, 1 as s, 0 as m, 0 as t, 0 as r, 0 as v
        from sessions
      union all select substr(bucket, 1, 10), 0, count, 0, 0, 0 from message_counts
      union all select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD'), 0, 0, 1, 0, 0 from tickets
      union all select to_char(resolved_at at time zone 'UTC', 'YYYY-MM-DD'), 0, 0, 0, 1, 0 from tickets
        where resolved_at is not null
      union all select to_char(violated_at at time zone 'UTC', 'YYYY-MM-DD'), 0, 0, 0, 0, 1 from sla_violations
    ) u group by d
  `.execute(db)
  step('daily stats')
  for (const ix of indexes) await sql.raw(ix.def).execute(db)
  step('indexes')
  await buildAggregates()
  step('aggregates (buildAggregates)')
  const all = [...bulk, 'ticket_days', 'ticket_status_counts', 'ticket_agent_days', 'ticket_key_days']
  await sql.raw(`vacuum analyze ${[...all, 'conversation_days', 'session_status_counts'].join(', ')}`).execute(db)
  step('vacuum')
  return steps
}
