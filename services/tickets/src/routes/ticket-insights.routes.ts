import { errorResponses, PageQuery, pageOf, pageWindow, type RouteModule, scopeOf } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { findAgent } from '../db/directory.repository.ts'
import { listStatusChanges } from '../db/status-history.repository.ts'
import { ticketConversations } from '../db/ticket-sessions.repository.ts'
import { ticketStats } from '../db/ticket-stats.repository.ts'
import { findTicket } from '../db/tickets.repository.ts'
import { TicketErrors } from '../errors.ts'
import {
  StatusHistoryPage,
  TicketConversationList,
  TicketStats,
  TicketStatsQuery,
} from '../schemas/ticket-views.schemas.ts'
import { TicketParams } from '../schemas/tickets.schemas.ts'

const tags = ['tickets']

/** Reads about tickets: the scope's counts, one ticket's status history and the conversations it continues. */
export const ticketInsightRoutes: RouteModule<TicketsService> = async (app, svc) => {
  app.get(
    '/api/tickets/stats',
    { schema: { tags, querystring: TicketStatsQuery, response: { 200: TicketStats, ...errorResponses(400, 401) } } },
    async (request) => {
      const scope = scopeOf(request)
      const given = request.query.agent_id
      // an agent named by record id counts the tickets of its user id, which tickets store
      const agent = given ? await findAgent(svc.db, given, scope) : undefined
      const agentIds = given ? [...new Set([given, ...(agent ? [agent.user_id] : [])])] : undefined
      return ticketStats(svc.db, scope, agentIds, new Date())
    },
  )

  app.get(
    '/api/tickets/:id/history',
    {
      schema: {
        tags,
        params: TicketParams,
        querystring: PageQuery,
        response: { 200: StatusHistoryPage, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const ticket = await findTicket(svc.db, request.params.id, scopeOf(request))
      if (!ticket) throw new TicketErrors.NotFound(request.params.id)
      const window = pageWindow(request.query)
      const { rows, total } = await listStatusChanges(svc.db, ticket.id, window)
      return pageOf(rows, total, window)
    },
  )

  app.get(
    '/api/tickets/:id/conversations',
    {
      schema: {
        tags,
        params: TicketParams,
        response: { 200: TicketConversationList, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const ticket = await findTicket(svc.db, request.params.id, scopeOf(request))
      if (!ticket) throw new TicketErrors.NotFound(request.params.id)
      const items = await ticketConversations(svc.db, ticket.id, ticket)
      return { count: items.length, items }
    },
  )
}
