import { type Static, Type } from '@sinclair/typebox'
import { BoundedList, PageQuery, Paginated } from '@switchboard/contracts'
import { AGENT_STATUSES } from '../db/agents.repository.ts'

const Id = Type.String({ minLength: 1, maxLength: 128 })
const Skill = Type.String({ minLength: 1, maxLength: 64 })
/** An array, or one comma-separated string (the earlier system's CSV), split into items either way. */
const Skills = Type.Union([
  Type.Array(Skill, { maxItems: 50, uniqueItems: true }),
  Type.String({ maxLength: 3300, description: 'comma-separated; split into items' }),
])

export const AgentStatusSchema = Type.Union(AGENT_STATUSES.map((status) => Type.Literal(status)))

export const AgentSchema = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  name: Type.String(),
  department: Type.String(),
  skills: Type.Array(Type.String()),
  max_concurrent: Type.Integer(),
  current_load: Type.Integer({
    description:
      "open sessions the agent handles (from conversations' events: moved by assignment, transfer, release, close)",
  }),
  status: Type.String(),
  rating: Type.Number(),
  avg_response_time: Type.Number({ description: 'seconds, global cumulative value' }),
  created_at: Type.String(),
  updated_at: Type.String(),
})

export const AgentIdParams = Type.Object({ id: Id })
export type AgentIdParams = Static<typeof AgentIdParams>

/** POST /api/agents: an existing user becomes an agent of the request's workspace. */
export const CreateAgentBody = Type.Object(
  {
    user_id: Id,
    name: Type.Optional(Type.String({ maxLength: 200 })),
    department: Type.Optional(Type.String({ maxLength: 100 })),
    skills: Type.Optional(Skills),
    max_concurrent: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
)
export type CreateAgentBody = Static<typeof CreateAgentBody>

export const UpdateAgentBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    department: Type.Optional(Type.String({ maxLength: 100 })),
    skills: Type.Optional(Skills),
    max_concurrent: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateAgentBody = Static<typeof UpdateAgentBody>

export const AgentStatusBody = Type.Object({ status: AgentStatusSchema }, { additionalProperties: false })
export type AgentStatusBody = Static<typeof AgentStatusBody>

export const AgentListQuery = Type.Composite([
  PageQuery,
  Type.Object({
    status: Type.Optional(AgentStatusSchema),
    department: Type.Optional(Type.String({ maxLength: 100 })),
  }),
])
export type AgentListQuery = Static<typeof AgentListQuery>
export const AgentPage = Paginated(AgentSchema)

/** GET /api/agents/online: every agent of the scope that is not offline (online, busy, away), by name. */
export const OnlineAgents = BoundedList(AgentSchema)

export const AgentStatsQuery = Type.Object({ agent_id: Type.Optional(Id) })
/** GET /api/agents/stats, over the scope (or one agent): averages are 0 when there is nobody to average. */
export const AgentStats = Type.Object({
  total: Type.Integer(),
  online: Type.Integer(),
  busy: Type.Integer(),
  avg_response_time: Type.Number({ description: 'seconds' }),
  avg_rating: Type.Number(),
})

export const AgentRevokeResult = Type.Object({ agent_id: Type.String(), token_version: Type.Integer() })
