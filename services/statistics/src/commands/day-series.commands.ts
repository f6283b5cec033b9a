import type { Scope } from '@switchboard/platform'
import type { StatisticsService } from '../context.ts'
import { aiCountersOf, violationsPerKey } from '../db/day-series.repository.ts'
import { StatisticsErrors } from '../errors.ts'
import type { AiUsageDay, SlaViolationsDay } from '../schemas/statistics.schemas.ts'
import { type Range, UTC } from './range.ts'
import { byDay, grainOf, unscoped } from './reports.commands.ts'

/** SLA violations of the scope per day of the range (by violated_at), UTC days or `tz`'s; one row per day. */
export async function slaViolations(svc: StatisticsService, scope: Scope, range: Range): Promise<SlaViolationsDay[]> {
  const keyed = await violationsPerKey(svc.db, svc.dialect, scope, range, grainOf(range))
  const days = byDay(keyed, range.tz)
  return range.days.map((date) => ({ date, sla_violations: days.get(date) ?? 0 }))
}

/**
 * DailyStats' AI counters per UTC day of the range (spec: ai_usage_count, knowledge_provider_usage_count and the
 * compatibility-provider counter). DailyStats has no tenant dimension (it is system level): as on the dashboard, a
 * scoped view cannot know its share and gets 0 on every day; its rows are UTC days, so another `tz` is refused.
 */
export async function aiUsage(svc: StatisticsService, scope: Scope, range: Range): Promise<AiUsageDay[]> {
  if (range.tz !== UTC) throw new StatisticsErrors.UtcOnly(range.tz)
  const rows = unscoped(scope) ? await aiCountersOf(svc.db, range.days[0]!, range.days[range.days.length - 1]!) : []
  const byDate = new Map(rows.map((r) => [r.date, r]))
  return range.days.map((date) => {
    const row = byDate.get(date)
    return {
      date,
      ai_usage_count: Number(row?.ai_usage_count ?? 0),
      knowledge_provider_usage_count: Number(row?.knowledge_provider_usage_count ?? 0),
      compat_provider_usage_count: Number(row?.compat_provider_usage_count ?? 0),
    }
  })
}
