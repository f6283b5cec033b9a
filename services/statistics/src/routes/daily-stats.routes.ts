import { callerOf, errorResponses, optionalBody, type RouteModule } from '@switchboard/platform'
import { recomputeDay } from '../commands/daily-stats.commands.ts'
import { dayParam } from '../commands/range.ts'
import type { StatisticsService } from '../context.ts'
import { DailyUpdated, DayQuery } from '../schemas/statistics.schemas.ts'

/** DailyStats, the system-level day summary: recomputed from the read models on demand. */
export const dailyStatsRoutes: RouteModule<StatisticsService> = async (app, svc) => {
  app.post(
    '/api/statistics/update-daily',
    {
      // a bare POST (no body) is the normal call: the day is in the query
      preValidation: optionalBody,
      schema: { querystring: DayQuery, response: { 200: DailyUpdated, ...errorResponses(400, 401, 403) } },
    },
    async (request) => {
      const date = dayParam('date', request.query.date, new Date())
      const stats = await recomputeDay(svc, callerOf(request), date)
      request.audit = { ...request.audit, resource_id: date, after: stats }
      return { message: 'Daily statistics updated successfully', date, stats }
    },
  )
}
