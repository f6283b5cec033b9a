import {
  callerOf,
  errorResponses,
  optionalBody,
  pageOf,
  pageWindow,
  type RouteModule,
  scopeOf,
} from '@switchboard/platform'
import { assignTicket, closeTicket, createTicket, updateTicket } from '../commands/ticket.commands.ts'
import type { TicketsService } from '../context.ts'
import { listTickets } from '../db/ticket-query.ts'
import { findTicket } from '../db/tickets.repository.ts'
import { TicketErrors } from '../errors.ts'
import {
  AssignTicketBody,
  CloseTicketBody,
  CreateTicketBody,
  ListTicketsQuery,
  Ticket,
  TicketPage,
  TicketParams,
  UpdateTicketBody,
} from '../schemas/tickets.schemas.ts'
import { ticketFiltersOf } from './ticket-filters.ts'

const tags = ['tickets']

/** `/api/tickets`: thin handlers; the rules are in domain/, the transactions in commands/. */
export const ticketRoutes: RouteModule<TicketsService> = async (app, svc) => {
  app.post(
    '/api/tickets',
    { schema: { tags, body: CreateTicketBody, response: { 201: Ticket, ...errorResponses(400, 401) } } },
    async (request, reply) => {
      const ticket = await createTicket(svc, callerOf(request), request.body)
      request.audit = { ...request.audit, resource_id: ticket.id, after: ticket }
      return reply.code(201).send(ticket)
    },
  )

  app.get(
    '/api/tickets',
    { schema: { tags, querystring: ListTicketsQuery, response: { 200: TicketPage, ...errorResponses(400, 401) } } },
    async (request) => {
      const scope = scopeOf(request)
      const { filters, sort } = await ticketFiltersOf(svc, scope, request.query)
      const window = pageWindow(request.query)
      const { rows, total } = await listTickets(svc.db, svc.dialect, scope, filters, sort, window)
      return pageOf(rows, total, window)
    },
  )

  app.get(
    '/api/tickets/:id',
    { schema: { tags, params: TicketParams, response: { 200: Ticket, ...errorResponses(401, 404) } } },
    async (request) => {
      const ticket = await findTicket(svc.db, request.params.id, scopeOf(request))
      if (!ticket) throw new TicketErrors.NotFound(request.params.id)
      return ticket
    },
  )

  app.put(
    '/api/tickets/:id',
    {
      schema: {
        tags,
        params: TicketParams,
        body: UpdateTicketBody,
        response: { 200: Ticket, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => {
      const { before, after } = await updateTicket(svc, callerOf(request), request.params.id, request.body)
      request.audit = { ...request.audit, resource_id: after.id, before, after }
      return after
    },
  )

  app.post(
    '/api/tickets/:id/assign',
    {
      schema: {
        tags,
        params: TicketParams,
        body: AssignTicketBody,
        response: { 200: Ticket, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => {
      const { before, after } = await assignTicket(svc, callerOf(request), request.params.id, request.body.agent_id)
      request.audit = { ...request.audit, resource_id: after.id, before, after }
      return after
    },
  )

  app.post(
    '/api/tickets/:id/close',
    {
      schema: {
        tags,
        params: TicketParams,
        body: CloseTicketBody,
        response: { 200: Ticket, ...errorResponses(400, 401, 404, 409) },
      },
      // a bare POST closes without a reason
      preValidation: optionalBody,
    },
    async (request) => {
      const { before, after } = await closeTicket(svc, callerOf(request), request.params.id, request.body.reason)
      request.audit = { ...request.audit, resource_id: after.id, before, after }
      return after
    },
  )
}
