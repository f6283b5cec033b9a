import { type Static, Type } from '@sinclair/typebox'
import { Nullable, Timestamp } from '@switchboard/contracts'
import { Id, Message, Session } from './sessions.schemas.ts'

// GET /api/customers/:id/activity (the earlier system's path): a customer's recent sessions, tickets and messages, for the
// console's customer sidebar. Served here, under identity's /api/customers prefix: two of the three are this
// service's rows, the third a projection of tickets' events.

export const CustomerActivityParams = Type.Object({
  id: Type.String({ ...Id, description: "identity's customer id, or the customer's user id" }),
})

export const CustomerActivityQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'per list' })) },
  { additionalProperties: false },
)
export type CustomerActivityQuery = Static<typeof CustomerActivityQuery>

export const ActivityTicket = Type.Object({
  id: Type.String(),
  title: Type.String(),
  status: Type.String(),
  priority: Type.String(),
  category: Type.String(),
  source: Type.String(),
  agent_id: Nullable(Type.String({ description: "the assigned agent's user id" })),
  created_at: Timestamp,
})
export type ActivityTicket = Static<typeof ActivityTicket>

export const CustomerActivity = Type.Object({
  customer_id: Type.String({ description: "identity's customer id" }),
  user_id: Type.String({ description: "the customer's user id (sessions' and tickets' customer_id)" }),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  /** newest first (started_at) */
  recent_sessions: Type.Array(Session),
  /** newest first (created_at); from tickets' events, so a just-made ticket may trail by the events' delay */
  recent_tickets: Type.Array(ActivityTicket),
  /** newest first, across the customer's sessions, every sender */
  recent_messages: Type.Array(Message),
})
export type CustomerActivity = Static<typeof CustomerActivity>
