import { type Caller, CommonErrors } from '@switchboard/platform'
import type { StatisticsService } from '../context.ts'
import { findDaily, writeDaily } from '../db/daily-stats.repository.ts'
import { dayTotals } from '../db/reports.repository.ts'
import { nextDay, startOfDay } from '../domain/dates.ts'
import type { DailyStats } from '../schemas/statistics.schemas.ts'

/**
 * Recomputes one UTC day of DailyStats from the read models: sessions, tickets and messages created that day,
 * tickets resolved that day, SLA violations recorded that day. The AI counters have no read model to recompute
 * from and keep what the events made them. DailyStats is system level (no tenant dimension), so only an unscoped
 * administrator or service may rewrite it.
 */
export async function recomputeDay(svc: StatisticsService, caller: Caller, date: string): Promise<DailyStats> {
  if (caller.scope.tenant_id || caller.scope.workspace_id) {
    throw new CommonErrors.Forbidden('DailyStats is system level: recomputed by an unscoped administrator or service')
  }
  return svc.transaction(caller, async (tx) => {
    const totals = await dayTotals(tx.db, { from: startOfDay(date), to: startOfDay(nextDay(date)) })
    await writeDaily(tx.db, date, totals, new Date().toISOString())
    return (await findDaily(tx.db, date)) as DailyStats
  })
}
