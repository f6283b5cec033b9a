import { type Kysely, sql } from 'kysely'
import type { DailyCounter, DailyStatsTable, StatisticsDatabase } from './database.ts'
import type { UnitOfWork } from './unit-of-work.ts'

const ZERO = {
  total_sessions: 0,
  total_messages: 0,
  total_tickets: 0,
  resolved_tickets: 0,
  ai_usage_count: 0,
  knowledge_provider_usage_count: 0,
  compat_provider_usage_count: 0,
  sla_violations: 0,
}

/** `counter += by` on a day's row (the spec's Increment* events), added up in the batch's unit of work. */
export function bumpDaily(work: UnitOfWork, date: string, counter: DailyCounter, now: string, by = 1): void {
  const day = work.daily.get(date) ?? { counters: {}, now }
  day.counters[counter] = (day.counters[counter] ?? 0) + by
  day.now = now
  work.daily.set(date, day)
}

/**
 * Several counters of a day moved at once (a batch's flush), the row made if missing. One statement, so concurrent
 * consumers on several replicas add up rather than overwrite.
 */
export async function writeDailyCounters(
  db: Kysely<StatisticsDatabase>,
  date: string,
  counters: Partial<Record<DailyCounter, number>>,
  now: string,
): Promise<void> {
  const moved = Object.entries(counters).filter(([, by]) => by !== 0) as Array<[DailyCounter, number]>
  if (moved.length === 0) return
  await db
    .insertInto('daily_stats')
    .values({ date, ...ZERO, ...Object.fromEntries(moved), updated_at: now })
    .onConflict((oc) =>
      oc.column('date').doUpdateSet({
        ...Object.fromEntries(moved.map(([c, by]) => [c, sql`${sql.ref(`daily_stats.${c}`)} + ${by}`])),
        updated_at: now,
      }),
    )
    .execute()
}

/** The counters a recompute sets; the AI counters are left as the events moved them. */
export type RecomputedCounters = Pick<
  DailyStatsTable,
  'total_sessions' | 'total_messages' | 'total_tickets' | 'resolved_tickets' | 'sla_violations'
>

export async function writeDaily(
  db: Kysely<StatisticsDatabase>,
  date: string,
  counters: RecomputedCounters,
  now: string,
): Promise<void> {
  await db
    .insertInto('daily_stats')
    .values({ date, ...ZERO, ...counters, updated_at: now })
    .onConflict((oc) => oc.column('date').doUpdateSet({ ...counters, updated_at: now }))
    .execute()
}

export function findDaily(db: Kysely<StatisticsDatabase>, date: string) {
  return db.selectFrom('daily_stats').selectAll().where('date', '=', date).executeTakeFirst()
}
