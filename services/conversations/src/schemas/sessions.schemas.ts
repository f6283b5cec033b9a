import { type Static, Type } from '@sinclair/typebox'
import {
  MESSAGE_KINDS,
  MESSAGE_SENDERS,
  MESSAGE_VISIBILITIES,
  Nullable,
  SESSION_STATUSES,
  Timestamp,
} from '@switchboard/contracts'
import { Paginated } from '@switchboard/platform'

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
  /** `internal`: a note, seen by staff only (README "Internal notes") */
  visibility: Type.Union(MESSAGE_VISIBILITIES.map((v) => Type.Literal(v))),
  /** the message's position in its session (1, 2, …; a note takes one too, so a customer's list has holes) */
  seq: Type.Integer({ minimum: 1 }),
  created_at: Timestamp,
})
export type Message = Static<typeof Message>

export const SessionParams = Type.Object({ id: Id })
export const SessionPage = Paginated(Session)
