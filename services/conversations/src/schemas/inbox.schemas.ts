import { type Static, Type } from '@sinclair/typebox'
import { MESSAGE_SENDERS, MESSAGE_VISIBILITIES, Nullable, SESSION_STATUSES, Timestamp } from '@switchboard/contracts'

export const INBOX_VIEWS = ['mine', 'unassigned', 'waiting', 'all'] as const
export type InboxView = (typeof INBOX_VIEWS)[number]

const Status = Type.Union(SESSION_STATUSES.map((s) => Type.Literal(s)))

/** `GET /api/omni/inbox` (README "Inbox"). */
export const InboxQuery = Type.Object(
  {
    view: Type.Union(
      INBOX_VIEWS.map((v) => Type.Literal(v)),
      {
        default: 'mine',
        description:
          'mine: assigned to the caller; unassigned: open, no agent; waiting: in the queue; all: supervisors',
      },
    ),
    status: Type.Optional(
      Type.Array(Status, {
        maxItems: 4,
        description: 'repeated; default: the open statuses (closed only when asked; waiting: waiting_human)',
      }),
    ),
    channel: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'next_cursor of the last page' })),
    changed_since: Type.Optional(
      Type.String({
        format: 'date-time',
        description: "a previous answer's server_time: only what changed since, sessions that left the view included",
      }),
    ),
  },
  { additionalProperties: false },
)
export type InboxQuery = Static<typeof InboxQuery>

export const InboxItem = Type.Object({
  id: Type.String(),
  status: Status,
  channel: Type.String(),
  subject: Type.String(),
  priority: Type.String(),
  customer_id: Nullable(Type.String()),
  visitor_id: Nullable(Type.String()),
  /** the customer's display name when identity told it; null for a visitor or a customer not named yet */
  customer_name: Nullable(Type.String()),
  agent_id: Nullable(Type.String()),
  ticket_id: Nullable(Type.String()),
  message_count: Type.Integer(),
  started_at: Timestamp,
  /** what the list is sorted by: the last change of the session (a message, a note, a hand-over, a close) */
  last_activity_at: Timestamp,
  last_message: Nullable(
    Type.Object({
      id: Type.String(),
      seq: Type.Integer(),
      sender: Type.Union(MESSAGE_SENDERS.map((s) => Type.Literal(s))),
      sender_id: Nullable(Type.String()),
      kind: Type.String(),
      visibility: Type.Union(MESSAGE_VISIBILITIES.map((v) => Type.Literal(v))),
      /** the first 200 characters */
      preview: Type.String(),
      created_at: Timestamp,
    }),
  ),
  /** messages after the caller's read marker, not the caller's own nor the service's system messages */
  unread_count: Type.Integer(),
  last_read_seq: Type.Integer({ description: "the caller's read marker (0: nothing read)" }),
  queue_position: Nullable(Type.Integer()),
  estimated_wait_seconds: Nullable(Type.Integer()),
  /** false only in a `changed_since` answer: the session changed but no longer belongs in the view — drop it */
  in_view: Type.Boolean(),
})
export type InboxItem = Static<typeof InboxItem>

export const InboxPage = Type.Object({
  items: Type.Array(InboxItem),
  /** pass as `cursor` for the next page; null on the last */
  next_cursor: Nullable(Type.String()),
  /** pass as `changed_since` on the next resync (a little before now: pages overlap rather than miss) */
  server_time: Timestamp,
})
export type InboxPage = Static<typeof InboxPage>

export const ReadBody = Type.Object(
  { message_id: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
)
export type ReadBody = Static<typeof ReadBody>

// the hub's `read` (conversations' internal API) and its answer: packages/contracts (conversations-api.ts)
export { InternalReadBody, ReadResult } from '@switchboard/contracts/conversations-api.ts'
