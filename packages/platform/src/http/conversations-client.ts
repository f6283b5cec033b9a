import type { ConversationsApi as C, ErrorBody, Principal } from '@switchboard/contracts'
import type { Scope } from '../scope.ts'
import type { ServiceClient } from './service-client.ts'

/** Conversations' answer: a 2xx with its contract's body, or its refusal (the fleet's error body, fields as sent). */
export type ConversationsAnswer<T> =
  | { ok: true; status: number; body: T }
  | { ok: false; status: number; body: Partial<ErrorBody> }

/**
 * Who a call is made as: this service narrowed to `scope` (what conversations checks every session against), or
 * `as` a caller's principal (an agent's reply goes through the posting rule as that agent).
 */
export interface ConversationsCall {
  scope?: Scope | undefined
  as?: Principal | undefined
  request_id?: string | undefined
}

const at = (id: string) => `/internal/sessions/${encodeURIComponent(id)}`

/**
 * The one client of conversations' API for other services (the realtime hub, realtime-voice's calls, the AI): each
 * route's path, body and answer typed by its schema in packages/contracts (`ConversationsApi`). It says what
 * conversations answered and decides nothing: each caller keeps its own rule for a refusal (the hub sends it to the
 * socket as an `error` frame; the AI skips a closed session). A conversations that does not answer is the
 * underlying client's `ServiceUnavailableError`.
 */
export function conversationsClient(client: ServiceClient) {
  async function send<T>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    call: ConversationsCall,
  ): Promise<ConversationsAnswer<T>> {
    const ctx = {
      ...(call.as ? { as: call.as } : {}),
      ...(call.scope ? { scope: call.scope } : {}),
      ...(call.request_id ? { request_id: call.request_id } : {}),
    }
    const reply = await client.call<unknown>(method, path, body, ctx)
    if (reply.status >= 200 && reply.status < 300) return { ok: true, status: reply.status, body: reply.body as T }
    const refused = reply.body !== null && typeof reply.body === 'object' ? (reply.body as Partial<ErrorBody>) : {}
    return { ok: false, status: reply.status, body: refused }
  }

  return {
    /** `POST /internal/sessions`: a first message, and the session with it (the id chosen here unless given). */
    createSession: (body: C.InternalSessionBody, call: ConversationsCall) =>
      send<C.InternalMessageResult>('POST', '/internal/sessions', body, call),

    /** `POST /internal/sessions/:id/messages`: a customer's, the AI's or a system message. */
    postMessage: (sessionId: string, body: C.InternalMessageBody, call: ConversationsCall) =>
      send<C.InternalMessageResult>('POST', `${at(sessionId)}/messages`, body, call),

    /** `POST /internal/sessions/:id/access`: may this party join the session, and as what. */
    access: (sessionId: string, body: C.AccessBody, call: ConversationsCall) =>
      send<C.AccessResult>('POST', `${at(sessionId)}/access`, body, call),

    /** `POST /internal/sessions/:id/read`: an agent's read marker. */
    markRead: (sessionId: string, body: C.InternalReadBody, call: ConversationsCall) =>
      send<C.ReadResult>('POST', `${at(sessionId)}/read`, body, call),

    /** `GET /internal/sessions/:id`: the session, if it is in the call's scope. */
    session: (sessionId: string, call: ConversationsCall) => send<C.Session>('GET', at(sessionId), undefined, call),

    /** `GET /internal/sessions/:id/messages`: one page in posting order (defaults: the latest 50, public only). */
    messages: (sessionId: string, query: Partial<C.InternalMessagesQuery>, call: ConversationsCall) => {
      const q = new URLSearchParams()
      for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v))
      const search = q.size > 0 ? `?${q}` : ''
      return send<C.MessageList>('GET', `${at(sessionId)}/messages${search}`, undefined, call)
    },

    /** `POST /api/omni/sessions/:id/messages`, as the agent (`call.as`): conversations' posting rule applies. */
    postAsAgent: (sessionId: string, body: C.PostMessageBody, call: ConversationsCall) =>
      send<C.Message>('POST', `/api/omni/sessions/${encodeURIComponent(sessionId)}/messages`, body, call),

    /** `POST /api/omni/sessions/:id/close` (conversations has no internal close; a service passes its checks). */
    closeSession: (sessionId: string, body: C.CloseSessionBody, call: ConversationsCall) =>
      send<C.Session>('POST', `/api/omni/sessions/${encodeURIComponent(sessionId)}/close`, body, call),

    /** `POST /api/session-transfer/to-human`: to the waiting queue (a session already waiting stays as it is). */
    toHuman: (body: C.ToHumanBody, call: ConversationsCall) =>
      send<C.TransferResult>('POST', '/api/session-transfer/to-human', body, call),

    /** closes the underlying client's connections (the service's shutdown) */
    close: () => client.close(),
  }
}

export type ConversationsClient = ReturnType<typeof conversationsClient>
