import {
  callerOf,
  errorResponses,
  PageQuery,
  pageOf,
  pageWindow,
  type RouteModule,
  scopeOf,
} from '@switchboard/platform'
import { addComment } from '../commands/ticket.commands.ts'
import type { TicketsService } from '../context.ts'
import { listComments } from '../db/comments.repository.ts'
import { findTicket } from '../db/tickets.repository.ts'
import { TicketErrors } from '../errors.ts'
import { AddCommentBody, CommentPage, TicketComment } from '../schemas/comments.schemas.ts'
import { TicketParams } from '../schemas/tickets.schemas.ts'

const tags = ['tickets']

/** `/api/tickets/:id/comments`: a ticket's thread, oldest first. */
export const commentRoutes: RouteModule<TicketsService> = async (app, svc) => {
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
      const comment = await addComment(svc, callerOf(request), request.params.id, request.body)
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
      const ticket = await findTicket(svc.db, request.params.id, scopeOf(request))
      if (!ticket) throw new TicketErrors.NotFound(request.params.id)
      const window = pageWindow(request.query)
      const { rows, total } = await listComments(svc.db, ticket.id, window)
      return pageOf(rows, total, window)
    },
  )
}
