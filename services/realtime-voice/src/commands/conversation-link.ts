import { createHash } from 'node:crypto'
import type { ErrorBody } from '@switchboard/contracts'
import type { ConversationsAnswer, Scope } from '@switchboard/platform'
import type { RealtimeService } from '../context.ts'
import { callerAddress } from '../domain/caller-address.ts'
import { ConversationsFailure, ConversationsRefusal, VoiceErrors } from '../errors.ts'

// A call's conversation lives in conversations: this service asks its internal API through the platform's typed
// client (service principal narrowed to the call's scope, so nothing outside that scope is ever seen or made) and
// keeps only the id.

export interface LinkContext {
  scope: Scope
  request_id?: string | undefined
}

/**
 * The id of the conversation a call opens, derived from the call (scope and call id): a retried invite reaches the
 * session its first try opened instead of opening a second one that no call would ever close. An RFC 9562 UUID of
 * version 8 (custom), so it has the shape of every other id.
 */
export function conversationIdFor(scope: Scope, callId: string): string {
  const h = createHash('sha256')
    .update(`voice\u0000${scope.tenant_id}\u0000${scope.workspace_id}\u0000${callId}`)
    .digest()
  h[6] = (h[6]! & 0x0f) | 0x80
  h[8] = (h[8]! & 0x3f) | 0x80
  const x = h.subarray(0, 16).toString('hex')
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`
}

const callOf = (ctx: LinkContext) => ({ scope: ctx.scope, request_id: ctx.request_id })

/** The body of conversations' 2xx answer, or its refusal as this service's error. */
function answered<T>(answer: ConversationsAnswer<T>, conversationId: string): T {
  if (answer.ok) return answer.body
  throw conversationsError(answer.status, answer.body, conversationId)
}

/**
 * Conversations' refusal as this service's answer: a missing (or out-of-scope) session is the conversation not
 * found; its other 4xx pass through with their code; 401/403 (this service refused: a deployment fault) and 5xx
 * are a failed dependency.
 */
export function conversationsError(status: number, body: unknown, conversationId: string): Error {
  if (status === 404) return new VoiceErrors.ConversationNotFound(conversationId)
  if (status >= 400 && status < 500 && status !== 401 && status !== 403) {
    const b = (body ?? {}) as Partial<ErrorBody>
    return new ConversationsRefusal(
      status,
      b.code ?? 'REALTIME_CONVERSATION_REFUSED',
      b.message ?? `conversations answered ${status}`,
    )
  }
  return new ConversationsFailure(status)
}

const isStatus = (err: unknown, ...statuses: number[]) =>
  statuses.includes((err as { statusCode?: number }).statusCode ?? 0)

export interface CallParties {
  call_id: string
  protocol: string
  from: string
  to: string
}

/**
 * Opens the call's conversation (channel `voice`): the caller is its customer (the `from` address as a URI, never a
 * person's id: callerAddress), so the caller's transcribed words post as the customer's; its first message says who
 * called whom.
 */
export async function openConversation(svc: RealtimeService, ctx: LinkContext, call: CallParties) {
  const id = conversationIdFor(ctx.scope, call.call_id)
  const opened = await svc.conversations.createSession(
    {
      session_id: id,
      sender: 'customer',
      customer_id: callerAddress(call.from),
      channel: 'voice',
      subject: `Voice call from ${call.from}`,
      content: `Voice call from ${call.from} to ${call.to}`,
      metadata: { source: 'voice', call_id: call.call_id, protocol: call.protocol },
    },
    callOf(ctx),
  )
  const result = answered(opened, id)
  return { conversation_id: result.session.id, customer_id: result.session.customer_id }
}

/**
 * Links a call to a conversation the invite named: a system message in it says the call began (and proves it is
 * in the call's scope and open). The caller's words will post as that conversation's customer, when it has one.
 */
export async function linkConversation(svc: RealtimeService, ctx: LinkContext, id: string, call: CallParties) {
  const linked = await svc.conversations.postMessage(
    id,
    {
      sender: 'system',
      kind: 'system',
      content: `Voice call from ${call.from} to ${call.to} started.`,
      metadata: { source: 'voice', call_id: call.call_id, protocol: call.protocol, event: 'invite' },
    },
    callOf(ctx),
  )
  const result = answered(linked, id)
  return { conversation_id: result.session.id, customer_id: result.session.customer_id }
}

export interface TranscriptLine {
  transcript_id: string
  call_id: string
  speaker: 'caller' | 'agent'
  content: string
  language: string
}

/**
 * A finalized transcript as a message: the caller's words as the customer's (when the conversation has one), the
 * agent's as a system message (agents write through their own console; this is a record of what was said). Null
 * when conversations would not take it because the conversation is closed (a system message never reopens one).
 */
export async function postTranscript(
  svc: RealtimeService,
  ctx: LinkContext,
  conversationId: string,
  customerId: string | null,
  line: TranscriptLine,
): Promise<string | null> {
  const metadata = {
    source: 'voice',
    speaker: line.speaker,
    transcript_id: line.transcript_id,
    call_id: line.call_id,
    language: line.language,
  }
  const asCustomer = line.speaker === 'caller' && customerId !== null
  const body = asCustomer
    ? { sender: 'customer' as const, customer_id: customerId, content: line.content, metadata }
    : { sender: 'system' as const, kind: 'text' as const, content: line.content, metadata }
  try {
    const posted = await svc.conversations.postMessage(conversationId, body, callOf(ctx))
    return answered(posted, conversationId).message.id
  } catch (err) {
    if (!asCustomer && isStatus(err, 409)) return null
    throw err
  }
}

/**
 * Closes the conversation a call opened, when it ends. Conversations has no internal close: its public close route,
 * as this service's principal in the call's scope (a service passes its checks). Closed already, or gone: done.
 */
export async function closeConversation(svc: RealtimeService, ctx: LinkContext, id: string): Promise<void> {
  try {
    answered(await svc.conversations.closeSession(id, { reason: 'voice call ended' }, callOf(ctx)), id)
  } catch (err) {
    if (!isStatus(err, 404, 409)) throw err
  }
}

/** A conversation the call did not open stays open at hangup: a system message says the call ended. */
export async function noteCallEnded(svc: RealtimeService, ctx: LinkContext, id: string, call: CallParties) {
  try {
    const noted = await svc.conversations.postMessage(
      id,
      {
        sender: 'system',
        kind: 'system',
        content: 'Voice call ended.',
        metadata: { source: 'voice', call_id: call.call_id, protocol: call.protocol, event: 'hangup' },
      },
      callOf(ctx),
    )
    answered(noted, id)
  } catch (err) {
    if (!isStatus(err, 404, 409)) throw err
  }
}
