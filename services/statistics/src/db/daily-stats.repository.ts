import { type Kysely, sql } from 'kysely'
import type { DailyCounter, DailyStatsTable, StatisticsDatabase } from './database.ts'

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

/**
 * `counter += by` on a day's row, made if missing (the spec's Increment* events). One statement, so concurrent
 * consumers on several replicas add up rather than overwrite.
 */
export async function bumpDaily(
  db: Kysely<StatisticsDatabase>,
  date: string,
  counter: DailyCounter,
  now: string,
  by = 1,
): Promise<void> {
  await db
    .insertInto('daily_stats')
    .values({ date, ...ZERO, [counter]: by, updated_at: now })
    .onConflict((oc) =>
      oc.column('date').doUpdateSet({ [counter]: sql`${sql.ref(`daily_stats.${counter}`)} + ${by}`, updated_at: now }),
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
