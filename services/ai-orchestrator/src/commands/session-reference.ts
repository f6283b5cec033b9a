import { type Caller, ServiceUnavailableError } from '@switchboard/platform'
import type { AiService } from '../context.ts'
import { AiErrors } from '../errors.ts'

/**
 * The conversation a question names (`POST /api/v1/ai/query {session_id}`) is one of the caller's scope: the answer
 * is announced with it (`ai.query.answered`), so it must never point at another tenant's conversation. Asked of
 * conversations' internal API as this service narrowed to the caller's scope, where another tenant's session is the
 * 404 of one nobody has: both are the same 400 here. Without conversations (no UPSTREAM_CONVERSATIONS) no session
 * can be known: 409, the configuration's problem, not the client's id.
 */
export async function checkSession(svc: AiService, caller: Caller, sessionId: string): Promise<void> {
  if (!svc.conversations) throw new AiErrors.ConversationsNotConfigured()
  const reply = await svc.conversations.session(sessionId, { scope: caller.scope, request_id: caller.request_id })
  if (reply.status === 200) return
  // 404: nobody's or another tenant's; 400: an id conversations could never hold
  if (reply.status === 404 || reply.status === 400) throw new AiErrors.UnknownSession(sessionId)
  // refused this service's principal (a deployment fault) or failed: a dependency that did not serve
  throw new ServiceUnavailableError('conversations', false)
}
