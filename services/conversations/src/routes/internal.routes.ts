import { CommonErrors, callerOf, errorResponses, newId, type RouteModule, scopeOf } from '@switchboard/platform'
import { joinRole, type Party } from '../commands/access.ts'
import { markRead } from '../commands/inbox.commands.ts'
import { receiveMessage } from '../commands/messages.commands.ts'
import { sessionView } from '../commands/queue-info.ts'
import type { ConversationsService } from '../context.ts'
import { ConversationErrors } from '../errors.ts'
import { InternalReadBody, ReadResult } from '../schemas/inbox.schemas.ts'
import {
  AccessBody,
  AccessResult,
  InternalMessageBody,
  InternalMessageResult,
  InternalSessionBody,
} from '../schemas/internal.schemas.ts'
import { InternalMessagesQuery, MessageList } from '../schemas/messages.schemas.ts'
import { Session, SessionParams } from '../schemas/sessions.schemas.ts'
import { readableSession, sessionMessages } from './session-reads.ts'

const errors = (...s: number[]) => errorResponses(401, 403, ...s)

/**
 * `/internal/sessions*`: the realtime hub and other services (the AI). Service principals only; hidden from
 * OpenAPI by the prefix. Customers and visitors reach their sessions through the hub, which asks `…/access`
 * before joining a socket and posts their messages here.
 */
export const internalRoutes: RouteModule<ConversationsService> = async (app, svc) => {
  app.addHook('onRequest', async (request) => {
    if (request.principal.kind !== 'service') throw new ConversationErrors.ServiceOnly()
  })

  // A customer's first message, the id chosen here (or by the hub): the session with it.
  app.post(
    '/internal/sessions',
    {
      schema: {
        hide: true,
        body: InternalSessionBody,
        response: { 201: InternalMessageResult, ...errors(400, 404, 409, 413) },
      },
    },
    async (request, reply) => {
      const { session_id, ...body } = request.body
      const result = await receiveMessage(svc, callerOf(request), session_id ?? newId(), body)
      return reply.code(201).send(result)
    },
  )

  app.post(
    '/internal/sessions/:id/messages',
    {
      schema: {
        hide: true,
        params: SessionParams,
        body: InternalMessageBody,
        response: { 201: InternalMessageResult, ...errors(400, 404, 409, 413) },
      },
    },
    async (request, reply) => {
      const result = await receiveMessage(svc, callerOf(request), request.params.id, request.body)
      return reply.code(201).send(result)
    },
  )

  // Asked by the hub before it joins a socket to a session: 200 with the session, or the same 404 as a missing one.
  app.post(
    '/internal/sessions/:id/access',
    {
      schema: {
        hide: true,
        params: SessionParams,
        body: AccessBody,
        response: { 200: AccessResult, ...errors(400, 404) },
      },
    },
    async (request) => {
      const party = partyOf(request.body)
      const scope = scopeOf(request)
      // An agent's scope is the request's (the hub signs its principal with the socket's scope): without one, any
      // tenant's supervisor would pass. Only an agent holding `*` (an admin) may be unscoped.
      if (party.kind === 'agent' && !party.permissions.includes('*') && (!scope.tenant_id || !scope.workspace_id)) {
        throw new CommonErrors.BadRequest("an agent's access is asked in the agent's tenant and workspace")
      }
      const row = await readableSession(svc.db, request.params.id, scope)
      const role = joinRole(row, party)
      if (!role) throw new ConversationErrors.SessionNotFound(request.params.id)
      return { session: await sessionView(svc.db, row), role }
    },
  )

  // A console's `read {message_id}` frame, stored by the hub for the socket's agent (README "Inbox").
  app.post(
    '/internal/sessions/:id/read',
    {
      schema: {
        hide: true,
        params: SessionParams,
        body: InternalReadBody,
        response: { 200: ReadResult, ...errors(400, 404) },
      },
    },
    async (request) => {
      const { user_id, message_id } = request.body
      const read = { session_id: request.params.id, message_id, user_id }
      return markRead(svc, callerOf(request), scopeOf(request), read)
    },
  )

  app.get(
    '/internal/sessions/:id',
    { schema: { hide: true, params: SessionParams, response: { 200: Session, ...errors(400, 404) } } },
    async (request) => sessionView(svc.db, await readableSession(svc.db, request.params.id, scopeOf(request))),
  )

  app.get(
    '/internal/sessions/:id/messages',
    {
      schema: {
        hide: true,
        params: SessionParams,
        querystring: InternalMessagesQuery,
        response: { 200: MessageList, ...errors(400, 404) },
      },
    },
    async (request) => {
      const row = await readableSession(svc.db, request.params.id, scopeOf(request))
      const { visibility, ...page } = request.query
      // notes only when asked for: the hub asks for them for a console's socket, never for a customer's or visitor's
      return sessionMessages(svc.db, row.id, page, visibility === 'all' ? 'all' : 'public')
    },
  )
}

/** Exactly one party per question. */
function partyOf(body: AccessBody): Party {
  const named = (['customer_id', 'visitor_credential', 'agent_user_id', 'service_id'] as const).filter(
    (k) => body[k] !== undefined,
  )
  if (named.length !== 1) {
    throw new ConversationErrors.BodyField(
      named[1] ?? 'customer_id',
      'name exactly one of customer_id, visitor_credential, agent_user_id, service_id',
    )
  }
  if (body.permissions !== undefined && body.agent_user_id === undefined) {
    throw new ConversationErrors.BodyField('permissions', 'only with agent_user_id')
  }
  if (body.customer_id !== undefined) return { kind: 'customer', customer_id: body.customer_id }
  if (body.visitor_credential !== undefined) return { kind: 'visitor', credential: body.visitor_credential }
  if (body.agent_user_id !== undefined) {
    return { kind: 'agent', user_id: body.agent_user_id, permissions: body.permissions ?? [] }
  }
  return { kind: 'service', service_id: body.service_id ?? '' }
}
