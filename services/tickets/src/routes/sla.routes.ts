import {
  callerOf,
  concreteScope,
  errorResponses,
  pageOf,
  pageWindow,
  type RouteModule,
  scopeOf,
} from '@switchboard/platform'
import { checkTicket, resolveViolation, setBusinessHours } from '../commands/sla.commands.ts'
import type { TicketsService } from '../context.ts'
import { findCalendar } from '../db/business-hours.repository.ts'
import { complianceRate, slaStats } from '../db/sla-stats.repository.ts'
import { listViolations } from '../db/sla-violations.repository.ts'
import { dateRange, lastDays } from '../domain/sla-date-range.ts'
import { SlaErrors } from '../errors.ts'
import { BusinessHours, BusinessHoursBody } from '../schemas/business-hours.schemas.ts'
import {
  IdParams,
  ListViolationsQuery,
  SlaCheckResult,
  SlaStats,
  SlaStatsQuery,
  SlaViolation,
  SlaViolationPage,
} from '../schemas/sla.schemas.ts'

const tags = ['sla']

/** `/api/sla/violations*`, `/api/sla/stats`, `/api/sla/check/ticket/:id`, `/api/sla/business-hours`. */
export const slaRoutes: RouteModule<TicketsService> = async (app, svc) => {
  app.get(
    '/api/sla/violations',
    {
      schema: {
        tags,
        querystring: ListViolationsQuery,
        response: { 200: SlaViolationPage, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { page: _p, page_size: _s, date_from, date_to, ...filters } = request.query
      const range = dateRange({ date_from, date_to })
      if (!range.ok) throw range.reason === 'order' ? new SlaErrors.DateOrder() : new SlaErrors.InvalidDate(range.field)
      const window = pageWindow(request.query)
      const { rows, total } = await listViolations(
        svc.db,
        scopeOf(request),
        { ...filters, from: range.from, to: range.to },
        window,
      )
      return pageOf(rows, total, window)
    },
  )

  app.post(
    '/api/sla/violations/:id/resolve',
    { schema: { tags, params: IdParams, response: { 200: SlaViolation, ...errorResponses(401, 404, 409) } } },
    async (request) => {
      const { before, after } = await resolveViolation(svc, callerOf(request), request.params.id)
      request.audit = { ...request.audit, resource_id: after.id, before, after }
      return after
    },
  )

  app.get(
    '/api/sla/stats',
    { schema: { tags, querystring: SlaStatsQuery, response: { 200: SlaStats, ...errorResponses(400, 401) } } },
    async (request) => {
      const days = lastDays(new Date(), request.query.days ?? 7)
      const { trend, ...stats } = await slaStats(svc.db, svc.dialect, scopeOf(request), `${days[0]}T00:00:00.000Z`)
      const trend_data = days.map((date) => {
        const d = trend.get(date) ?? { total: 0, violated: 0 }
        return {
          date,
          total_tickets: d.total,
          violations: d.violated,
          compliance_rate: complianceRate(d.total, d.violated),
        }
      })
      return { ...stats, trend_data }
    },
  )

  // 200 with the breach (recorded now if the monitor had not yet), 204 when the ticket has no config or no breach.
  app.post(
    '/api/sla/check/ticket/:id',
    {
      schema: {
        tags,
        params: IdParams,
        response: {
          200: SlaCheckResult,
          204: { description: 'no SLA config applies, or nothing is breached', type: 'null' },
          ...errorResponses(401, 404),
        },
      },
    },
    async (request, reply) => {
      const found = await checkTicket(svc, callerOf(request), request.params.id)
      request.audit = { ...request.audit, resource_id: request.params.id }
      if (!found) return reply.code(204).send()
      return found
    },
  )

  app.get(
    '/api/sla/business-hours',
    { schema: { tags, response: { 200: BusinessHours, ...errorResponses(400, 401) } } },
    // a calendar is a scope's: an unscoped admin names one (X-Tenant-ID / X-Workspace-ID)
    async (request) => findCalendar(svc.db, concreteScope(request)),
  )

  app.put(
    '/api/sla/business-hours',
    {
      schema: { tags, body: BusinessHoursBody, response: { 200: BusinessHours, ...errorResponses(400, 401) } },
    },
    async (request) => {
      const { before, after } = await setBusinessHours(svc, callerOf(request), request.body)
      request.audit = { ...request.audit, before, after }
      return after
    },
  )
}
