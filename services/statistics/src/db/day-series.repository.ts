import type { Dialect, Scope } from '@switchboard/platform'
import { whereScope } from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'
import type { StatisticsDatabase } from './database.ts'
import type { Grain, PerKey, Window } from './reports.repository.ts'
import { utcQuarterHour } from './sql-dialect.ts'

// Per-day series the reports chart beside the spec's time range: SLA violations (by violated_at) and the AI
// counters (ai_days, UTC days), both within the caller's scope.

type Db = Kysely<StatisticsDatabase>

const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v))

/**
 * SLA violations of the scope per key of the window: per UTC day from the aggregate ticket_days (its sla_violations
 * counter is by violated_at), or per UTC quarter hour from the raw rows when the days are another zone's.
 */
export async function violationsPerKey(db: Db, dialect: Dialect, scope: Scope, w: Window, grain: Grain) {
  if (grain === 'day') {
    const rows = await whereScope(db.selectFrom('ticket_days'), scope)
      .select((eb) => ['day as k', eb.fn.sum<number>('sla_violations').as('v')])
      .where('day', '>=', w.from.slice(0, 10))
      .where('day', '<', w.to.slice(0, 10))
      .groupBy('day')
      .execute()
    return new Map(rows.map((r) => [r.k, n(r.v)])) as PerKey
  }
  const rows = await whereScope(db.selectFrom('sla_violations'), scope)
    .select((eb) => [utcQuarterHour(dialect, 'violated_at').as('k'), eb.fn.countAll<number>().as('v')])
    .where('violated_at', '>=', w.from)
    .where('violated_at', '<', w.to)
    .groupBy(sql`1`)
    .execute()
  return new Map(rows.map((r) => [r.k, n(r.v)])) as PerKey
}

/** The AI counters of the scope (empty: every tenant's, platform-wide history included) per UTC day [first, last]. */
export async function aiCountersOf(db: Db, scope: Scope, first: string, last: string) {
  const rows = await whereScope(db.selectFrom('ai_days'), scope)
    .select((eb) => [
      'day',
      eb.fn.sum<number>('ai_usage_count').as('ai_usage_count'),
      eb.fn.sum<number>('knowledge_provider_usage_count').as('knowledge_provider_usage_count'),
      eb.fn.sum<number>('compat_provider_usage_count').as('compat_provider_usage_count'),
    ])
    .where('day', '>=', first)
    .where('day', '<=', last)
    .groupBy('day')
    .execute()
  return rows.map((r) => ({
    day: r.day,
    ai_usage_count: n(r.ai_usage_count),
    knowledge_provider_usage_count: n(r.knowledge_provider_usage_count),
    compat_provider_usage_count: n(r.compat_provider_usage_count),
  }))
}
