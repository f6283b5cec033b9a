import { type Static, type TSchema, Type } from '@sinclair/typebox'
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
  description:
    'values keyed by the key of an active custom field of the scope (GET /api/custom-fields); on update null removes a value',
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

// coerceTypes 'array': one value is a list of one, a repeated parameter (`status=open&status=assigned`) any of them.
const AnyOf = <T extends TSchema>(item: T, description?: string) =>
  Type.Array(item, { maxItems: 20, ...(description ? { description } : {}) })
const Instant = Type.String({ minLength: 1, maxLength: 40, description: 'YYYY-MM-DD (whole day) or RFC 3339' })

export const TICKET_SORTS = [
  'created_at',
  'updated_at',
  'id',
  'priority',
  'status',
  'category',
  'resolved_at',
  'closed_at',
] as const

/** The list's filters (and the export's): every one rides on an index with the scope as prefix. */
const TicketFilterQuery = {
  status: Type.Optional(AnyOf(TicketStatus)),
  priority: Type.Optional(AnyOf(TicketPriority)),
  category: Type.Optional(AnyOf(Label)),
  source: Type.Optional(AnyOf(Label)),
  tag: Type.Optional(AnyOf(Type.String({ minLength: 1, maxLength: 64 }), 'tickets carrying every tag given')),
  agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'agent record id or user id' })),
  customer_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 128, description: 'customer record id or user id' }),
  ),
  search: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'substring of title or description' }),
  ),
  created_from: Type.Optional(Instant),
  created_to: Type.Optional(Instant),
  updated_from: Type.Optional(Instant),
  updated_to: Type.Optional(Instant),
  resolved_from: Type.Optional(Instant),
  resolved_to: Type.Optional(Instant),
  closed_from: Type.Optional(Instant),
  closed_to: Type.Optional(Instant),
  sort_by: Type.Optional(
    Type.Union(
      TICKET_SORTS.map((s) => Type.Literal(s)),
      { default: 'created_at' },
    ),
  ),
  sort_order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' })),
}

/** `cf.<key>=value` (or `cf_<key>`, the earlier spelling): tickets whose custom field holds one of the values. */
export const CUSTOM_FILTER_PARAM = /^cf[._]([a-z][a-z0-9_]*)$/
const customFilters = {
  patternProperties: { '^cf[._][a-z][a-z0-9_]*$': AnyOf(Type.String({ minLength: 1, maxLength: 500 })) },
}

export const ListTicketsQuery = Type.Object({ ...PageQuery.properties, ...TicketFilterQuery }, customFilters)
export type ListTicketsQuery = Static<typeof ListTicketsQuery>

export const EXPORT_DEFAULT_LIMIT = 1000
export const EXPORT_MAX_LIMIT = 5000

export const ExportTicketsQuery = Type.Object(
  {
    ...TicketFilterQuery,
    limit: Type.Optional(
      // capped rather than refused, like the audit export
      Type.Integer({ minimum: 1, description: `rows, default ${EXPORT_DEFAULT_LIMIT}, at most ${EXPORT_MAX_LIMIT}` }),
    ),
  },
  customFilters,
)
export type ExportTicketsQuery = Static<typeof ExportTicketsQuery>

export const TicketPage = Paginated(Ticket)
