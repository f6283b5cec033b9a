import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { PageQuery, pageOf } from '@switchboard/contracts'
import { scopeOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import { addComment, ticketContext } from '../commands/ticket.commands.ts'
import { listComments } from '../db/comments.repository.ts'
import type { TicketsDatabase } from '../db/database.ts'
import { findTicket } from '../db/tickets.repository.ts'
import { TicketErrors } from '../errors.ts'
import { AddCommentBody, CommentPage, TicketComment } from '../schemas/comments.schemas.ts'
import { TicketParams } from '../schemas/tickets.schemas.ts'
import { errorResponses } from './responses.ts'

const tags = ['tickets']

/** `/api/tickets/:id/comments`: a ticket's thread, oldest first. */
export const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = ticketContext(app)
  const db = app.db as Kysely<TicketsDatabase>

  app.post(
    '/api/tickets/:id/comments',
    {
      schema: {
        tags,
        params: TicketParams,
        body: AddCommentBody,
        response: { 201: TicketComment, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const comment = await addComment(ctx, request, request.params.id, request.body)
      request.audit = { ...request.audit, resource_id: request.params.id, after: comment }
      return reply.code(201).send(comment)
    },
  )

  app.get(
    '/api/tickets/:id/comments',
    {
      schema: {
        tags,
        params: TicketParams,
        querystring: PageQuery,
        response: { 200: CommentPage, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { page = 1, page_size: pageSize = 20 } = request.query
      const ticket = await findTicket(db, request.params.id, scopeOf(request))
      if (!ticket) throw new TicketErrors.NotFound(request.params.id)
      const { rows, total } = await listComments(db, ticket.id, { offset: (page - 1) * pageSize, limit: pageSize })
      return pageOf(rows, total, page, pageSize)
    },
  )
}
