import { ConversationEvents } from '@switchboard/contracts'
import { newId, nowIso, type Tx } from '@switchboard/platform'
import { type AgentRow, findAgentByUserForUpdate } from '../db/agents.repository.ts'
import type { ConversationsDatabase } from '../db/database.ts'
import { agentLoad, type SessionRow, toSession, updateSession } from '../db/sessions.repository.ts'
import { insertTransfer, type TransferRow } from '../db/transfers.repository.ts'
import { scopeOfSession, sessionFacts } from '../domain/session-facts.ts'
import { ConversationErrors } from '../errors.ts'
import { appendMessage } from './append-message.ts'

export interface Assignment {
  /** assign: an agent takes it (status active); transfer: handed over (status transferred); to_agent / to_human /
   * queue: the transfer API and the queue (status transferred) */
  kind: 'assign' | 'transfer' | 'to_agent' | 'to_human' | 'queue'
  reason?: string
  notes?: string
  summary?: string
}

export interface AssignResult {
  session: SessionRow
  transfer: TransferRow
  agent: AgentRow
  /** the agent already had it: nothing changed, no event */
  unchanged: boolean
}

/**
 * Hands a session (locked by the caller in this transaction) to an agent of its scope: the agent's row is locked
 * (so concurrent assignments to one agent are counted one after another, on any number of replicas), it must be
 * online and under capacity, then the session, a transfer record, a system message and the event —
 * all in the caller's transaction. Refusals: 404 no such agent, 409 offline / at capacity.
 */
export async function assignAgent(
  tx: Tx<ConversationsDatabase>,
  session: SessionRow,
  agentUserId: string,
  a: Assignment,
): Promise<AssignResult> {
  const scope = scopeOfSession(session)
  const agent = await findAgentByUserForUpdate(tx, agentUserId, scope)
  if (!agent) throw new ConversationErrors.AgentNotFound(agentUserId)
  const now = nowIso()
  const transfer: TransferRow = {
    id: newId(),
    session_id: session.id,
    tenant_id: session.tenant_id,
    workspace_id: session.workspace_id,
    kind: a.kind,
    from_agent_id: session.agent_id,
    to_agent_id: agentUserId,
    reason: a.reason ?? '',
    notes: a.notes ?? '',
    summary: a.summary ?? '',
    actor_id: tx.caller.actor.user_id,
    transferred_at: now,
  }
  if (session.agent_id === agentUserId) return { session, transfer, agent, unchanged: true }
  if (agent.status !== 'online') throw new ConversationErrors.AgentOffline(agentUserId)
  if ((await agentLoad(tx.db, agentUserId, scope)) >= Number(agent.max_concurrent)) {
    throw new ConversationErrors.AgentAtCapacity(agentUserId)
  }
  const previous = session.agent_id
  const status = a.kind === 'assign' ? 'active' : 'transferred'
  Object.assign(session, { agent_id: agentUserId, status, updated_at: now })
  await updateSession(tx.db, session.id, { agent_id: agentUserId, status, updated_at: now })
  await insertTransfer(tx.db, transfer)
  const who = agent.name || agentUserId
  const text =
    a.kind === 'assign'
      ? `${who} joined the conversation.`
      : `The conversation was handed over to ${who}.${a.reason ? ` Reason: ${a.reason}.` : ''}`
  await appendMessage(tx, session, {
    sender: 'system',
    sender_id: null,
    content: text,
    metadata: { transfer_id: transfer.id },
  })
  const facts = sessionFacts(toSession(session))
  if (a.kind === 'assign') {
    await tx.emit(ConversationEvents.sessionAssigned, { session: facts, previous_agent_id: previous }, scope)
  } else {
    await tx.emit(
      ConversationEvents.sessionTransferred,
      {
        session: facts,
        from_agent_id: previous,
        to_agent_id: agentUserId,
        reason: transfer.reason,
        transfer_id: transfer.id,
      },
      scope,
    )
  }
  return { session, transfer, agent, unchanged: false }
}
