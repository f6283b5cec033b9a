import { type Dialect, type Scope, whereScope } from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'
import type { StatisticsDatabase } from './database.ts'
import { secondsBetween, utcQuarterHour } from './sql-dialect.ts'

type Db = Kysely<StatisticsDatabase>

const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v))

/** [from, to): ISO instants; buckets compare as their `YYYY-MM-DDTHH:MM` prefixes. */
export interface Window {
  from: string
  to: string
}

/** Counts (and rating sums) per key: a UTC day (`YYYY-MM-DD`) or a UTC quarter hour (`YYYY-MM-DDTHH:MM`). */
export type PerKey = Map<string, number>

/** `day` when the report's days are UTC days; `quarter` when they are another zone's, made of whole quarter hours. */
export type Grain = 'day' | 'quarter'

const toMap = (rows: Array<{ k: string; v: unknown }>): PerKey => new Map(rows.map((r) => [r.k, n(r.v)]))

/**
 * Per key of the window: tickets and sessions created, tickets resolved, messages, ratings (sum and count, so a
 * zone's day can add up several keys before dividing). UTC days from the aggregates per day; quarter hours from the
 * raw rows.
 */
export async function perKey(db: Db, dialect: Dialect, scope: Scope, w: Window, grain: Grain) {
  if (grain === 'day') return perDay(db, scope, w)
  // another zone's days: its raw rows by UTC quarter hour, added up into the zone's days by the caller
  const key = (column: string) => utcQuarterHour(dialect, column)
  const counted = (table: 'tickets' | 'sessions', column: 'created_at' | 'resolved_at') =>
    whereScope(db.selectFrom(table), scope)
      .select((eb) => [key(column).as('k'), eb.fn.countAll<number>().as('v')])
      .where(column, '>=', w.from)
      .where(column, '<', w.to)
      .groupBy(sql`1`)
      .execute()
  const ratings = () =>
    whereScope(db.selectFrom('satisfactions'), scope)
      .select((eb) => [
        key('created_at').as('k'),
        eb.fn.sum<number>('rating').as('v'),
        eb.fn.countAll<number>().as('c'),
      ])
      .where('removed', '=', 0)
      .where('created_at', '>=', w.from)
      .where('created_at', '<', w.to)
      .groupBy(sql`1`)
      .execute()
  const [tickets, sessions, resolved, messages, rated] = await Promise.all([
    counted('tickets', 'created_at'),
    counted('sessions', 'created_at'),
    counted('tickets', 'resolved_at'),
    whereScope(db.selectFrom('message_counts'), scope)
      .select((eb) => [sql<string>`bucket`.as('k'), eb.fn.sum<number>('count').as('v')])
      .where('bucket', '>=', w.from.slice(0, 16))
      .where('bucket', '<', w.to.slice(0, 16))
      .groupBy(sql`1`)
      .execute(),
    ratings(),
  ])
  return {
    tickets: toMap(tickets),
    sessions: toMap(sessions),
    resolved: toMap(resolved),
    messages: toMap(messages),
    ratingSum: toMap(rated),
    ratingCount: toMap(rated.map((r) => ({ k: r.k, v: r.c }))),
  }
}

/** The days of a window of whole UTC days, [first, end) as `YYYY-MM-DD`. */
const daysOf = (w: Window) => ({ first: w.from.slice(0, 10), end: w.to.slice(0, 10) })

/** perKey for UTC days: the aggregates per scope and day (ticket_days, conversation_days), no raw row read. */
async function perDay(db: Db, scope: Scope, w: Window) {
  const { first, end } = daysOf(w)
  const [tickets, conversations] = await Promise.all([
    whereScope(db.selectFrom('ticket_days'), scope)
      .select((eb) => [
        'day',
        eb.fn.sum<number>('created').as('created'),
        eb.fn.sum<number>('resolved').as('resolved'),
        eb.fn.sum<number>('rating_sum').as('rating_sum'),
        eb.fn.sum<number>('rating_count').as('rating_count'),
      ])
      .where('day', '>=', first)
      .where('day', '<', end)
      .groupBy('day')
      .execute(),
    whereScope(db.selectFrom('conversation_days'), scope)
      .select((eb) => [
        'day',
        eb.fn.sum<number>('sessions').as('sessions'),
        eb.fn.sum<number>('messages').as('messages'),
      ])
      .where('day', '>=', first)
      .where('day', '<', end)
      .groupBy('day')
      .execute(),
  ])
  const of = <R extends { day: string }>(rows: R[], v: (r: R) => unknown) =>
    toMap(rows.map((r) => ({ k: r.day, v: v(r) })))
  return {
    tickets: of(tickets, (r) => r.created),
    sessions: of(conversations, (r) => r.sessions),
    resolved: of(tickets, (r) => r.resolved),
    messages: of(conversations, (r) => r.messages),
    ratingSum: of(tickets, (r) => r.rating_sum),
    ratingCount: of(tickets, (r) => r.rating_count),
  }
}

export interface AgentPerformanceRow {
  agent_id: string
  agent_name: string
  department: string
  total_tickets: number
  resolved_tickets: number
  avg_response_time: number
  avg_resolution_time: number
  rating: number
}

/** What agent performance shows of each agent, and groups by (both ways of counting). */
const AGENT_COLUMNS = [
  'agents.agent_id as record_id',
  'agents.user_id as agent_id',
  'agents.name as agent_name',
  'agents.department',
  'agents.avg_response_time',
  'agents.rating',
] as const
const AGENT_GROUP = [
  'agents.agent_id',
  'agents.user_id',
  'agents.name',
  'agents.department',
  'agents.avg_response_time',
  'agents.rating',
] as const

/**
 * Per agent of the scope: its tickets (tickets.agent_id = agents.user_id, in the agent's own workspace) created in
 * the window, those resolved or closed, their mean resolution time; response time and rating are the agent's.
 * Most tickets first; agents without tickets in the window are listed too (a left join), after them.
 */
export async function agentPerformance(
  db: Db,
  dialect: Dialect,
  scope: Scope,
  w: Window,
  limit: number,
  grain: Grain,
): Promise<AgentPerformanceRow[]> {
  if (grain === 'day') return agentPerformanceByDay(db, scope, w, limit)
  const rows = await whereScope(
    db
      .selectFrom('agents')
      .leftJoin('tickets', (join) =>
        join
          .onRef('tickets.agent_id', '=', 'agents.user_id')
          .onRef('tickets.tenant_id', '=', 'agents.tenant_id')
          .onRef('tickets.workspace_id', '=', 'agents.workspace_id')
          .on('tickets.created_at', '>=', w.from)
          .on('tickets.created_at', '<', w.to),
      ),
    scope,
    'agents',
  )
    .select((eb) => [
      ...AGENT_COLUMNS,
      eb.fn.count<number>('tickets.ticket_id').as('total_tickets'),
      sql<number>`count(case when tickets.status in ('resolved', 'closed') then 1 end)`.as('resolved_tickets'),
      sql<number>`avg(${secondsBetween(dialect, 'tickets.created_at', 'tickets.resolved_at')})`.as(
        'avg_resolution_time',
      ),
    ])
    .groupBy(AGENT_GROUP)
    .orderBy('total_tickets', 'desc')
    .orderBy('agents.name')
    .orderBy('agents.agent_id')
    .limit(limit)
    .execute()
  return rows.map((r) => ({
    agent_id: r.agent_id,
    agent_name: r.agent_name,
    department: r.department,
    total_tickets: n(r.total_tickets),
    resolved_tickets: n(r.resolved_tickets),
    avg_response_time: n(r.avg_response_time),
    avg_resolution_time: n(r.avg_resolution_time),
    rating: n(r.rating),
  }))
}

/** agentPerformance over whole UTC days: the agents' days (ticket_agent_days) instead of their tickets. */
async function agentPerformanceByDay(db: Db, scope: Scope, w: Window, limit: number): Promise<AgentPerformanceRow[]> {
  const { first, end } = daysOf(w)
  const rows = await whereScope(
    db
      .selectFrom('agents')
      .leftJoin('ticket_agent_days as d', (join) =>
        join
          .onRef('d.agent_id', '=', 'agents.user_id')
          .onRef('d.tenant_id', '=', 'agents.tenant_id')
          .onRef('d.workspace_id', '=', 'agents.workspace_id')
          .on('d.day', '>=', first)
          .on('d.day', '<', end),
      ),
    scope,
    'agents',
  )
    .select([
      ...AGENT_COLUMNS,
      sql<number>`coalesce(sum(d.total), 0)`.as('total_tickets'),
      sql<number>`coalesce(sum(d.resolved), 0)`.as('resolved_tickets'),
      sql<number>`sum(d.resolution_sum)`.as('resolution_sum'),
      sql<number>`sum(d.resolution_count)`.as('resolution_count'),
    ])
    .groupBy(AGENT_GROUP)
    .orderBy('total_tickets', 'desc')
    .orderBy('agents.name')
    .orderBy('agents.agent_id')
    .limit(limit)
    .execute()
  return rows.map((r) => {
    const resolved = n(r.resolution_count)
    return {
      agent_id: r.agent_id,
      agent_name: r.agent_name,
      department: r.department,
      total_tickets: n(r.total_tickets),
      resolved_tickets: n(r.resolved_tickets),
      avg_response_time: n(r.avg_response_time),
      avg_resolution_time: resolved === 0 ? 0 : n(r.resolution_sum) / resolved,
      rating: n(r.rating),
    }
  })
}

export interface KeyCount {
  key: string
  count: number
}

/** Tickets created in the window, counted by category or priority, most first (ties by key). */
export async function ticketsBy(
  db: Db,
  scope: Scope,
  column: 'category' | 'priority',
  w: Window,
  grain: Grain,
): Promise<KeyCount[]> {
  if (grain === 'day') {
    // whole UTC days: the counts per day and key (ticket_key_days)
    const { first, end } = daysOf(w)
    const byDay = await whereScope(db.selectFrom('ticket_key_days'), scope)
      .select((eb) => ['key', eb.fn.sum<number>('count').as('count')])
      .where('dimension', '=', column)
      .where('day', '>=', first)
      .where('day', '<', end)
      .groupBy('key')
      .having((eb) => eb.fn.sum('count'), '>', 0)
      .orderBy('count', 'desc')
      .orderBy('key')
      .execute()
    return byDay.map((r) => ({ key: r.key, count: n(r.count) }))
  }
  const rows = await whereScope(db.selectFrom('tickets'), scope)
    .select((eb) => [eb.ref(column).as('key'), eb.fn.countAll<number>().as('count')])
    .where('created_at', '>=', w.from)
    .where('created_at', '<', w.to)
    .groupBy(column)
    .orderBy('count', 'desc')
    .orderBy(column)
    .execute()
  return rows.map((r) => ({ key: String(r.key), count: n(r.count) }))
}

/** Customer records of the scope by source, most first (the aggregate customer_source_counts). */
export async function customersBySource(db: Db, scope: Scope): Promise<KeyCount[]> {
  const rows = await whereScope(db.selectFrom('customer_source_counts'), scope)
    .select((eb) => ['source as key', eb.fn.sum<number>('count').as('count')])
    .groupBy('source')
    .having((eb) => eb.fn.sum('count'), '>', 0)
    .orderBy('count', 'desc')
    .orderBy('source')
    .execute()
  return rows.map((r) => ({ key: r.key, count: n(r.count) }))
}

/** What one UTC day holds, system wide: the DailyStats counters a recompute sets. */
export async function dayTotals(db: Db, w: Window) {
  const count = async (q: Promise<{ v: unknown } | undefined>) => n((await q)?.v)
  const [sessions, messages, tickets, resolved, violations] = await Promise.all([
    count(
      db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll().as('v'))
        .where('created_at', '>=', w.from)
        .where('created_at', '<', w.to)
        .executeTakeFirst(),
    ),
    count(
      db
        .selectFrom('message_counts')
        .select((eb) => eb.fn.sum('count').as('v'))
        .where('bucket', '>=', w.from.slice(0, 16))
        .where('bucket', '<', w.to.slice(0, 16))
        .executeTakeFirst(),
    ),
    count(
      db
        .selectFrom('tickets')
        .select((eb) => eb.fn.countAll().as('v'))
        .where('created_at', '>=', w.from)
        .where('created_at', '<', w.to)
        .executeTakeFirst(),
    ),
    count(
      db
        .selectFrom('tickets')
        .select((eb) => eb.fn.countAll().as('v'))
        .where('resolved_at', '>=', w.from)
        .where('resolved_at', '<', w.to)
        .executeTakeFirst(),
    ),
    count(
      db
        .selectFrom('sla_violations')
        .select((eb) => eb.fn.countAll().as('v'))
        .where('violated_at', '>=', w.from)
        .where('violated_at', '<', w.to)
        .executeTakeFirst(),
    ),
  ])
  return {
    total_sessions: sessions,
    total_messages: messages,
    total_tickets: tickets,
    resolved_tickets: resolved,
    sla_violations: violations,
  }
}
