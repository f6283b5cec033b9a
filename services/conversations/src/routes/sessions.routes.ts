import {
  callerOf,
  errorResponses,
  optionalBody,
  pageOf,
  pageWindow,
  type RouteModule,
  scopeOf,
} from '@switchboard/platform'
import { mayRead } from '../commands/access.ts'
import { postAgentMessage } from '../commands/messages.commands.ts'
import { sessionView } from '../commands/queue-info.ts'
import { reopenSession } from '../commands/reopen-session.ts'
import { assignSession, closeSession, openSession, transferSession } from '../commands/sessions.commands.ts'
import type { ConversationsService } from '../context.ts'
import { listSessions, toSession } from '../db/sessions.repository.ts'
import { ConversationErrors } from '../errors.ts'
import { MessageList, MessagesQuery, PostMessageBody } from '../schemas/messages.schemas.ts'
import {
  AssignSessionBody,
  CloseSessionBody,
  CreateSessionBody,
  ListSessionsQuery,
  ReopenSessionBody,
  TransferSessionBody,
} from '../schemas/session-actions.schemas.ts'
import { Message, Session, SessionPage, SessionParams } from '../schemas/sessions.schemas.ts'
import { readableSession, sessionMessages } from './session-reads.ts'

const tags = ['conversations']

/**
 * `/api/omni/sessions*`: staff (agents, admins, services with `workspace.*`). Agents read every session of their
 * scope; posting is the assigned agent's (or a supervisor's): commands/access.ts. Outside the scope: 404.
 */
export const sessionRoutes: RouteModule<ConversationsService> = async (app, svc) => {
  app.get(
    '/api/omni/sessions',
    {
      schema: { tags, querystring: ListSessionsQuery, response: { 200: SessionPage, ...errorResponses(400, 401) } },
    },
    async (request) => {
      const { page: _page, page_size: _size, mine, ...filters } = request.query
      if (mine) filters.agent_id = request.principal.user_id
      const window = pageWindow(request.query)
      // the detail route's read rule: to anyone but staff the scope holds no sessions at all
      if (!mayRead(request.principal)) return pageOf([], 0, window)
      const { rows, total } = await listSessions(svc.db, scopeOf(request), filters, window)
      const sessions = rows.map((r) => toSession(r))
      return pageOf(sessions, total, window)
    },
  )

  app.post(
    '/api/omni/sessions',
    {
      schema: {
        tags,
        body: CreateSessionBody,
        response: { 201: Session, ...errorResponses(400, 401, 403, 404, 409, 413) },
      },
    },
    async (request, reply) => {
      const session = await openSession(svc, callerOf(request), request.body)
      request.audit = { ...request.audit, resource_id: session.id, after: session }
      return reply.code(201).send(session)
    },
  )

  app.get(
    '/api/omni/sessions/:id',
    { schema: { tags, params: SessionParams, response: { 200: Session, ...errorResponses(400, 401, 404) } } },
    async (request) => sessionView(svc.db, await readable(request.params.id, request)),
  )

  app.get(
    '/api/omni/sessions/:id/messages',
    {
      schema: {
        tags,
        params: SessionParams,
        querystring: MessagesQuery,
        response: { 200: MessageList, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const row = await readable(request.params.id, request)
      // only staff read here (readable): notes included
      return sessionMessages(svc.db, row.id, request.query, 'all')
    },
  )

  app.post(
    '/api/omni/sessions/:id/messages',
    {
      schema: {
        tags,
        params: SessionParams,
        body: PostMessageBody,
        response: { 201: Message, ...errorResponses(400, 401, 403, 404, 409, 413) },
      },
    },
    async (request, reply) => {
      const { message } = await postAgentMessage(svc, callerOf(request), request.params.id, request.body)
      // a note is audited as such: same action (workspace.messages), its visibility in the record's after
      request.audit = { ...request.audit, resource_id: request.params.id, after: message }
      return reply.code(201).send(message)
    },
  )

  app.post(
    '/api/omni/sessions/:id/assign',
    {
      schema: {
        tags,
        params: SessionParams,
        body: AssignSessionBody,
        response: { 200: Session, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => {
      const { before, after } = await assignSession(svc, callerOf(request), request.params.id, request.body.agent_id)
      request.audit = { ...request.audit, resource_id: after.id, before, after }
      return after
    },
  )

  app.post(
    '/api/omni/sessions/:id/transfer',
    {
      schema: {
        tags,
        params: SessionParams,
        body: TransferSessionBody,
        response: { 200: Session, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => {
      const { to_agent_id, reason } = request.body
      const { before, after } = await transferSession(svc, callerOf(request), request.params.id, to_agent_id, reason)
      request.audit = { ...request.audit, resource_id: after.id, before, after }
      return after
    },
  )

  app.post(
    '/api/omni/sessions/:id/close',
    {
      schema: {
        tags,
        params: SessionParams,
        body: CloseSessionBody,
        response: { 200: Session, ...errorResponses(400, 401, 404, 409) },
      },
      // a bare POST closes without a reason
      preValidation: optionalBody,
    },
    async (request) => {
      const { before, after } = await closeSession(svc, callerOf(request), request.params.id, request.body.reason)
      request.audit = { ...request.audit, resource_id: after.id, before, after }
      return after
    },
  )

  app.post(
    '/api/omni/sessions/:id/reopen',
    {
      schema: {
        tags,
        params: SessionParams,
        body: ReopenSessionBody,
        response: { 200: Session, ...errorResponses(400, 401, 404, 409) },
      },
      preValidation: optionalBody,
    },
    async (request) => {
      // staff only (the gateway's workspace.write says so too): anyone else is answered as for a missing session
      if (!mayRead(request.principal)) throw new ConversationErrors.SessionNotFound(request.params.id)
      const { before, after } = await reopenSession(svc, callerOf(request), request.params.id, request.body.reason)
      request.audit = { ...request.audit, resource_id: after.id, before, after }
      return after
    },
  )

  // Read access is staff's (agents read every session of their scope); anything else is a missing session.
  async function readable(id: string, request: Parameters<typeof scopeOf>[0]) {
    const row = await readableSession(svc.db, id, scopeOf(request))
    if (!mayRead(request.principal)) throw new ConversationErrors.SessionNotFound(id)
    return row
  }
}
