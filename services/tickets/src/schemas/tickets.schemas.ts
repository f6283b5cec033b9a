import { type Static, Type } from '@sinclair/typebox'
import { Nullable, PageQuery, Paginated, Timestamp } from '@switchboard/contracts'
import { TICKET_STATUSES } from '../domain/ticket-status.ts'

export const TicketStatus = Type.Union(
  TICKET_STATUSES.map((s) => Type.Literal(s)),
  { description: 'open → assigned → in_progress → resolved → closed; see README for the transition table' },
)
export const TicketPriority = Type.Union([
  Type.Literal('low'),
  Type.Literal('normal'),
  Type.Literal('high'),
  Type.Literal('urgent'),
])

const Title = Type.String({ minLength: 1, maxLength: 200 })
const Description = Type.String({ maxLength: 20_000 })
const Label = Type.String({ minLength: 1, maxLength: 64 })
const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50 })
const CustomFields = Type.Record(Type.String(), Type.Unknown(), {
  maxProperties: 100,
  description: 'free-form values keyed by custom field name',
})

export const Ticket = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  customer_id: Type.String(),
  agent_id: Nullable(Type.String()),
  session_id: Nullable(Type.String()),
  category: Type.String(),
  priority: Type.String(),
  status: Type.String(),
  source: Type.String(),
  tags: Type.Array(Type.String()),
  custom_fields: Type.Record(Type.String(), Type.Unknown()),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  resolved_at: Nullable(Timestamp),
  closed_at: Nullable(Timestamp),
})
export type Ticket = Static<typeof Ticket>

export const CreateTicketBody = Type.Object(
  {
    title: Title,
    customer_id: Type.String({ minLength: 1, maxLength: 128 }),
    description: Type.Optional(Description),
    category: Type.Optional(Label),
    priority: Type.Optional(TicketPriority),
    source: Type.Optional(Label),
    tags: Type.Optional(Tags),
    session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    custom_fields: Type.Optional(CustomFields),
  },
  { additionalProperties: false },
)
export type CreateTicketBody = Static<typeof CreateTicketBody>

export const UpdateTicketBody = Type.Object(
  {
    title: Type.Optional(Title),
    description: Type.Optional(Description),
    category: Type.Optional(Label),
    priority: Type.Optional(TicketPriority),
    status: Type.Optional(TicketStatus),
    tags: Type.Optional(Tags),
    custom_fields: Type.Optional(CustomFields),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateTicketBody = Static<typeof UpdateTicketBody>

export const AssignTicketBody = Type.Object(
  { agent_id: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
)
export type AssignTicketBody = Static<typeof AssignTicketBody>

export const CloseTicketBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
)
export type CloseTicketBody = Static<typeof CloseTicketBody>

export const TicketParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) })
export type TicketParams = Static<typeof TicketParams>

export const ListTicketsQuery = Type.Composite([
  PageQuery,
  Type.Object({
    status: Type.Optional(TicketStatus),
    priority: Type.Optional(TicketPriority),
    category: Type.Optional(Label),
    agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    customer_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    search: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'substring of title or description' }),
    ),
  }),
])
export type ListTicketsQuery = Static<typeof ListTicketsQuery>

export const TicketPage = Paginated(Ticket)
