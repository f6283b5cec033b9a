import type { Scope } from '@switchboard/platform'
import type { StatisticsService } from '../context.ts'
import { aiCountersOf, violationsPerKey } from '../db/day-series.repository.ts'
import { StatisticsErrors } from '../errors.ts'
import type { AiUsageDay, SlaViolationsDay } from '../schemas/statistics.schemas.ts'
import { type Range, UTC } from './range.ts'
import { byDay, grainOf } from './reports.commands.ts'

/** SLA violations of the scope per day of the range (by violated_at), UTC days or `tz`'s; one row per day. */
export async function slaViolations(svc: StatisticsService, scope: Scope, range: Range): Promise<SlaViolationsDay[]> {
  const keyed = await violationsPerKey(svc.db, svc.dialect, scope, range, grainOf(range))
  const days = byDay(keyed, range.tz)
  return range.days.map((date) => ({ date, sla_violations: days.get(date) ?? 0 }))
}

/**
 * The AI counters of the scope per UTC day of the range (spec: ai_usage_count, knowledge_provider_usage_count and
 * the compatibility-provider counter), from ai_days: a scoped view its own answers, the unscoped one every tenant's.
 * The rows are UTC days, so another `tz` is refused.
 */
export async function aiUsage(svc: StatisticsService, scope: Scope, range: Range): Promise<AiUsageDay[]> {
  if (range.tz !== UTC) throw new StatisticsErrors.UtcOnly(range.tz)
  const rows = await aiCountersOf(svc.db, scope, range.days[0]!, range.days[range.days.length - 1]!)
  const byDate = new Map(rows.map((r) => [r.day, r]))
  return range.days.map((date) => {
    const row = byDate.get(date)
    return {
      date,
      ai_usage_count: row?.ai_usage_count ?? 0,
      knowledge_provider_usage_count: row?.knowledge_provider_usage_count ?? 0,
      compat_provider_usage_count: row?.compat_provider_usage_count ?? 0,
    }
  })
}
