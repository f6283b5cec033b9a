import { type Static, Type } from '@sinclair/typebox'
import { Id, Priority, Session } from './sessions.schemas.ts'

// /api/agents/find-available and /api/agents/:id/{assign,release}-session: routing and sessions are this service's,
// under identity's /api/agents prefix (the gateway routes these three by a more specific prefix).

const Skill = Type.String({ minLength: 1, maxLength: 64 })

/** `skills=a&skills=b` (the earlier system's form), or `skills=a,b`; one value alone is a list of one. */
export const FindAvailableQuery = Type.Object(
  {
    skills: Type.Optional(
      Type.Array(Skill, { maxItems: 20, description: 'required skills, repeated or comma-separated' }),
    ),
    priority: Type.Optional(Priority),
  },
  { additionalProperties: false },
)
export type FindAvailableQuery = Static<typeof FindAvailableQuery>

/** The routing pick: the agent as routing sees it, its load and its score (domain/routing-score.ts). */
export const AvailableAgent = Type.Object({
  id: Type.String({ description: "identity's agent id" }),
  user_id: Type.String({ description: 'what sessions carry as agent_id' }),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  name: Type.String(),
  department: Type.String(),
  skills: Type.Array(Type.String()),
  status: Type.String(),
  max_concurrent: Type.Integer(),
  current_load: Type.Integer({ description: 'open sessions assigned to the agent' }),
  rating: Type.Number(),
  avg_response_time: Type.Number({ description: 'seconds' }),
  score: Type.Number({ description: 'the routing score the pick won with' }),
})
export type AvailableAgent = Static<typeof AvailableAgent>

export const AgentParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 128, description: "identity's agent id" }),
})

export const AgentSessionBody = Type.Object({ session_id: Id }, { additionalProperties: false })
export type AgentSessionBody = Static<typeof AgentSessionBody>

/** The earlier system's reply, plus the agent's load after the change and the session as it now is. */
export const AgentSessionResult = Type.Object({
  message: Type.String(),
  agent_id: Type.String(),
  session_id: Type.String(),
  current_load: Type.Integer(),
  session: Session,
})
export type AgentSessionResult = Static<typeof AgentSessionResult>
