import type { Principal } from '@switchboard/contracts'
import type { Scope, ServiceClient, ServiceReply } from '@switchboard/platform'

/**
 * The calls the hub makes: conversations' internal API (its service principal narrowed to the socket's scope),
 * conversations' `/api/omni` as the agent itself, and identity's widget rule. A refusal comes back as data — the
 * code and message conversations or identity gave — to be sent to the client as an `error` frame.
 */

/** What the hub reads of a conversations session (`Session` in services/conversations/src/schemas). */
export interface UpstreamSession {
  id: string
  tenant_id: string
  workspace_id: string
  status: string
  customer_id: string | null
  visitor_id: string | null
  agent_id: string | null
  message_count: number
}

/** A message as conversations lists it. */
export interface UpstreamMessage {
  id: string
  session_id: string
  sender: 'customer' | 'agent' | 'ai' | 'system'
  sender_id: string | null
  kind: string
  content: string
  metadata: Record<string, unknown>
  created_at: string
  /** `internal`: a staff-only note (listed only when asked with `visibility=all`) */
  visibility?: 'public' | 'internal'
  /** its position in the session (absent from a conversations older than the field) */
  seq?: number
}

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

/** The body of a 2xx answer, or a RefusedError with the service's own code. */
function body<T>(service: string, reply: ServiceReply<unknown>): T {
  if (reply.status >= 200 && reply.status < 300) return reply.body as T
  const b = (reply.body ?? {}) as { code?: unknown; message?: unknown }
  throw new RefusedError({
    status: reply.status,
    code: typeof b.code === 'string' ? b.code : 'UPSTREAM_ERROR',
    message: typeof b.message === 'string' ? b.message : `${service} answered ${reply.status}`,
  })
}

/** Who asks to join: exactly one party, as conversations' access check takes it. */
export type Party =
  | { customer_id: string }
  | { visitor_credential: string }
  | { agent_user_id: string; permissions: string[] }
  | { service_id: string }

export interface CustomerMessage {
  content: string
  metadata?: Record<string, unknown>
  customer_id?: string
  visitor_credential?: string
}

export interface InternalMessageResult {
  session: UpstreamSession
  message: UpstreamMessage
  created: boolean
  reopened: boolean
  visitor: { visitor_id: string; credential: string } | null
}

const path = (id: string) => encodeURIComponent(id)

export function upstreamApi(clients: { conversations: ServiceClient; identity: ServiceClient }) {
  const { conversations, identity } = clients
  return {
    async access(sessionId: string, party: Party, scope: Scope) {
      const reply = await conversations.call('POST', `/internal/sessions/${path(sessionId)}/access`, party, { scope })
      return body<{ session: UpstreamSession; role: string }>('conversations', reply)
    },

    /** A customer's or visitor's first message: the session, with the id the hub chose (so it can listen first). */
    async createSession(sessionId: string, m: CustomerMessage, scope: Scope) {
      const payload = { sender: 'customer', session_id: sessionId, channel: 'web', ...m }
      return body<InternalMessageResult>(
        'conversations',
        await conversations.call('POST', '/internal/sessions', payload, { scope }),
      )
    },

    async postCustomer(sessionId: string, m: CustomerMessage, scope: Scope) {
      const reply = await conversations.call(
        'POST',
        `/internal/sessions/${path(sessionId)}/messages`,
        { sender: 'customer', ...m },
        { scope },
      )
      return body<InternalMessageResult>('conversations', reply)
    },

    /** An agent's reply, posted as the agent: conversations applies its posting rule to that principal. */
    async postAgent(
      principal: Principal,
      sessionId: string,
      m: { content: string; metadata?: Record<string, unknown>; internal?: boolean },
    ) {
      const reply = await conversations.call('POST', `/api/omni/sessions/${path(sessionId)}/messages`, m, {
        as: principal,
      })
      return body<UpstreamMessage>('conversations', reply)
    },

    async toHuman(sessionId: string, reason: string, scope: Scope) {
      const reply = await conversations.call(
        'POST',
        '/api/session-transfer/to-human',
        { session_id: sessionId, reason },
        { scope },
      )
      return body<{ is_waiting: boolean; new_agent_id: string | null }>('conversations', reply)
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
      const q = new URLSearchParams({ ...cursor, limit: String(limit), visibility })
      const reply = await conversations.call('GET', `/internal/sessions/${path(sessionId)}/messages?${q}`, undefined, {
        scope,
      })
      return body<{ count: number; items: UpstreamMessage[] }>('conversations', reply).items
    },

    /** A console's `read {message_id}`: its agent's read marker in the session (the inbox's unread counts). */
    async markRead(sessionId: string, userId: string, messageId: string, scope: Scope) {
      const reply = await conversations.call(
        'POST',
        `/internal/sessions/${path(sessionId)}/read`,
        { user_id: userId, message_id: messageId },
        { scope },
      )
      return body<{ session_id: string; last_read_seq: number; unread_count: number }>('conversations', reply)
    },

    /** Does this tenant/workspace take widget visitors? identity's refusal (404 unknown, 403 disabled) if not. */
    async widgetScope(scope: Scope) {
      const q = new URLSearchParams({ tenant_id: scope.tenant_id, workspace_id: scope.workspace_id })
      body<Scope>('identity', await identity.call('GET', `/internal/widget-scope?${q}`))
    },
  }
}

export type UpstreamApi = ReturnType<typeof upstreamApi>
