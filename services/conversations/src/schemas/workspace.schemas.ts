import { type Static, Type } from '@sinclair/typebox'
import { Session } from './sessions.schemas.ts'

export const WorkspaceQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'how many recent sessions' }),
})
export type WorkspaceQuery = Static<typeof WorkspaceQuery>

/** The conversation workspace at a glance, for the caller's scope. */
export const WorkspaceOverview = Type.Object({
  /** open sessions someone answers: active or transferred */
  total_active_sessions: Type.Integer(),
  /** sessions waiting for a human (waiting_human) */
  waiting_queue: Type.Integer(),
  /** agents signed in: status online or busy */
  online_agents: Type.Integer(),
  /** of those, status busy or at capacity */
  busy_agents: Type.Integer(),
  channels: Type.Array(
    Type.Object({ channel: Type.String(), active_sessions: Type.Integer(), waiting_sessions: Type.Integer() }),
  ),
  /** newest first */
  recent_sessions: Type.Array(Session),
})
export type WorkspaceOverview = Static<typeof WorkspaceOverview>
