import { callerOf, errorResponses, type RouteModule, scopeOf } from '@switchboard/platform'
import { mayRead } from '../commands/access.ts'
import { listInbox, markRead } from '../commands/inbox.commands.ts'
import type { ConversationsService } from '../context.ts'
import { ConversationErrors } from '../errors.ts'
import { InboxPage, InboxQuery, ReadBody, ReadResult } from '../schemas/inbox.schemas.ts'
import { SessionParams } from '../schemas/sessions.schemas.ts'

const tags = ['conversations']

/** The agent console's inbox and read markers (README "Inbox"): staff only. */
export const inboxRoutes: RouteModule<ConversationsService> = async (app, svc) => {
  app.get(
    '/api/omni/inbox',
    { schema: { tags, querystring: InboxQuery, response: { 200: InboxPage, ...errorResponses(400, 401, 403) } } },
    async (request) => listInbox(svc, callerOf(request), request.query),
  )

  app.post(
    '/api/omni/sessions/:id/read',
    {
      schema: {
        tags,
        params: SessionParams,
        body: ReadBody,
        response: { 200: ReadResult, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const caller = callerOf(request)
      if (!mayRead(request.principal)) throw new ConversationErrors.SessionNotFound(request.params.id)
      const read = { session_id: request.params.id, message_id: request.body.message_id }
      return markRead(svc, caller, scopeOf(request), { ...read, user_id: request.principal.user_id })
    },
  )
}
