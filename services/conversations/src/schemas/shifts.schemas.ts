import { type Static, Type } from '@sinclair/typebox'
import { PageQuery, Paginated, Timestamp } from '@switchboard/contracts'
import { SHIFT_SORT_FIELDS, SHIFT_STATUSES, SHIFT_TYPES } from '../domain/shift-rules.ts'
import { userId } from './sessions.schemas.ts'

export const ShiftType = Type.Union(SHIFT_TYPES.map((s) => Type.Literal(s)))
export const ShiftStatus = Type.Union(SHIFT_STATUSES.map((s) => Type.Literal(s)))
const Instant = Type.String({ format: 'date-time', description: 'RFC 3339; stored and answered in UTC' })
const AgentUserId = userId("the agent's user id")

/** One agent's shift; times are UTC instants, `end_time` after `start_time`. */
export const Shift = Type.Object({
  id: Type.String(),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  agent_id: Type.String({ description: "the agent's user id" }),
  shift_type: ShiftType,
  start_time: Timestamp,
  end_time: Timestamp,
  status: ShiftStatus,
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type Shift = Static<typeof Shift>

export const CreateShiftBody = Type.Object(
  {
    agent_id: userId('an agent of the scope: record id or user id (stored as the user id)'),
    shift_type: ShiftType,
    start_time: Instant,
    end_time: Instant,
    status: Type.Optional(ShiftStatus),
  },
  { additionalProperties: false },
)
export type CreateShiftBody = Static<typeof CreateShiftBody>

export const UpdateShiftBody = Type.Object(
  {
    shift_type: Type.Optional(ShiftType),
    start_time: Type.Optional(Instant),
    end_time: Type.Optional(Instant),
    status: Type.Optional(ShiftStatus),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateShiftBody = Static<typeof UpdateShiftBody>

export const ShiftParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) })
export type ShiftParams = Static<typeof ShiftParams>

const DateBound = Type.String({
  minLength: 10,
  maxLength: 40,
  pattern: '^\\d{4}-\\d{2}-\\d{2}([Tt ].+)?$',
  description: 'YYYY-MM-DD (the whole UTC day) or RFC 3339; compared with start_time',
})

export const ListShiftsQuery = Type.Composite([
  PageQuery,
  Type.Object({
    agent_id: Type.Optional(AgentUserId),
    shift_type: Type.Optional(Type.Array(ShiftType, { maxItems: 8, description: 'repeatable' })),
    status: Type.Optional(Type.Array(ShiftStatus, { maxItems: 8, description: 'repeatable' })),
    date_from: Type.Optional(DateBound),
    date_to: Type.Optional(DateBound),
    sort_by: Type.Optional(
      Type.Union(
        SHIFT_SORT_FIELDS.map((s) => Type.Literal(s)),
        { default: 'start_time' },
      ),
    ),
    sort_order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' })),
  }),
])
export type ListShiftsQuery = Static<typeof ListShiftsQuery>

export const ShiftPage = Paginated(Shift)

export const ShiftStats = Type.Object({
  total: Type.Integer(),
  by_type: Type.Record(Type.String(), Type.Integer(), { description: 'every shift type, zero included' }),
  by_status: Type.Record(Type.String(), Type.Integer(), { description: 'every status, zero included' }),
  upcoming: Type.Integer({ description: 'scheduled shifts that have not started yet' }),
  today_active: Type.Integer({ description: 'active shifts overlapping the current UTC day' }),
})
export type ShiftStats = Static<typeof ShiftStats>
