/**
 * The hub's `presence` frames (realtime-voice README "Agents' presence": identity's agent events, to consoles holding
 * agents.read) applied to the cached agents in place: a status change moves its row at once, with no request. An
 * agent the cache does not hold yet (created meanwhile) is read again from the API.
 */
import type { HubFrame } from '../../lib/hub.ts'
import { invalidate, updateCached } from '../../lib/query.ts'
import { type SupervisedAgent, supervisionKeys } from './api.ts'

export interface PresenceData {
  event: 'status_changed' | 'upserted'
  agent_id: string
  user_id: string
  status: string
  name?: string
  max_concurrent?: number
}

/** The agents with the frame applied; the same array when the agent is not among them. */
export function applyPresence(agents: SupervisedAgent[], p: PresenceData): SupervisedAgent[] {
  const i = agents.findIndex((a) => a.id === p.agent_id)
  if (i < 0) return agents
  const before = agents[i] as SupervisedAgent
  const after: SupervisedAgent = {
    ...before,
    status: p.status,
    ...(p.name !== undefined ? { name: p.name } : {}),
    ...(p.max_concurrent !== undefined ? { max_concurrent: p.max_concurrent } : {}),
  }
  return agents.map((a, j) => (j === i ? after : a))
}

export function onPresenceFrame(frame: HubFrame<PresenceData>): void {
  let known = false
  updateCached<SupervisedAgent[]>(supervisionKeys.agents, (agents) => {
    const next = applyPresence(agents, frame.data)
    known ||= next !== agents
    return next
  })
  if (!known) void invalidate(supervisionKeys.agents)
}
