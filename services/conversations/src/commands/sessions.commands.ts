import { ConversationEvents } from '@switchboard/contracts'
import { type Caller, concreteScope, newId, nowIso } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import { insertSession, type SessionRow, toSession, updateSession } from '../db/sessions.repository.ts'
import { findWaitingForUpdate, markCancelled } from '../db/waiting.repository.ts'
import { scopeOfSession, sessionFacts } from '../domain/session-facts.ts'
import { canClose, closeText } from '../domain/session-rules.ts'
import { ConversationErrors } from '../errors.ts'
import type { CreateSessionBody } from '../schemas/session-actions.schemas.ts'
import type { Session } from '../schemas/sessions.schemas.ts'
import { mayPost } from './access.ts'
import { appendMessage } from './append-message.ts'
import { type Assignment, assignAgent } from './assign-agent.ts'
import { lockSession } from './load-session.ts'
import { checkMessage } from './messages.commands.ts'
import { announceQueue, kickQueue, leaveQueue } from './queue.commands.ts'
import { agentReference, customerReference, sessionScope } from './references.ts'

/** A command's answer when it changed a session: both sides, for the audit record. */
export interface Change {
  before: Session
  after: Session
}

/**
 * An agent or admin opens a conversation with a customer (outbound): active, optionally assigned (the assign
 * rules: online, under capacity) and with a first agent message (the posting rule: the opener must then be the
 * assignee, a supervisor or an admin). The customer and the agent are persons of the scope, stored by user id
 * (references.ts). All or nothing.
 */
export async function openSession(
  svc: ConversationsService,
  caller: Caller,
  body: CreateSessionBody,
): Promise<Session> {
  const scope = concreteScope(caller)
  if (body.content !== undefined) {
    checkMessage(svc, { sender: 'agent', kind: body.kind, content: body.content, metadata: body.metadata })
  }
  const customerId = await customerReference(svc, scope, body.customer_id)
  const agentId = body.agent_id === undefined ? undefined : await agentReference(svc, scope, body.agent_id)
  return svc.transaction(caller, async (tx) => {
    const now = nowIso()
    const row: SessionRow = {
      id: newId(),
      tenant_id: scope.tenant_id,
      workspace_id: scope.workspace_id,
      status: 'active',
      channel: body.channel ?? 'web',
      subject: body.subject?.trim() ?? '',
      customer_id: customerId,
      visitor_id: null,
      visitor_secret_hash: null,
      agent_id: null,
      ticket_id: null,
      priority: body.priority ?? 'normal',
      message_count: 0,
      started_at: now,
      last_message_at: null,
      ended_at: null,
      updated_at: now,
    }
    await insertSession(tx.db, row)
    await tx.emit(ConversationEvents.sessionCreated, sessionFacts(toSession(row)), scope)
    if (agentId !== undefined) await assignAgent(tx, row, agentId, { kind: 'assign' })
    if (body.content !== undefined) {
      if (!caller.principal || !mayPost(caller.principal, row)) throw new ConversationErrors.NotAssignedToYou(row.id)
      await appendMessage(tx, row, {
        sender: 'agent',
        sender_id: caller.actor.user_id,
        kind: body.kind,
        content: body.content,
        metadata: body.metadata,
      })
    }
    return toSession(row)
  })
}

export async function assignSession(svc: ConversationsService, caller: Caller, id: string, agentRef: string) {
  const agentId = await agentReference(svc, await sessionScope(svc, caller, id), agentRef)
  return handOver(svc, caller, id, agentId, { kind: 'assign' })
}

export async function transferSession(
  svc: ConversationsService,
  caller: Caller,
  id: string,
  toAgentRef: string,
  reason: string | undefined,
) {
  const agentId = await agentReference(svc, await sessionScope(svc, caller, id), toAgentRef, 'to_agent_id')
  return handOver(svc, caller, id, agentId, { kind: 'transfer', ...(reason ? { reason } : {}) })
}

/** Assign and transfer: through assignAgent (agent row locked, online and capacity checked, record, message, event). */
async function handOver(svc: ConversationsService, caller: Caller, id: string, agentId: string, a: Assignment) {
  let freed: string | null = null
  const change = await svc.transaction(caller, async (tx): Promise<Change> => {
    const row = await lockSession(tx, id)
    if (!canClose(row.status)) throw new ConversationErrors.SessionClosed(id)
    const before = toSession(row)
    const result = await assignAgent(tx, row, agentId, a)
    if (!result.unchanged) {
      freed = before.agent_id
      // taken by hand while it waited for a human: it leaves the queue, or the queue would hand it on again
      const w = await findWaitingForUpdate(tx, row.id)
      if (w) await leaveQueue(tx, row, w, agentId, result.transfer.transferred_at)
    }
    return { before, after: toSession(row) }
  })
  // the previous agent has a seat free: someone waiting may take it
  if (freed) kickQueue(svc, scopeOfSession(change.after))
  return change
}

/**
 * Closes an open session: status closed and `ended_at`, its waiting record (if it waited) cancelled, a system
 * message and `conversations.session.closed`, in one transaction. Closing a closed session is a 409.
 */
export async function closeSession(svc: ConversationsService, caller: Caller, id: string, reason: string | undefined) {
  const change = await svc.transaction(caller, async (tx): Promise<Change> => {
    const row = await lockSession(tx, id)
    if (!canClose(row.status)) throw new ConversationErrors.SessionClosed(id)
    const before = toSession(row)
    const now = nowIso()
    const patch = { status: 'closed', ended_at: now, updated_at: now }
    Object.assign(row, patch)
    await updateSession(tx.db, id, patch)
    const w = await findWaitingForUpdate(tx, id)
    if (w) {
      await markCancelled(tx.db, w.id, 'session_closed', now)
      await tx.emit(
        ConversationEvents.queueCancelled,
        { session_id: id, waiting_id: w.id, reason: 'session_closed' },
        scopeOfSession(row),
      )
      await announceQueue(tx, scopeOfSession(row))
    }
    await appendMessage(tx, row, {
      sender: 'system',
      sender_id: null,
      content: closeText(reason),
      metadata: reason ? { reason } : {},
    })
    await tx.emit(ConversationEvents.sessionClosed, sessionFacts(toSession(row)), scopeOfSession(row))
    return { before, after: toSession(row) }
  })
  // its agent has a seat free: someone waiting may take it
  if (change.before.agent_id) kickQueue(svc, scopeOfSession(change.after))
  return change
}
