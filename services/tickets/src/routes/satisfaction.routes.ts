import { callerOf, errorResponses, pageOf, pageWindow, type RouteModule, scopeOf } from '@switchboard/platform'
import { createSatisfaction, removeSatisfaction, updateSatisfaction } from '../commands/satisfaction.commands.ts'
import type { TicketsService } from '../context.ts'
import {
  findSatisfaction,
  listSatisfactions,
  satisfactionOfTicket,
  satisfactionStats,
} from '../db/satisfaction.repository.ts'
import { findTicket } from '../db/tickets.repository.ts'
import { dateRange, lastDays } from '../domain/sla-date-range.ts'
import { SatisfactionErrors, SlaErrors, TicketErrors } from '../errors.ts'
import {
  CreateSatisfactionBody,
  ListSatisfactionsQuery,
  Satisfaction,
  SatisfactionPage,
  SatisfactionStats,
  SatisfactionStatsQuery,
  SatisfactionTrend,
  TrendQuery,
  UpdateSatisfactionBody,
} from '../schemas/satisfaction.schemas.ts'
import { IdParams } from '../schemas/sla.schemas.ts'
import { TicketParams } from '../schemas/tickets.schemas.ts'

const tags = ['satisfaction']
const DAY = 86_400_000
// a trend longer than this is a report, not a chart
const MAX_TREND_DAYS = 366

function rangeOf(q: { date_from?: string; date_to?: string }) {
  const range = dateRange(q)
  if (!range.ok) throw range.reason === 'order' ? new SlaErrors.DateOrder() : new SlaErrors.InvalidDate(range.field)
  return range
}

/** The days a trend covers: the asked range (at most a year, its latest days), else the last seven. */
function trendDays(range: { from?: string; to?: string }): string[] {
  const end = range.to ? new Date(new Date(range.to).getTime() - DAY) : new Date()
  const span = range.from ? Math.floor((end.getTime() - new Date(range.from).getTime()) / DAY) + 1 : 7
  return lastDays(end, Math.min(Math.max(span, 1), MAX_TREND_DAYS))
}

/** `/api/satisfactions*`: one rating per ticket, its lists and figures. */
export const satisfactionRoutes: RouteModule<TicketsService> = async (app, svc) => {
  app.post(
    '/api/satisfactions',
    {
      schema: {
        tags,
        body: CreateSatisfactionBody,
        response: { 201: Satisfaction, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const rating = await createSatisfaction(svc, callerOf(request), request.body)
      request.audit = { ...request.audit, resource_id: rating.id, after: rating }
      return reply.code(201).send(rating)
    },
  )

  app.get(
    '/api/satisfactions',
    {
      schema: {
        tags,
        querystring: ListSatisfactionsQuery,
        response: { 200: SatisfactionPage, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { page: _p, page_size: _s, date_from, date_to, ...filters } = request.query
      const range = rangeOf({ date_from, date_to })
      const window = pageWindow(request.query)
      const { rows, total } = await listSatisfactions(
        svc.db,
        scopeOf(request),
        { ...filters, from: range.from, to: range.to },
        window,
      )
      return pageOf(rows, total, window)
    },
  )

  app.get(
    '/api/satisfactions/stats',
    {
      schema: {
        tags,
        querystring: SatisfactionStatsQuery,
        response: { 200: SatisfactionStats, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const range = rangeOf(request.query)
      const { byDay, ...stats } = await satisfactionStats(svc.db, svc.dialect, scopeOf(request), range)
      const trend_data = trendDays(range).map((date) => ({
        date,
        ...(byDay.get(date) ?? { count: 0, average_rating: 0 }),
      }))
      return { ...stats, trend_data }
    },
  )

  app.get(
    '/api/satisfactions/trend',
    { schema: { tags, querystring: TrendQuery, response: { 200: SatisfactionTrend, ...errorResponses(400, 401) } } },
    async (request) => {
      const days = lastDays(new Date(), request.query.days ?? 7)
      const { byDay } = await satisfactionStats(svc.db, svc.dialect, scopeOf(request), {
        from: `${days[0]}T00:00:00.000Z`,
      })
      const items = days.map((date) => ({ date, ...(byDay.get(date) ?? { count: 0, average_rating: 0 }) }))
      return { count: items.length, items }
    },
  )

  // Under the ticket's path but a satisfaction read: the gateway asks for satisfaction.read (PATH_RESOURCE in packages/auth/src/permissions.ts).
  app.get(
    '/api/tickets/:id/satisfaction',
    {
      schema: {
        tags,
        params: TicketParams,
        response: {
          200: Satisfaction,
          204: { description: 'the ticket has no rating', type: 'null' },
          ...errorResponses(401, 404),
        },
      },
    },
    async (request, reply) => {
      // another tenant's ticket is not found, like a missing one, before its rating is looked at
      const ticket = await findTicket(svc.db, request.params.id, scopeOf(request))
      if (!ticket) throw new TicketErrors.NotFound(request.params.id)
      const rating = await satisfactionOfTicket(svc.db, ticket.id, ticket)
      if (!rating) return reply.code(204).send()
      return rating
    },
  )

  app.get(
    '/api/satisfactions/:id',
    { schema: { tags, params: IdParams, response: { 200: Satisfaction, ...errorResponses(401, 404) } } },
    async (request) => {
      const rating = await findSatisfaction(svc.db, request.params.id, scopeOf(request))
      if (!rating) throw new SatisfactionErrors.NotFound(request.params.id)
      return rating
    },
  )

  app.put(
    '/api/satisfactions/:id',
    {
      schema: {
        tags,
        params: IdParams,
        body: UpdateSatisfactionBody,
        response: { 200: Satisfaction, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { before, after } = await updateSatisfaction(svc, callerOf(request), request.params.id, request.body)
      request.audit = { ...request.audit, resource_id: after.id, before, after }
      return after
    },
  )

  app.delete(
    '/api/satisfactions/:id',
    {
      schema: {
        tags,
        params: IdParams,
        response: { 204: { description: 'deleted', type: 'null' }, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const before = await removeSatisfaction(svc, callerOf(request), request.params.id)
      request.audit = { ...request.audit, resource_id: before.id, before }
      return reply.code(204).send()
    },
  )
}
