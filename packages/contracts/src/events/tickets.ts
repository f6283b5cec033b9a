import { Type } from '@sinclair/typebox'
import { Nullable } from '../common.ts'

const TicketFacts = Type.Object({
  ticket_id: Type.String(),
  customer_id: Type.String(),
  agent_id: Nullable(Type.String()),
  category: Type.String(),
  priority: Type.String(),
  status: Type.String(),
  source: Type.String(),
  created_at: Type.String(),
})

export const TicketEvents = {
  created: { type: 'tickets.ticket.created', data: TicketFacts },
  updated: {
    type: 'tickets.ticket.updated',
    data: Type.Object({ ticket: TicketFacts, changed: Type.Array(Type.String()) }),
  },
  statusChanged: {
    type: 'tickets.ticket.status_changed',
    data: Type.Object({
      ticket_id: Type.String(),
      from: Type.String(),
      to: Type.String(),
      resolved_at: Nullable(Type.String()),
      closed_at: Nullable(Type.String()),
    }),
  },
  commented: {
    type: 'tickets.comment.added',
    data: Type.Object({ ticket_id: Type.String(), comment_id: Type.String(), type: Type.String() }),
  },
  closed: {
    type: 'tickets.ticket.closed',
    data: Type.Object({ ticket_id: Type.String(), reason: Type.String(), closed_at: Type.String() }),
  },
} as const
