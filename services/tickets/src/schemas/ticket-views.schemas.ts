import { type Static, Type } from '@sinclair/typebox'
import { BoundedList, Nullable, Paginated, Timestamp } from '@switchboard/contracts'
import { TicketStatus } from './tickets.schemas.ts'

const Id = Type.String({ minLength: 1, maxLength: 128 })
const Tag = Type.String({ minLength: 1, maxLength: 64 })

/** One status a ticket took (`from_status` null on creation). */
export const StatusChange = Type.Object({
  id: Type.String(),
  ticket_id: Type.String(),
  from_status: Nullable(Type.String()),
  to_status: Type.String(),
  actor_id: Type.String(),
  reason: Type.String(),
  created_at: Timestamp,
})
export type StatusChange = Static<typeof StatusChange>
export const StatusHistoryPage = Paginated(StatusChange)

/** A conversation the ticket continues, as conversations' events last described it. */
export const TicketConversation = Type.Object({
  session_id: Type.String(),
  ticket_id: Type.String(),
  status: Type.String(),
  channel: Type.String(),
  subject: Type.String(),
  customer_id: Nullable(Type.String()),
  agent_id: Nullable(Type.String()),
  started_at: Timestamp,
  last_message_at: Nullable(Timestamp),
  ended_at: Nullable(Timestamp),
})
export type TicketConversation = Static<typeof TicketConversation>
export const TicketConversationList = BoundedList(TicketConversation)

const Count = (key: string) => Type.Array(Type.Object({ [key]: Type.String(), count: Type.Integer() }))

/** GET /api/tickets/stats over the caller's scope (and one agent's tickets with `agent_id`). */
export const TicketStats = Type.Object({
  total: Type.Integer(),
  today_created: Type.Integer({ description: 'created since 00:00 UTC' }),
  pending: Type.Integer({ description: 'open or assigned' }),
  in_progress: Type.Integer(),
  resolved: Type.Integer({ description: 'in status resolved (closed ones are not counted again)' }),
  closed: Type.Integer(),
  by_status: Count('status'),
  by_priority: Count('priority'),
  by_category: Count('category'),
})
export type TicketStats = Static<typeof TicketStats>

export const TicketStatsQuery = Type.Object({ agent_id: Type.Optional(Id) })
export type TicketStatsQuery = Static<typeof TicketStatsQuery>

export const BULK_MAX = 200

/**
 * POST /api/tickets/bulk: one change applied to each ticket on its own (assignment first, then status, then tags),
 * so one ticket that can't take it doesn't hold back the others.
 */
export const BulkBody = Type.Object(
  {
    ticket_ids: Type.Array(Id, { minItems: 1, maxItems: BULK_MAX }),
    status: Type.Optional(TicketStatus),
    set_tags: Type.Optional(Type.Array(Tag, { maxItems: 50 })),
    add_tags: Type.Optional(Type.Array(Tag, { maxItems: 50 })),
    remove_tags: Type.Optional(Type.Array(Tag, { maxItems: 50 })),
    agent_id: Type.Optional(Id),
    unassign_agent: Type.Optional(Type.Boolean()),
    reason: Type.Optional(Type.String({ maxLength: 2000, description: 'kept in the status history (and on close)' })),
  },
  { additionalProperties: false },
)
export type BulkBody = Static<typeof BulkBody>

export const BulkResult = Type.Object({
  updated: Type.Array(Type.String()),
  failed: Type.Array(Type.Object({ ticket_id: Type.String(), error: Type.String(), code: Type.String() })),
})
export type BulkResult = Static<typeof BulkResult>
