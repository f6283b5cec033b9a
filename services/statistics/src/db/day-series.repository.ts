import type { Dialect, Scope } from '@switchboard/platform'
import { whereScope } from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'
import type { StatisticsDatabase } from './database.ts'
import type { Grain, PerKey, Window } from './reports.repository.ts'
import { utcQuarterHour } from './sql-dialect.ts'

// Per-day series the reports chart beside the spec's time range: SLA violations (scoped, by violated_at) and the
// DailyStats AI counters (system level, UTC days).

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

/** DailyStats' AI counters of the UTC days [first, last]. */
export function aiCountersOf(db: Db, first: string, last: string) {
  return db
    .selectFrom('daily_stats')
    .select(['date', 'ai_usage_count', 'knowledge_provider_usage_count', 'compat_provider_usage_count'])
    .where('date', '>=', first)
    .where('date', '<=', last)
    .execute()
}
