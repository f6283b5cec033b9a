import { type Static, Type } from '@sinclair/typebox'
import { BoundedList, Nullable, Timestamp } from '@switchboard/contracts'
import { Id, userId } from './sessions.schemas.ts'

// `/api/session-transfer/*` (the earlier system's paths and bodies). Agents are named by record or user id and
// answered by user id, as sessions do. The hand-over to a human, which other services call, is in packages/contracts.
export { ToHumanBody, TransferResult } from '@switchboard/contracts/conversations-api.ts'

const Reason = Type.String({ maxLength: 500 })
const Limit = (max: number, dflt: number) => Type.Optional(Type.Integer({ minimum: 1, maximum: max, default: dflt }))

export const ToAgentBody = Type.Object(
  {
    session_id: Id,
    target_agent_id: userId('an agent of the scope: record id or user id'),
    reason: Type.Optional(Reason),
  },
  { additionalProperties: false },
)
export type ToAgentBody = Static<typeof ToAgentBody>

export const WAITING_STATUSES = ['waiting', 'transferred', 'cancelled'] as const

export const WaitingQuery = Type.Object({
  status: Type.Optional(
    Type.Union(
      WAITING_STATUSES.map((s) => Type.Literal(s)),
      { default: 'waiting' },
    ),
  ),
  limit: Limit(200, 50),
})
export type WaitingQuery = Static<typeof WaitingQuery>

export const WaitingRecord = Type.Object({
  id: Type.String(),
  session_id: Type.String(),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  status: Type.Union(WAITING_STATUSES.map((s) => Type.Literal(s))),
  priority: Type.String(),
  reason: Type.String(),
  notes: Type.String(),
  target_skills: Type.Array(Type.String()),
  queued_at: Timestamp,
  assigned_at: Nullable(Timestamp),
  assigned_to: Nullable(Type.String({ description: "the agent's user id" })),
  cancelled_at: Nullable(Timestamp),
  cancel_reason: Nullable(Type.String()),
  /** while waiting: 1 = next in its workspace */
  queue_position: Nullable(Type.Integer()),
  estimated_wait_seconds: Nullable(Type.Integer()),
})
export type WaitingRecord = Static<typeof WaitingRecord>
export const WaitingList = BoundedList(WaitingRecord)

export const CancelBody = Type.Object(
  { session_id: Id, reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) },
  { additionalProperties: false },
)
export type CancelBody = Static<typeof CancelBody>
export const CancelResult = Type.Object({ session_id: Type.String(), cancelled: Type.Boolean() })

/** Nothing to say: the pass runs over the caller's scope. */
export const ProcessQueueBody = Type.Object({}, { additionalProperties: false })

export const ProcessQueueResult = Type.Object({
  assigned: Type.Integer({ description: 'sessions handed to an agent by this pass' }),
  remaining: Type.Integer({ description: 'sessions still waiting in the caller’s scope' }),
})

export const TransferRecord = Type.Object({
  id: Type.String(),
  session_id: Type.String(),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  kind: Type.Union(['assign', 'transfer', 'to_agent', 'to_human', 'queue'].map((k) => Type.Literal(k))),
  from_agent_id: Nullable(Type.String()),
  to_agent_id: Nullable(Type.String()),
  reason: Type.String(),
  notes: Type.String(),
  summary: Type.String(),
  actor_id: Type.String(),
  transferred_at: Timestamp,
})
export type TransferRecord = Static<typeof TransferRecord>
export const TransferList = BoundedList(TransferRecord)

export const HistoryQuery = Type.Object({ limit: Limit(200, 50) })
export const HistoryParams = Type.Object({ session_id: Id })

export const CheckAutoBody = Type.Object(
  {
    session_id: Id,
    messages: Type.Array(
      Type.Object(
        {
          content: Type.String({ maxLength: 16_384 }),
          sender: Type.String({ minLength: 1, maxLength: 32, description: 'customer (or user), agent, ai, system' }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 500 },
    ),
  },
  { additionalProperties: false },
)
export type CheckAutoBody = Static<typeof CheckAutoBody>
export const CheckAutoResult = Type.Object({
  session_id: Type.String(),
  should_transfer: Type.Boolean(),
  reason: Type.String(),
})
