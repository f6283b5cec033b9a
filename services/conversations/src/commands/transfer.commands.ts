import { ConversationEvents } from '@switchboard/contracts'
import { type Caller, newId, nowIso } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import { type SessionRow, toSession, updateSession } from '../db/sessions.repository.ts'
import { anyWaitingAtOrAbove, findWaitingForUpdate, insertWaiting, markCancelled } from '../db/waiting.repository.ts'
import { handoverSummary } from '../domain/auto-transfer.ts'
import { PRIORITY_RANK, priorityRank } from '../domain/queue-estimate.ts'
import { scopeOfSession } from '../domain/session-facts.ts'
import { ConversationErrors } from '../errors.ts'
import type { Session } from '../schemas/sessions.schemas.ts'
import type { ToAgentBody, ToHumanBody, TransferResult } from '../schemas/transfer.schemas.ts'
import { appendMessage } from './append-message.ts'
import { assignAgent } from './assign-agent.ts'
import { lockSession } from './load-session.ts'
import { announceQueue, isAgentRefusal, kickQueue, leaveQueue, rankedAgents } from './queue.commands.ts'
import { waitingInfo, waitingSkills } from './queue-info.ts'
import { agentReference, sessionScope } from './references.ts'

/** A command's answer: the route's reply and both sides of the session, for the audit record. */
export interface TransferChange {
  result: TransferResult
  before: Session
  after: Session
  /** a waiting record was written by this call */
  queued?: boolean
}

export const QUEUED_TEXT =
  'You are in the queue for a human agent. We will connect you as soon as one is free; thank you for waiting.'
const cancelledText = (reason: string) => `You left the queue for a human agent (reason: ${reason}).`

const SUMMARIES = {
  queued: 'The session was added to the waiting queue.',
  alreadyWaiting: 'The session is already in the waiting queue.',
  alreadyAssigned: 'The session is already assigned to the target agent.',
}

const distinctSkills = (skills: readonly string[] = []) => [
  ...new Map(
    skills
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => [s.toLowerCase(), s]),
  ).values(),
]

const result = (session: SessionRow, r: Partial<TransferResult> & Pick<TransferResult, 'summary'>): TransferResult => ({
  success: true,
  session_id: session.id,
  new_agent_id: null,
  is_waiting: false,
  waiting_id: null,
  queued_at: null,
  transferred_at: null,
  queue_position: null,
  estimated_wait_seconds: null,
  ...r,
})

/**
 * To a human: straight to the best agent free now, unless someone of the scope already waits
 * at this priority or above (the queue serves oldest first, a newcomer does not overtake it), else into the
 * queue: status waiting_human, a system message, `conversations.queue.waiting` with position and estimate.
 * Already waiting → `is_waiting: true`, nothing changes; an agent already on it → 409; closed → 409.
 */
export async function toHuman(svc: ConversationsService, caller: Caller, body: ToHumanBody): Promise<TransferChange> {
  const change = await svc.transaction(caller, async (tx): Promise<TransferChange> => {
    const row = await lockSession(tx, body.session_id)
    if (row.status === 'closed') throw new ConversationErrors.SessionClosed(row.id)
    const before = toSession(row)
    const existing = await findWaitingForUpdate(tx, row.id)
    if (existing) {
      const info = await waitingInfo(tx.db, existing)
      const view = toSession(row, info)
      return {
        before: view,
        after: view,
        result: result(row, {
          is_waiting: true,
          waiting_id: existing.id,
          queued_at: existing.queued_at,
          queue_position: info.position,
          estimated_wait_seconds: info.estimated_wait_seconds,
          summary: SUMMARIES.alreadyWaiting,
        }),
      }
    }
    if (row.agent_id) throw new ConversationErrors.AlreadyAssigned(row.id)
    const scope = scopeOfSession(row)
    const priority = body.priority ?? (Object.hasOwn(PRIORITY_RANK, row.priority) ? row.priority : 'normal')
    if (body.priority && body.priority !== row.priority) {
      // the session keeps the priority it was handed over with: lists, routing and a later to-human see it
      const patch = { priority: body.priority, updated_at: nowIso() }
      Object.assign(row, patch)
      await updateSession(tx.db, row.id, patch)
    }
    const skills = distinctSkills(body.target_skills)
    if (!(await anyWaitingAtOrAbove(tx.db, scope, priorityRank(priority)))) {
      const [best] = await rankedAgents(tx.db, scope, { skills, priority })
      if (best) {
        const summary = handoverSummary(row)
        try {
          const { transfer } = await assignAgent(tx, row, best.user_id, {
            kind: 'to_human',
            ...(body.reason ? { reason: body.reason } : {}),
            ...(body.notes ? { notes: body.notes } : {}),
            summary,
          })
          return {
            before,
            after: toSession(row),
            result: result(row, {
              new_agent_id: best.user_id,
              transferred_at: transfer.transferred_at,
              summary,
            }),
          }
        } catch (err) {
          // That agent filled up since it was ranked (nothing was written yet): queue, the pass routes it.
          if (!isAgentRefusal(err)) throw err
        }
      }
    }
    const now = nowIso()
    const w = {
      id: newId(),
      session_id: row.id,
      ...scope,
      status: 'waiting',
      priority,
      priority_rank: priorityRank(priority),
      reason: body.reason ?? '',
      notes: body.notes ?? '',
      target_skills: skills,
      queued_at: now,
      assigned_at: null,
      assigned_to: null,
      cancelled_at: null,
      cancel_reason: null,
    }
    await insertWaiting(tx.db, w)
    Object.assign(row, { status: 'waiting_human', updated_at: now })
    await updateSession(tx.db, row.id, { status: 'waiting_human', updated_at: now })
    await appendMessage(tx, row, {
      sender: 'system',
      sender_id: null,
      content: QUEUED_TEXT,
      metadata: { waiting_id: w.id },
    })
    const stored = { ...w, target_skills: JSON.stringify(skills) }
    const info = await waitingInfo(tx.db, stored)
    await tx.emit(
      ConversationEvents.queueWaiting,
      {
        session_id: row.id,
        waiting_id: w.id,
        priority,
        reason: w.reason,
        target_skills: waitingSkills(stored),
        queued_at: now,
        ...info,
      },
      scope,
    )
    return {
      before,
      after: toSession(row, info),
      queued: true,
      result: result(row, {
        is_waiting: true,
        waiting_id: w.id,
        queued_at: now,
        queue_position: info.position,
        estimated_wait_seconds: info.estimated_wait_seconds,
        summary: SUMMARIES.queued,
      }),
    }
  })
  // An agent may have freed up between the ranking and the commit: a pass settles it now, not at the timer.
  if (change.queued) kickQueue(svc, scopeOfSession(change.after))
  return change
}

/**
 * To a named agent (record or user id): online and under capacity, else 409 naming why; unknown or of another
 * workspace → 400 naming `target_agent_id` (references.ts). A waiting session leaves the queue; the agent who had it
 * frees a seat, so the queue runs.
 */
export async function toAgent(svc: ConversationsService, caller: Caller, body: ToAgentBody): Promise<TransferChange> {
  const scope = await sessionScope(svc, caller, body.session_id)
  const target = await agentReference(svc, scope, body.target_agent_id, 'target_agent_id')
  const change = await svc.transaction(caller, async (tx): Promise<TransferChange> => {
    const row = await lockSession(tx, body.session_id)
    if (row.status === 'closed') throw new ConversationErrors.SessionClosed(row.id)
    const before = toSession(row)
    const summary = handoverSummary(row)
    const r = await assignAgent(tx, row, target, {
      kind: 'to_agent',
      ...(body.reason ? { reason: body.reason } : {}),
      summary,
    })
    if (r.unchanged) {
      return {
        before,
        after: before,
        result: result(row, { new_agent_id: row.agent_id, summary: SUMMARIES.alreadyAssigned }),
      }
    }
    const w = await findWaitingForUpdate(tx, row.id)
    if (w) await leaveQueue(tx, row, w, target, r.transfer.transferred_at)
    return {
      before,
      after: toSession(row),
      result: result(row, {
        new_agent_id: target,
        transferred_at: r.transfer.transferred_at,
        summary,
      }),
    }
  })
  if (change.before.agent_id && change.before.agent_id !== change.after.agent_id) {
    kickQueue(svc, scopeOfSession(change.after))
  }
  return change
}

/**
 * Leaves the queue (idempotent): the waiting record cancelled, the session active again without an agent (the AI
 * answers), a system message and `conversations.queue.cancelled`. Not waiting → `cancelled: false`, no change.
 */
export async function cancelWaiting(
  svc: ConversationsService,
  caller: Caller,
  sessionId: string,
  reason = 'cancelled',
): Promise<{ session_id: string; cancelled: boolean; before: Session; after: Session }> {
  return svc.transaction(caller, async (tx) => {
    const row = await lockSession(tx, sessionId)
    const before = toSession(row)
    const w = await findWaitingForUpdate(tx, row.id)
    if (!w) return { session_id: row.id, cancelled: false, before, after: before }
    const now = nowIso()
    await markCancelled(tx.db, w.id, reason, now)
    if (row.status === 'waiting_human') {
      Object.assign(row, { status: 'active', updated_at: now })
      await updateSession(tx.db, row.id, { status: 'active', updated_at: now })
    }
    await appendMessage(tx, row, {
      sender: 'system',
      sender_id: null,
      content: cancelledText(reason),
      metadata: { waiting_id: w.id, reason },
    })
    await tx.emit(
      ConversationEvents.queueCancelled,
      { session_id: row.id, waiting_id: w.id, reason },
      scopeOfSession(row),
    )
    await announceQueue(tx, scopeOfSession(row))
    return { session_id: row.id, cancelled: true, before, after: toSession(row) }
  })
}
