import { type Static, Type } from '@sinclair/typebox'
import { Nullable } from '../common.ts'

export const SESSION_STATUSES = ['active', 'waiting_human', 'transferred', 'closed'] as const
export const MESSAGE_SENDERS = ['customer', 'agent', 'ai', 'system'] as const
export const MESSAGE_KINDS = ['text', 'image', 'file', 'system'] as const
/**
 * Who may see a message: `public` — everyone in the session (customer, visitor, staff, the AI); `internal` — an
 * internal note, staff only: never a customer's or visitor's socket or read, never the AI's input, never counted as
 * a reply by statistics.
 */
export const MESSAGE_VISIBILITIES = ['public', 'internal'] as const
export type MessageVisibility = (typeof MESSAGE_VISIBILITIES)[number]

/**
 * What every session event carries: enough for a hub to push a frame and for statistics to count without
 * reading the session back. `agent_id` and `customer_id` are user ids (like tickets'); an anonymous widget
 * session has no customer, only a visitor.
 */
export const SessionFacts = Type.Object({
  session_id: Type.String(),
  status: Type.Union(SESSION_STATUSES.map((s) => Type.Literal(s))),
  channel: Type.String(),
  subject: Type.String(),
  customer_id: Nullable(Type.String()),
  visitor_id: Nullable(Type.String()),
  agent_id: Nullable(Type.String()),
  ticket_id: Nullable(Type.String()),
  started_at: Type.String(),
  last_message_at: Nullable(Type.String()),
  ended_at: Nullable(Type.String()),
})
export type SessionFacts = Static<typeof SessionFacts>

export const MessageFacts = Type.Object({
  message_id: Type.String(),
  session_id: Type.String(),
  sender: Type.Union(MESSAGE_SENDERS.map((s) => Type.Literal(s))),
  sender_id: Nullable(Type.String()),
  kind: Type.Union(MESSAGE_KINDS.map((k) => Type.Literal(k))),
  content: Type.String(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  created_at: Type.String(),
  /**
   * the message's position in its session (1, 2, …; taken under the session's lock, so it follows commit order):
   * what lets a reader of these events (the realtime hub) resume after a message id without a gap or a duplicate
   */
  seq: Type.Integer({ minimum: 1 }),
  /**
   * `internal` for a staff-only note (readers that serve customers or answer them drop it); absent on events written
   * before the field existed, which are all `public`
   */
  visibility: Type.Optional(Type.Union(MESSAGE_VISIBILITIES.map((v) => Type.Literal(v)))),
  /** the session as the message left it: who handles it, and whether a human does */
  session_status: Type.Union(SESSION_STATUSES.map((s) => Type.Literal(s))),
  agent_id: Nullable(Type.String()),
})
export type MessageFacts = Static<typeof MessageFacts>

const QueueFacts = Type.Object({
  session_id: Type.String(),
  waiting_id: Type.String(),
  priority: Type.String(),
  reason: Type.String(),
  target_skills: Type.Array(Type.String()),
  queued_at: Type.String(),
})

export const ConversationEvents = {
  sessionCreated: { type: 'conversations.session.created', data: SessionFacts },
  sessionAssigned: {
    type: 'conversations.session.assigned',
    data: Type.Object({ session: SessionFacts, previous_agent_id: Nullable(Type.String()) }),
  },
  sessionTransferred: {
    type: 'conversations.session.transferred',
    data: Type.Object({
      session: SessionFacts,
      from_agent_id: Nullable(Type.String()),
      to_agent_id: Type.String(),
      reason: Type.String(),
      transfer_id: Type.String(),
    }),
  },
  /**
   * the agent let go of an open session (`POST /api/agents/:id/release-session`): no agent, status active, the
   * agent's seat free; `previous_agent_id` is who released it (the shape of `sessionAssigned`)
   */
  sessionReleased: {
    type: 'conversations.session.released',
    data: Type.Object({ session: SessionFacts, previous_agent_id: Type.String() }),
  },
  sessionClosed: { type: 'conversations.session.closed', data: SessionFacts },
  sessionReopened: { type: 'conversations.session.reopened', data: SessionFacts },
  /** a ticket now continues the session (`ticket_id` set) */
  sessionLinked: { type: 'conversations.session.linked', data: SessionFacts },
  messageCreated: { type: 'conversations.message.created', data: MessageFacts },
  queueWaiting: {
    type: 'conversations.queue.waiting',
    data: Type.Composite([
      QueueFacts,
      Type.Object({ position: Type.Integer(), estimated_wait_seconds: Nullable(Type.Integer()) }),
    ]),
  },
  queueCancelled: {
    type: 'conversations.queue.cancelled',
    data: Type.Object({ session_id: Type.String(), waiting_id: Type.String(), reason: Type.String() }),
  },
  queueAssigned: {
    type: 'conversations.queue.assigned',
    data: Type.Composite([QueueFacts, Type.Object({ agent_id: Type.String(), waited_seconds: Type.Integer() })]),
  },
} as const
