import type { Scope } from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'
import { dayOf } from '../domain/dates.ts'
import type { StatisticsDatabase } from './database.ts'
import type { UnitOfWork } from './unit-of-work.ts'

type Db = Kysely<StatisticsDatabase>

// The aggregates (migration 0003) as the sum of each raw row's contribution: a change of a row moves them by
// contribution(after) − contribution(before), in the event's transaction. The migration's set-based build computes
// the same sums from the raw rows (buildDirectoryAggregates, buildTicketAggregates, buildConversationAggregates).

/** Each aggregate table: its key columns and its counters. */
export const AGGREGATES = {
  ticket_days: {
    keys: ['tenant_id', 'workspace_id', 'day'],
    counters: [
      'created',
      'resolved',
      'resolution_sum',
      'resolution_count',
      'rating_sum',
      'rating_count',
      'sla_violations',
    ],
  },
  ticket_status_counts: { keys: ['tenant_id', 'workspace_id', 'status'], counters: ['count'] },
  ticket_agent_days: {
    keys: ['tenant_id', 'workspace_id', 'agent_id', 'day'],
    counters: ['total', 'resolved', 'resolution_sum', 'resolution_count'],
  },
  ticket_key_days: { keys: ['tenant_id', 'workspace_id', 'dimension', 'day', 'key'], counters: ['count'] },
  conversation_days: { keys: ['tenant_id', 'workspace_id', 'day'], counters: ['sessions', 'messages'] },
  session_status_counts: { keys: ['tenant_id', 'workspace_id', 'status'], counters: ['count'] },
  user_role_counts: { keys: ['role'], counters: ['count'] },
  customer_counts: { keys: ['tenant_id', 'workspace_id'], counters: ['customers'] },
  customer_source_counts: { keys: ['tenant_id', 'workspace_id', 'source'], counters: ['count'] },
} as const

/**
 * Per-scope counters moved the same way but with no raw rows behind them (an event is all they count), so neither
 * built from raw rows nor checked against them (aggregates-check.ts): the AI answers per scope and day.
 */
export const EVENT_COUNTS = {
  ai_days: {
    keys: ['tenant_id', 'workspace_id', 'day'],
    counters: ['ai_usage_count', 'knowledge_provider_usage_count', 'compat_provider_usage_count'],
  },
} as const

const TABLES = { ...AGGREGATES, ...EVENT_COUNTS }

type Aggregate = keyof typeof TABLES

/** One row's share of one aggregate row: its key, and what it adds to the counters. */
export interface Share {
  table: Aggregate
  key: Record<string, string>
  add: Record<string, number>
}

/** The facts of a ticket its aggregates depend on. Timestamps as the driver gives them (Date or ISO string). */
export interface TicketFacts extends Scope {
  agent_id: string | null
  category: string
  priority: string
  status: string
  created_at: string | Date
  resolved_at: string | Date | null
}

const seconds = (from: string | Date, to: string | Date) => (new Date(to).getTime() - new Date(from).getTime()) / 1000
const scopeOf = (s: Scope) => ({ tenant_id: s.tenant_id, workspace_id: s.workspace_id })

function ticketShares(t: TicketFacts): Share[] {
  const scope = scopeOf(t)
  const created = dayOf(t.created_at)
  const resolution = t.resolved_at === null ? undefined : seconds(t.created_at, t.resolved_at)
  const shares: Share[] = [
    { table: 'ticket_days', key: { ...scope, day: created }, add: { created: 1 } },
    { table: 'ticket_status_counts', key: { ...scope, status: t.status }, add: { count: 1 } },
    {
      table: 'ticket_key_days',
      key: { ...scope, dimension: 'category', day: created, key: t.category },
      add: { count: 1 },
    },
    {
      table: 'ticket_key_days',
      key: { ...scope, dimension: 'priority', day: created, key: t.priority },
      add: { count: 1 },
    },
  ]
  if (t.resolved_at !== null && resolution !== undefined) {
    shares.push({
      table: 'ticket_days',
      key: { ...scope, day: dayOf(t.resolved_at) },
      add: { resolved: 1, resolution_sum: resolution, resolution_count: 1 },
    })
  }
  if (t.agent_id !== null) {
    shares.push({
      table: 'ticket_agent_days',
      key: { ...scope, agent_id: t.agent_id, day: created },
      add: {
        total: 1,
        resolved: t.status === 'resolved' || t.status === 'closed' ? 1 : 0,
        resolution_sum: resolution ?? 0,
        resolution_count: resolution === undefined ? 0 : 1,
      },
    })
  }
  return shares
}

/** A kept rating's share: its value and 1, on its scope's day of first rating; a removed one has none. */
export interface RatingFacts extends Scope {
  rating: number
  removed: number
  created_at: string | Date
}

function ratingShares(r: RatingFacts): Share[] {
  if (r.removed) return []
  return [
    {
      table: 'ticket_days',
      key: { ...scopeOf(r), day: dayOf(r.created_at) },
      add: { rating_sum: r.rating, rating_count: 1 },
    },
  ]
}

export interface SessionFacts extends Scope {
  status: string
  created_at: string | Date
}

function sessionShares(s: SessionFacts): Share[] {
  return [
    { table: 'conversation_days', key: { ...scopeOf(s), day: dayOf(s.created_at) }, add: { sessions: 1 } },
    { table: 'session_status_counts', key: { ...scopeOf(s), status: s.status }, add: { count: 1 } },
  ]
}

const idOf = (s: Share) => `${s.table}\u0000${TABLES[s.table].keys.map((k) => s.key[k]).join('\u0000')}`

/** after − before, per aggregate row, without the rows (and counters) that do not move. */
function difference(before: Share[], after: Share[]): Share[] {
  const moved = new Map<string, Share>()
  const add = (shares: Share[], sign: 1 | -1) => {
    for (const s of shares) {
      const id = idOf(s)
      const row = moved.get(id) ?? { table: s.table, key: s.key, add: {} }
      for (const [counter, by] of Object.entries(s.add)) row.add[counter] = (row.add[counter] ?? 0) + sign * by
      moved.set(id, row)
    }
  }
  add(before, -1)
  add(after, 1)
  const out: Share[] = []
  for (const row of moved.values()) {
    const add = Object.fromEntries(Object.entries(row.add).filter(([, by]) => by !== 0))
    if (Object.keys(add).length > 0) out.push({ ...row, add })
  }
  return out
}

/** `counter += by` on each aggregate row, added up in the batch's unit of work (written by writeShares). */
export function apply(work: UnitOfWork, shares: Share[]): void {
  for (const s of shares) {
    const id = idOf(s)
    const row = work.shares.get(id) ?? { table: s.table, key: s.key, add: {} }
    for (const [counter, by] of Object.entries(s.add)) row.add[counter] = (row.add[counter] ?? 0) + by
    work.shares.set(id, row)
  }
}

/** Aggregate rows per statement at most (their parameters stay far below either engine's limit). */
const ROWS_PER_STATEMENT = 50

/**
 * A batch's shares written (its flush): per table, a few rows per upsert, each row's counters added to what it holds
 * (a counter a share does not move adds 0), made if missing, so replicas add up. In one order (table, key) whatever
 * the events, so that two transactions moving the same rows never wait for each other in a cycle (a deadlock).
 */
export async function writeShares(db: Db, shares: Share[]): Promise<void> {
  const ordered = [...shares].sort((a, b) => (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0))
  const byTable = new Map<Aggregate, Share[]>()
  for (const s of ordered) byTable.set(s.table, [...(byTable.get(s.table) ?? []), s])
  for (const [table, rows] of byTable) {
    const spec = TABLES[table]
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
      const values = rows
        .slice(i, i + ROWS_PER_STATEMENT)
        .map((s) => ({ ...Object.fromEntries(spec.counters.map((c) => [c, 0])), ...s.key, ...s.add }))
      await (db as unknown as Kysely<any>)
        .insertInto(table)
        .values(values)
        .onConflict((oc) =>
          oc
            .columns([...spec.keys])
            .doUpdateSet(
              Object.fromEntries(
                spec.counters.map((c) => [c, sql`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`]),
              ),
            ),
        )
        .execute()
    }
  }
}

/** A ticket made (before null), changed, or gone (after null): its aggregates follow. */
export const moveTicket = (work: UnitOfWork, before: TicketFacts | null, after: TicketFacts | null) =>
  apply(work, difference(before ? ticketShares(before) : [], after ? ticketShares(after) : []))

export const moveRating = (work: UnitOfWork, before: RatingFacts | null, after: RatingFacts | null) =>
  apply(work, difference(before ? ratingShares(before) : [], after ? ratingShares(after) : []))

export const moveSession = (work: UnitOfWork, before: SessionFacts | null, after: SessionFacts | null) =>
  apply(work, difference(before ? sessionShares(before) : [], after ? sessionShares(after) : []))

/** A new SLA violation, on its scope's day. */
export const countViolation = (work: UnitOfWork, scope: Scope, violatedAt: string) =>
  apply(work, [
    { table: 'ticket_days', key: { ...scopeOf(scope), day: dayOf(violatedAt) }, add: { sla_violations: 1 } },
  ])

/** One more message on its scope's day. */
export const countMessageDay = (work: UnitOfWork, scope: Scope, createdAt: string) =>
  apply(work, [{ table: 'conversation_days', key: { ...scopeOf(scope), day: dayOf(createdAt) }, add: { messages: 1 } }])

/** One AI answer on its scope's day: `counters` are those it moves (ai_usage_count always). */
export const countAnswer = (work: UnitOfWork, scope: Scope, day: string, counters: Record<string, number>) =>
  apply(work, [{ table: 'ai_days', key: { ...scopeOf(scope), day }, add: counters }])
