import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { pageOf } from '@switchboard/contracts'
import { scopeOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import { assignTicket, closeTicket, createTicket, ticketContext, updateTicket } from '../commands/ticket.commands.ts'
import type { TicketsDatabase } from '../db/database.ts'
import { findTicket, listTickets } from '../db/tickets.repository.ts'
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
import { errorResponses } from './responses.ts'

const tags = ['tickets']

/** `/api/tickets`: thin handlers; the rules are in domain/, the transactions in commands/. */
export const ticketRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = ticketContext(app)
  const db = app.db as Kysely<TicketsDatabase>

  app.post(
    '/api/tickets',
    { schema: { tags, body: CreateTicketBody, response: { 201: Ticket, ...errorResponses(400, 401) } } },
    async (request, reply) => {
      const ticket = await createTicket(ctx, request, request.body)
      request.audit = { ...request.audit, resource_id: ticket.id, after: ticket }
      return reply.code(201).send(ticket)
    },
  )

  app.get(
    '/api/tickets',
    { schema: { tags, querystring: ListTicketsQuery, response: { 200: TicketPage, ...errorResponses(400, 401) } } },
    async (request) => {
      const { page = 1, page_size: pageSize = 20, ...filters } = request.query
      const { rows, total } = await listTickets(db, app.dbDialect, scopeOf(request), filters, {
        offset: (page - 1) * pageSize,
        limit: pageSize,
      })
      return pageOf(rows, total, page, pageSize)
    },
  )

  app.get(
    '/api/tickets/:id',
    { schema: { tags, params: TicketParams, response: { 200: Ticket, ...errorResponses(401, 404) } } },
    async (request) => {
      const ticket = await findTicket(db, request.params.id, scopeOf(request))
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
      const { before, after } = await updateTicket(ctx, request, request.params.id, request.body)
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
      const { before, after } = await assignTicket(ctx, request, request.params.id, request.body.agent_id)
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
      // The body is optional: a bare POST closes without a reason.
      preValidation: async (request) => {
        request.body ??= {}
      },
    },
    async (request) => {
      const { before, after } = await closeTicket(ctx, request, request.params.id, request.body.reason)
      request.audit = { ...request.audit, resource_id: after.id, before, after }
      return after
    },
  )
}
