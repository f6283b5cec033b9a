import { type Static, Type } from '@sinclair/typebox'
import { BoundedList, Nullable, Timestamp } from './common.ts'
import { MESSAGE_KINDS, MESSAGE_SENDERS, MESSAGE_VISIBILITIES, SESSION_STATUSES } from './events/conversations.ts'

/**
 * Conversations' API as other services call it: its internal routes (`/internal/sessions*`, service principals only,
 * hidden from OpenAPI; the realtime hub, realtime-voice's calls, the AI) and the few public routes a service calls in
 * a caller's or its own name (an agent's reply, a close, a hand-over to a human). Conversations validates its routes
 * with these schemas; callers go through the one typed client, `conversationsClient` (packages/platform
 * `http/conversations-client.ts`). Exported from the package index as the namespace `ConversationsApi`.
 */

export const SessionStatus = Type.Union(SESSION_STATUSES.map((s) => Type.Literal(s)))
export const Channel = Type.String({
  minLength: 1,
  maxLength: 32,
  pattern: '^[a-z][a-z0-9_-]*$',
  description: 'web, email, voice, api, …',
})
export const Priority = Type.Union([
  Type.Literal('low'),
  Type.Literal('normal'),
  Type.Literal('high'),
  Type.Literal('urgent'),
])
export const Id = Type.String({ minLength: 1, maxLength: 128 })

/**
 * A user id: agents and customers are named by theirs (as tickets do). The one bound every schema uses;
 * `userId('…')` gives it a field's own description.
 */
const USER_ID_BOUNDS = { minLength: 1, maxLength: 128 } as const
export const UserId = Type.String({ ...USER_ID_BOUNDS, description: 'a user id' })
export const userId = (description: string) => Type.String({ ...USER_ID_BOUNDS, description })

/** A conversation between a customer (or an anonymous visitor) and the support team. */
export const Session = Type.Object({
  id: Type.String(),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  status: SessionStatus,
  channel: Type.String(),
  subject: Type.String(),
  customer_id: Nullable(Type.String({ description: "the customer's user id" })),
  visitor_id: Nullable(Type.String({ description: 'an anonymous widget visitor' })),
  agent_id: Nullable(Type.String({ description: "the assigned agent's user id" })),
  ticket_id: Nullable(Type.String()),
  priority: Type.String(),
  message_count: Type.Integer(),
  started_at: Timestamp,
  last_message_at: Nullable(Timestamp),
  ended_at: Nullable(Timestamp),
  /** while waiting for a human: 1 = next */
  queue_position: Nullable(Type.Integer()),
  estimated_wait_seconds: Nullable(Type.Integer()),
})
export type Session = Static<typeof Session>

export const Message = Type.Object({
  id: Type.String(),
  session_id: Type.String(),
  sender: Type.Union(MESSAGE_SENDERS.map((s) => Type.Literal(s))),
  sender_id: Nullable(Type.String()),
  kind: Type.Union(MESSAGE_KINDS.map((k) => Type.Literal(k))),
  content: Type.String(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  /** `internal`: a note, seen by staff only (conversations' README "Internal notes") */
  visibility: Type.Union(MESSAGE_VISIBILITIES.map((v) => Type.Literal(v))),
  /** the message's position in its session (1, 2, …; a note takes one too, so a customer's list has holes) */
  seq: Type.Integer({ minimum: 1 }),
  created_at: Timestamp,
})
export type Message = Static<typeof Message>

export const SessionParams = Type.Object({ id: Id })
export type SessionParams = Static<typeof SessionParams>

/**
 * A message's text. The schema's bound is generous (the body limit stops the rest); the rule is
 * MESSAGE_MAX_BYTES of UTF-8 (16 KiB by default), checked by the command: beyond it 413.
 */
export const MessageContent = Type.String({
  minLength: 1,
  maxLength: 1_048_576,
  pattern: '\\S',
  description: 'text, not blank; at most MESSAGE_MAX_BYTES (16 KiB) of UTF-8, else 413',
})
/** Bounded as JSON by MESSAGE_MAX_METADATA_BYTES (4 KiB by default), else 400. */
export const MessageMetadata = Type.Record(Type.String(), Type.Unknown(), {
  maxProperties: 64,
  description: 'free-form; at most MESSAGE_MAX_METADATA_BYTES (4 KiB) as JSON',
})
export const MessageKind = Type.Union(MESSAGE_KINDS.map((k) => Type.Literal(k)))
/** what people write: `system` messages are the service's own */
export const WrittenKind = Type.Union([Type.Literal('text'), Type.Literal('image'), Type.Literal('file')])

/** `POST /api/omni/sessions/:id/messages`: an agent's reply. */
export const PostMessageBody = Type.Object(
  {
    content: MessageContent,
    kind: Type.Optional(WrittenKind),
    metadata: Type.Optional(MessageMetadata),
    internal: Type.Optional(
      Type.Boolean({
        description:
          'true: an internal note, seen by staff only (any agent of the scope may write one, in a closed session too)',
      }),
    ),
  },
  { additionalProperties: false },
)
export type PostMessageBody = Static<typeof PostMessageBody>

const MessageId = Type.String({
  minLength: 1,
  maxLength: 128,
  description: 'a message id of this session (another is 400); pages follow the order messages were posted in',
})

/**
 * Pages in posting order (each message's `seq`), by message-id cursor: the latest `limit`, those before `before`,
 * or those after `after`.
 */
export const MessagesQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  before: Type.Optional(MessageId),
  after: Type.Optional(MessageId),
})
export type MessagesQuery = Static<typeof MessagesQuery>

/**
 * `/internal/sessions/:id/messages`: `visibility=all` adds internal notes (the hub asks for them for staff sockets
 * only); `public`, the default, is what a customer, a visitor or the AI may see.
 */
export const InternalMessagesQuery = Type.Composite([
  MessagesQuery,
  Type.Object({
    visibility: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('all')], { default: 'public' })),
  }),
])
export type InternalMessagesQuery = Static<typeof InternalMessagesQuery>

/** A bounded list (`limit` ≤ 200), oldest first: `{count, items}` (docs/api.md §7). */
export const MessageList = BoundedList(Message)
export type MessageList = Static<typeof MessageList>

const scopeId = (description?: string) =>
  Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$', ...(description ? { description } : {}) })
/** 32 random bytes as base64url are 43 characters; a little room, no more */
const credential = (description?: string) =>
  Type.String({ minLength: 1, maxLength: 128, ...(description ? { description } : {}) })

const messageFields = {
  /** agents reply through /api/omni (their principal, the posting rule) */
  sender: Type.Union([Type.Literal('customer'), Type.Literal('ai'), Type.Literal('system')]),
  content: MessageContent,
  kind: Type.Optional(MessageKind),
  metadata: Type.Optional(MessageMetadata),
  customer_id: Type.Optional(userId("sender customer, signed in: the customer's user id")),
  visitor_credential: Type.Optional(
    credential('sender customer, anonymous, to an existing session: the credential issued with it'),
  ),
  sender_id: Type.Optional(userId("sender ai or system: who (default: the caller's user id)")),
  // Used only when the message creates the session:
  channel: Type.Optional(Channel),
  subject: Type.Optional(Type.String({ maxLength: 200 })),
  priority: Type.Optional(Priority),
  tenant_id: Type.Optional(scopeId("an unscoped caller's session scope (the widget's)")),
  workspace_id: Type.Optional(scopeId()),
}

/** `POST /internal/sessions/:id/messages`: a message to `:id`; a customer's first message to an unknown id creates the session. */
export const InternalMessageBody = Type.Object(messageFields, { additionalProperties: false })
export type InternalMessageBody = Static<typeof InternalMessageBody>

/** `POST /internal/sessions`: the same, the id chosen here unless given. */
export const InternalSessionBody = Type.Object(
  { ...messageFields, session_id: Type.Optional(Id) },
  { additionalProperties: false },
)
export type InternalSessionBody = Static<typeof InternalSessionBody>

export const VisitorGrant = Type.Object({
  visitor_id: Type.String(),
  credential: Type.String({ description: 'shown once; only its SHA-256 is kept' }),
})

/** What both message routes answer (201). */
export const InternalMessageResult = Type.Object({
  session: Session,
  message: Message,
  created: Type.Boolean(),
  reopened: Type.Boolean(),
  /** set only when this call created an anonymous session */
  visitor: Nullable(VisitorGrant),
})
export type InternalMessageResult = Static<typeof InternalMessageResult>

/**
 * `POST /internal/sessions/:id/access`, asked by the hub before it joins a socket to a session. Exactly one party: a
 * customer, a visitor, an agent (with the permissions of its token) or a service.
 */
export const AccessBody = Type.Object(
  {
    customer_id: Type.Optional(UserId),
    visitor_credential: Type.Optional(credential()),
    agent_user_id: Type.Optional(UserId),
    permissions: Type.Optional(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 256 })),
    service_id: Type.Optional(UserId),
  },
  { additionalProperties: false },
)
export type AccessBody = Static<typeof AccessBody>

export const AccessResult = Type.Object({
  session: Session,
  role: Type.Union(
    ['customer', 'visitor', 'agent', 'supervisor', 'observer', 'service'].map((r) => Type.Literal(r)),
    { description: 'supervisor: present through the permission, not the assignment' },
  ),
})
export type AccessResult = Static<typeof AccessResult>

/** `POST /internal/sessions/:id/read`: the hub storing a console's `read` frame for its agent. */
export const InternalReadBody = Type.Object(
  { message_id: Type.String({ minLength: 1, maxLength: 128 }), user_id: Id },
  { additionalProperties: false },
)
export type InternalReadBody = Static<typeof InternalReadBody>

/** An agent's read marker in a session after a `read`. */
export const ReadResult = Type.Object({
  session_id: Type.String(),
  last_read_seq: Type.Integer(),
  unread_count: Type.Integer(),
})
export type ReadResult = Static<typeof ReadResult>

/** `POST /api/omni/sessions/:id/close` (and `…/reopen`): a bare POST closes without a reason. */
export const CloseSessionBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 500 })) },
  { additionalProperties: false },
)
export type CloseSessionBody = Static<typeof CloseSessionBody>

/** `POST /api/session-transfer/to-human`: to the waiting queue (idempotent: a session already waiting stays). */
export const ToHumanBody = Type.Object(
  {
    session_id: Id,
    reason: Type.Optional(Type.String({ maxLength: 500 })),
    target_skills: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        maxItems: 20,
        description: 'preferred skills: they raise an agent’s score, they do not exclude anyone',
      }),
    ),
    priority: Type.Optional(Priority),
    notes: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
)
export type ToHumanBody = Static<typeof ToHumanBody>

/** What a hand-over did: handed to an agent (`new_agent_id`), or waiting in the queue (`is_waiting`). */
export const TransferResult = Type.Object({
  success: Type.Boolean(),
  session_id: Type.String(),
  new_agent_id: Nullable(Type.String()),
  is_waiting: Type.Boolean(),
  waiting_id: Nullable(Type.String()),
  queued_at: Nullable(Timestamp),
  transferred_at: Nullable(Timestamp),
  /** while waiting: 1 = next */
  queue_position: Nullable(Type.Integer()),
  estimated_wait_seconds: Nullable(Type.Integer()),
  summary: Type.String(),
})
export type TransferResult = Static<typeof TransferResult>
