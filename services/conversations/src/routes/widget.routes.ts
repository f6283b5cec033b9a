import { Type } from '@sinclair/typebox'
import { callerOf, errorResponses, type RouteModule } from '@switchboard/platform'
import { availability } from '../commands/widget.commands.ts'
import type { ConversationsService } from '../context.ts'
import { findSessionRow } from '../db/sessions.repository.ts'
import { visitorCredentialMatches } from '../domain/visitor-credential.ts'
import { ConversationErrors } from '../errors.ts'
import { Id } from '../schemas/sessions.schemas.ts'

const tags = ['widget']
const ScopeId = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' })

const AvailabilityQuery = Type.Object({ tenant_id: ScopeId, workspace_id: ScopeId })
const Availability = Type.Object({
  agents_online: Type.Integer({ description: 'agents routing would hand a conversation to now' }),
  open: Type.Boolean({ description: 'at least one of them' }),
})
const RatingBody = Type.Object(
  { rating: Type.Integer({ minimum: 1, maximum: 5 }), comment: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
)
const RatingHeaders = Type.Object({ 'x-visitor-credential': Type.String({ minLength: 1, maxLength: 256 }) })
const Rated = Type.Object({ id: Type.String(), rating: Type.Integer(), comment: Type.String() })

/**
 * The widget's anonymous paths (the gateway's `/public/widget/` limits): whether anyone is there to chat, and the
 * visitor's rating of its conversation once it closed.
 */
export const widgetRoutes: RouteModule<ConversationsService> = async (app, svc) => {
  app.get(
    '/public/widget/availability',
    { schema: { tags, querystring: AvailabilityQuery, response: { 200: Availability, ...errorResponses(400) } } },
    async (request) => availability(svc, request.query),
  )

  // The visitor proves the conversation is its own with the credential issued with it (the check of
  // `/internal/sessions/:id/access`, run here on the session's own row); anything else — no such session, another
  // credential — is the same 404. tickets owns satisfactions: the rating is stored there, in the session's scope.
  app.post(
    '/public/widget/sessions/:id/satisfaction',
    {
      schema: {
        tags,
        params: Type.Object({ id: Id }),
        headers: RatingHeaders,
        body: RatingBody,
        response: { 201: Rated, ...errorResponses(400, 404, 409, 502, 503) },
      },
    },
    async (request, reply) => {
      const id = request.params.id
      const session = await findSessionRow(svc.db, id, { tenant_id: '', workspace_id: '' })
      if (!session || !visitorCredentialMatches(request.headers['x-visitor-credential'], session.visitor_secret_hash)) {
        throw new ConversationErrors.SessionNotFound(id)
      }
      if (session.status !== 'closed') throw new ConversationErrors.SessionNotClosed(id)
      if (!svc.tickets) throw new ConversationErrors.TicketsUnavailable('UPSTREAM_TICKETS is not set')
      const scope = { tenant_id: session.tenant_id, workspace_id: session.workspace_id }
      const answer = await svc.tickets.call<{
        id: string
        rating: number
        comment: string
        code?: string
        message?: string
      }>(
        'POST',
        '/internal/satisfactions/session',
        {
          session_id: session.id,
          ticket_id: session.ticket_id,
          customer_id: session.customer_id,
          agent_id: session.agent_id,
          rating: request.body.rating,
          ...(request.body.comment !== undefined ? { comment: request.body.comment } : {}),
        },
        { scope, request_id: callerOf(request).request_id ?? String(request.id) },
      )
      if (answer.status !== 201) {
        const status = answer.status >= 500 ? 502 : answer.status
        throw ConversationErrors.TicketsRefused(
          status,
          answer.body?.code ?? 'UPSTREAM_ERROR',
          answer.body?.message ?? `tickets answered ${answer.status}`,
        )
      }
      const { id: ratingId, rating, comment } = answer.body
      return reply.code(201).send({ id: ratingId, rating, comment })
    },
  )
}
