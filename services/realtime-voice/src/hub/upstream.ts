import type { ConversationsApi, Principal } from '@switchboard/contracts'
import type {
  ConversationsAnswer,
  ConversationsClient,
  Scope,
  ServiceClient,
  ServiceReply,
} from '@switchboard/platform'

/**
 * The calls the hub makes: conversations' API through the platform's typed client (its service principal narrowed
 * to the socket's scope; an agent's reply as the agent), and identity's widget rule. A refusal comes back as data —
 * the code and message conversations or identity gave — to be sent to the client as an `error` frame.
 */

/** A conversations session as the hub reads it (`Session` of conversations' API in packages/contracts). */
export type UpstreamSession = ConversationsApi.Session

export interface Refusal {
  status: number
  code: string
  message: string
}

/** A refusal carried as an error: the frame handler turns it into an `error` frame with its code. */
export class RefusedError extends Error {
  override name = 'RefusedError'
  readonly refusal: Refusal
  constructor(refusal: Refusal) {
    super(refusal.message)
    this.refusal = refusal
  }
}

function refusal(service: string, status: number, b: { code?: unknown; message?: unknown }): RefusedError {
  return new RefusedError({
    status,
    code: typeof b.code === 'string' ? b.code : 'UPSTREAM_ERROR',
    message: typeof b.message === 'string' ? b.message : `${service} answered ${status}`,
  })
}

/** The body of conversations' 2xx answer, or a RefusedError with its own code. */
function answered<T>(answer: ConversationsAnswer<T>): T {
  if (answer.ok) return answer.body
  throw refusal('conversations', answer.status, answer.body)
}

/** The body of identity's 2xx answer, or a RefusedError with its own code. */
function body<T>(service: string, reply: ServiceReply<unknown>): T {
  if (reply.status >= 200 && reply.status < 300) return reply.body as T
  throw refusal(service, reply.status, (reply.body ?? {}) as { code?: unknown; message?: unknown })
}

/** Who asks to join: exactly one party (conversations' `AccessBody` refuses two). */
export type Party =
  | { customer_id: string }
  | { visitor_credential: string }
  | { agent_user_id: string; permissions: string[] }
  | { service_id: string }

/** What a customer's or visitor's socket sends as a message. */
export type CustomerMessage = Pick<
  ConversationsApi.InternalMessageBody,
  'content' | 'metadata' | 'customer_id' | 'visitor_credential'
>

export function upstreamApi(clients: { conversations: ConversationsClient; identity: ServiceClient }) {
  const { conversations, identity } = clients
  return {
    async access(sessionId: string, party: Party, scope: Scope) {
      return answered(await conversations.access(sessionId, party, { scope }))
    },

    /** A customer's or visitor's first message: the session, with the id the hub chose (so it can listen first). */
    async createSession(sessionId: string, m: CustomerMessage, scope: Scope) {
      const first = { sender: 'customer' as const, session_id: sessionId, channel: 'web', ...m }
      return answered(await conversations.createSession(first, { scope }))
    },

    async postCustomer(sessionId: string, m: CustomerMessage, scope: Scope) {
      return answered(await conversations.postMessage(sessionId, { sender: 'customer', ...m }, { scope }))
    },

    /** An agent's reply, posted as the agent: conversations applies its posting rule to that principal. */
    async postAgent(
      principal: Principal,
      sessionId: string,
      m: { content: string; metadata?: Record<string, unknown>; internal?: boolean },
    ) {
      return answered(await conversations.postAsAgent(sessionId, m, { as: principal }))
    },

    async toHuman(sessionId: string, reason: string, scope: Scope) {
      return answered(await conversations.toHuman({ session_id: sessionId, reason }, { scope }))
    },

    /**
     * One page of a session's messages in posting order: the `limit` just before or just after a message id, or
     * the latest `limit` (no cursor). `visibility: 'all'` adds internal notes — asked only for a staff socket.
     */
    async messages(
      sessionId: string,
      cursor: { before: string } | { after: string } | Record<string, never>,
      limit: number,
      scope: Scope,
      visibility: 'public' | 'all' = 'public',
    ) {
      return answered(await conversations.messages(sessionId, { ...cursor, limit, visibility }, { scope })).items
    },

    /** A console's `read {message_id}`: its agent's read marker in the session (the inbox's unread counts). */
    async markRead(sessionId: string, userId: string, messageId: string, scope: Scope) {
      return answered(await conversations.markRead(sessionId, { user_id: userId, message_id: messageId }, { scope }))
    },

    /** Does this tenant/workspace take widget visitors? identity's refusal (404 unknown, 403 disabled) if not. */
    async widgetScope(scope: Scope) {
      const q = new URLSearchParams({ tenant_id: scope.tenant_id, workspace_id: scope.workspace_id })
      body<Scope>('identity', await identity.call('GET', `/internal/widget-scope?${q}`))
    },
  }
}

export type UpstreamApi = ReturnType<typeof upstreamApi>
