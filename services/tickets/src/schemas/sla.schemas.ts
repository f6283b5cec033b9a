import { type Static, Type } from '@sinclair/typebox'
import { Nullable, PageQuery, Paginated, Timestamp } from '@switchboard/contracts'
import { SLA_PRIORITIES, VIOLATION_TYPES } from '../domain/sla-rules.ts'
import { Ticket } from './tickets.schemas.ts'

const Priority = Type.Union(SLA_PRIORITIES.map((p) => Type.Literal(p)))
const Tier = Type.Union([...SLA_PRIORITIES.map((p) => Type.Literal(p)), Type.Literal('')], {
  description: "the customer's priority in identity; '' covers every tier without a config of its own",
})
// Minutes, at most a year: a deadline further away is no commitment, and business-time arithmetic stays bounded.
const Minutes = Type.Integer({ minimum: 1, maximum: 525_600, description: 'minutes' })
const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50 })
const Id = Type.String({ minLength: 1, maxLength: 128 })
export const DateParam = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD (UTC)' })

export const SlaConfig = Type.Object({
  id: Type.String(),
  name: Type.String(),
  priority: Type.String(),
  customer_tier: Type.String(),
  tags: Type.Array(Type.String()),
  warning_threshold: Type.Integer(),
  first_response_time: Type.Integer(),
  resolution_time: Type.Integer(),
  escalation_time: Type.Integer(),
  business_hours_only: Type.Boolean(),
  active: Type.Boolean(),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type SlaConfig = Static<typeof SlaConfig>

export const CreateSlaConfigBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    priority: Priority,
    customer_tier: Type.Optional(Tier),
    tags: Type.Optional(Tags),
    warning_threshold: Type.Optional(
      Type.Integer({ minimum: 50, maximum: 100, description: 'percent of the time that warns (default 80)' }),
    ),
    first_response_time: Minutes,
    resolution_time: Minutes,
    escalation_time: Minutes,
    business_hours_only: Type.Optional(Type.Boolean()),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type CreateSlaConfigBody = Static<typeof CreateSlaConfigBody>

export const UpdateSlaConfigBody = Type.Partial(CreateSlaConfigBody, { additionalProperties: false, minProperties: 1 })
export type UpdateSlaConfigBody = Static<typeof UpdateSlaConfigBody>

export const SlaConfigPage = Paginated(SlaConfig)
export const IdParams = Type.Object({ id: Id })
export type IdParams = Static<typeof IdParams>

export const ListSlaConfigsQuery = Type.Composite([
  PageQuery,
  Type.Object({
    priority: Type.Optional(Priority),
    customer_tier: Type.Optional(Tier),
    active: Type.Optional(Type.Boolean()),
  }),
])
export type ListSlaConfigsQuery = Static<typeof ListSlaConfigsQuery>

export const PriorityParams = Type.Object({ priority: Priority })
export const TierQuery = Type.Object({ customer_tier: Type.Optional(Tier) })

export const SlaViolation = Type.Object({
  id: Type.String(),
  ticket_id: Type.String(),
  sla_config_id: Type.String(),
  violation_type: Type.Union(VIOLATION_TYPES.map((t) => Type.Literal(t))),
  priority: Type.String(),
  customer_tier: Type.String(),
  deadline: Timestamp,
  violated_at: Timestamp,
  resolved: Type.Boolean(),
  resolved_at: Nullable(Timestamp),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
})
export type SlaViolation = Static<typeof SlaViolation>
export const SlaViolationPage = Paginated(SlaViolation)

export const ListViolationsQuery = Type.Composite([
  PageQuery,
  Type.Object({
    ticket_id: Type.Optional(Id),
    sla_config_id: Type.Optional(Id),
    violation_type: Type.Optional(Type.Union(VIOLATION_TYPES.map((t) => Type.Literal(t)))),
    resolved: Type.Optional(Type.Boolean()),
    date_from: Type.Optional(DateParam),
    date_to: Type.Optional(DateParam),
  }),
])
export type ListViolationsQuery = Static<typeof ListViolationsQuery>

/** `POST /api/sla/check/ticket/:id`: the violation found, with what it was measured against. */
export const SlaCheckResult = Type.Composite([SlaViolation, Type.Object({ ticket: Ticket, sla_config: SlaConfig })])
export type SlaCheckResult = Static<typeof SlaCheckResult>

const Counts = Type.Record(Type.String(), Type.Integer())
export const SlaStats = Type.Object({
  total_configs: Type.Integer(),
  active_configs: Type.Integer(),
  total_violations: Type.Integer(),
  unresolved_violations: Type.Integer(),
  violations_by_type: Counts,
  violations_by_priority: Counts,
  violations_by_tier: Counts,
  /** tickets without a violation, of all tickets, in percent (100 with no tickets) */
  compliance_rate: Type.Number(),
  trend_data: Type.Array(
    Type.Object({
      date: Type.String(),
      total_tickets: Type.Integer(),
      violations: Type.Integer(),
      compliance_rate: Type.Number(),
    }),
  ),
})
export type SlaStats = Static<typeof SlaStats>
export const SlaStatsQuery = Type.Object({
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90, default: 7, description: 'trend length, in days' })),
})
