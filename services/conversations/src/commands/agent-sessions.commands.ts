import { ConversationEvents } from '@switchboard/contracts'
import { type Caller, concreteScope, inScope, nowIso } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import { type AgentRow, findAgentById } from '../db/agents.repository.ts'
import { agentLoad, toSession, updateSession } from '../db/sessions.repository.ts'
import { routingScore } from '../domain/routing-score.ts'
import { scopeOfSession, sessionFacts } from '../domain/session-facts.ts'
import { ConversationErrors } from '../errors.ts'
import type { AvailableAgent, FindAvailableQuery } from '../schemas/agents.schemas.ts'
import { appendMessage } from './append-message.ts'
import { lockSession } from './load-session.ts'
import { kickQueue, rankedAgents } from './queue.commands.ts'
import { assignSession, type Change } from './sessions.commands.ts'

// The earlier system's agent-keyed routing calls (`/api/agents/...`): the routing pick, and taking or letting go
// of a session by agent. They go through the very code the sessions and the queue use (assignAgent: the agent's
// row locked, online and capacity checked), so an agent's load can't pass max_concurrent whichever way it grows.

/** An agent's change of one session, with the load it has after the commit. */
export interface AgentSessionChange extends Change {
  agent: AgentRow
  current_load: number
}

/** `skills=a,b` and `skills=a&skills=b` alike, trimmed, each once (case-insensitively). */
export function requiredSkills(skills: readonly string[] = []): string[] {
  const all = skills.flatMap((s) => s.split(',')).map((s) => s.trim())
  return [...new Map(all.filter(Boolean).map((s) => [s.toLowerCase(), s])).values()]
}

/**
 * GET /api/agents/find-available: the agent routing would pick now in the caller's workspace (online, under
 * capacity, on shift where the workspace keeps shifts; the best score); 404 when there is none. A pick in no
 * workspace means nothing, so an unscoped caller names one (400 otherwise).
 */
export async function findAvailableAgent(
  svc: ConversationsService,
  caller: Caller,
  query: FindAvailableQuery,
): Promise<AvailableAgent> {
  const scope = concreteScope(caller)
  const need = { skills: requiredSkills(query.skills), priority: query.priority ?? 'normal' }
  const [best] = await rankedAgents(svc.db, scope, need)
  if (!best) throw new ConversationErrors.NoAgentAvailable()
  return {
    id: best.agent_id,
    user_id: best.user_id,
    ...scope,
    name: best.name,
    department: best.department,
    skills: best.skills,
    status: best.status,
    max_concurrent: best.max_concurrent,
    current_load: best.load,
    rating: best.rating,
    avg_response_time: best.avg_response_time,
    score: routingScore(best, need),
  }
}

async function agentOf(svc: ConversationsService, caller: Caller, agentId: string): Promise<AgentRow> {
  const agent = await findAgentById(svc.db, agentId, caller.scope)
  if (!agent) throw new ConversationErrors.AgentNotFound(agentId)
  return agent
}

/**
 * POST /api/agents/:id/assign-session: the session goes to the agent exactly as `POST /api/omni/sessions/:id/assign`
 * would hand it (the assign rules: online, under capacity, leaves the queue; the agent already on it: no change).
 */
export async function assignSessionToAgent(
  svc: ConversationsService,
  caller: Caller,
  agentId: string,
  sessionId: string,
): Promise<AgentSessionChange> {
  const agent = await agentOf(svc, caller, agentId)
  const change = await assignSession(svc, caller, sessionId, agent.user_id)
  return { ...change, agent, current_load: await agentLoad(svc.db, agent.user_id, scopeOfSession(agent)) }
}

export const releasedText = (name: string) => `${name} left the conversation.`

/**
 * POST /api/agents/:id/release-session: the agent lets go of an open session it handles — no agent, status active
 * (the AI answers, and a to-human hands it on, as after a reopen), a system message and
 * `conversations.session.released`; its seat is free, so the queue is kicked. A closed session was released when it
 * closed: nothing changes (the call is idempotent). A session the agent does not handle is 409.
 */
export async function releaseSessionFromAgent(
  svc: ConversationsService,
  caller: Caller,
  agentId: string,
  sessionId: string,
): Promise<AgentSessionChange> {
  const agent = await agentOf(svc, caller, agentId)
  const change = await svc.transaction(caller, async (tx): Promise<Change> => {
    const row = await lockSession(tx, sessionId)
    if (row.agent_id !== agent.user_id || !inScope(scopeOfSession(row), scopeOfSession(agent))) {
      throw new ConversationErrors.AgentNotAssigned(sessionId, agentId)
    }
    const before = toSession(row)
    if (row.status === 'closed') return { before, after: before }
    const now = nowIso()
    const patch = { agent_id: null, status: 'active', updated_at: now }
    Object.assign(row, patch)
    await updateSession(tx.db, row.id, patch)
    await appendMessage(tx, row, {
      sender: 'system',
      sender_id: null,
      content: releasedText(agent.name || agent.user_id),
      metadata: { released_by: agent.user_id },
    })
    await tx.emit(
      ConversationEvents.sessionReleased,
      { session: sessionFacts(toSession(row)), previous_agent_id: agent.user_id },
      scopeOfSession(row),
    )
    return { before, after: toSession(row) }
  })
  if (change.before.agent_id !== change.after.agent_id) kickQueue(svc, scopeOfSession(change.after))
  return { ...change, agent, current_load: await agentLoad(svc.db, agent.user_id, scopeOfSession(agent)) }
}
