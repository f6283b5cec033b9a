import { Type } from '@sinclair/typebox'
import { errorResponses, type RouteModule, scopeOf } from '@switchboard/platform'
import { aiUsage, slaViolations } from '../commands/day-series.commands.ts'
import { optionalRangeOf, rangeOf, zoneOf } from '../commands/range.ts'
import {
  agentPerformanceReport,
  customerSources,
  dashboard,
  ticketCategories,
  ticketPriorities,
  timeRange,
} from '../commands/reports.commands.ts'
import type { StatisticsService } from '../context.ts'
import {
  AgentPerformance,
  AgentPerformanceQuery,
  AiUsageDay,
  Dashboard,
  KeyCount,
  OptionalRangeQuery,
  RangeQuery,
  SlaViolationsDay,
  TimeRangeDay,
  ZoneQuery,
} from '../schemas/statistics.schemas.ts'

/**
 * The reads of /api/statistics (spec, Statistics): bare JSON, each over the request's scope — an unscoped
 * administrator or service sees every tenant (an empty scope is no restriction). Days are UTC days unless `tz=` names a zone.
 */
export const reportRoutes: RouteModule<StatisticsService> = async (app, svc) => {
  app.get(
    '/api/statistics/dashboard',
    { schema: { querystring: ZoneQuery, response: { 200: Dashboard, ...errorResponses(400, 401) } } },
    async (request) => dashboard(svc, scopeOf(request), new Date(), zoneOf(request.query)),
  )

  app.get(
    '/api/statistics/time-range',
    { schema: { querystring: RangeQuery, response: { 200: Type.Array(TimeRangeDay), ...errorResponses(400, 401) } } },
    async (request) => timeRange(svc, scopeOf(request), rangeOf(request.query)),
  )

  app.get(
    '/api/statistics/agent-performance',
    {
      schema: {
        querystring: AgentPerformanceQuery,
        response: { 200: Type.Array(AgentPerformance), ...errorResponses(400, 401) },
      },
    },
    async (request) => agentPerformanceReport(svc, scopeOf(request), rangeOf(request.query), request.query.limit),
  )

  // beside the spec's time range, two more per-day series the console charts (README "Endpoints")
  app.get(
    '/api/statistics/sla-violations',
    {
      schema: { querystring: RangeQuery, response: { 200: Type.Array(SlaViolationsDay), ...errorResponses(400, 401) } },
    },
    async (request) => slaViolations(svc, scopeOf(request), rangeOf(request.query)),
  )
  app.get(
    '/api/statistics/ai-usage',
    { schema: { querystring: RangeQuery, response: { 200: Type.Array(AiUsageDay), ...errorResponses(400, 401) } } },
    async (request) => aiUsage(svc, scopeOf(request), rangeOf(request.query)),
  )

  const grouped = {
    querystring: OptionalRangeQuery,
    response: { 200: Type.Array(KeyCount), ...errorResponses(400, 401) },
  }
  app.get('/api/statistics/ticket-category', { schema: grouped }, async (request) =>
    ticketCategories(svc, scopeOf(request), optionalRangeOf(request.query, new Date())),
  )
  app.get('/api/statistics/ticket-priority', { schema: grouped }, async (request) =>
    ticketPriorities(svc, scopeOf(request), optionalRangeOf(request.query, new Date())),
  )

  app.get(
    '/api/statistics/customer-source',
    // tz= is taken (every endpoint takes it) and checked, though sources have no day to place
    { schema: { querystring: ZoneQuery, response: { 200: Type.Array(KeyCount), ...errorResponses(400, 401) } } },
    async (request) => {
      zoneOf(request.query)
      return customerSources(svc, scopeOf(request))
    },
  )
}
