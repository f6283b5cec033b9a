import { ConversationEvents } from '@switchboard/contracts'
import { NO_SCOPE, nowIso, type Scope, type ServiceContext, systemCaller, type Tx } from '@switchboard/platform'
import type { ConversationsConfig } from '../config.ts'
import type { ConversationsService } from '../context.ts'
import { onlineAgentsWithLoad } from '../db/agents.repository.ts'
import type { ConversationsDatabase } from '../db/database.ts'
import type { SessionRow } from '../db/sessions.repository.ts'
import { onShiftNow } from '../db/shift-queries.repository.ts'
import {
  claimNextWaiting,
  countWaiting,
  lockQueuedSession,
  markCancelled,
  markTransferred,
  type WaitingRow,
  waitingScopes,
} from '../db/waiting.repository.ts'
import { handoverSummary } from '../domain/auto-transfer.ts'
import { waitedSeconds } from '../domain/queue-estimate.ts'
import { type RoutingNeed, rankAgents } from '../domain/routing-score.ts'
import { scopeOfSession } from '../domain/session-facts.ts'
import { assignAgent } from './assign-agent.ts'
import { waitingRecords, waitingSkills } from './queue-info.ts'
import type { KickCondition } from './queue-kicks.ts'

type Db = Tx<ConversationsDatabase>['db'] | ConversationsService['db']
type ConvTx = Tx<ConversationsDatabase>
/** What a pass needs of the service: its base context (a pass is built into the context, commands/queue-kicks.ts). */
type QueueService = ServiceContext<ConversationsConfig, ConversationsDatabase>

/** The available agents of a scope, best first, as routing ranks them now (README "Routing"). */
export async function rankedAgents(db: Db, scope: Scope, need: RoutingNeed) {
  const agents = await onlineAgentsWithLoad(db, scope)
  if (agents.length === 0) return []
  return rankAgents(agents, need, await onShiftNow(db, scope, nowIso()))
}

/** The refusals of `assignAgent` that mean "this agent, not now": the queue tries again, to-human queues. */
export const isAgentRefusal = (err: unknown) =>
  ['CONVERSATIONS_AGENT_OFFLINE', 'CONVERSATIONS_AGENT_AT_CAPACITY', 'CONVERSATIONS_AGENT_NOT_FOUND'].includes(
    (err as { code?: string } | null)?.code ?? '',
  )

/** how many of a queue's first places are told their new place when it moves (the rest hear it once they are in) */
const ANNOUNCED_PLACES = 100

/**
 * Someone left the scope's queue (handed to an agent, cancelled, closed): every session still waiting is told its
 * place and estimate again (`conversations.queue.waiting`, as when it joined), so a waiting customer sees the queue
 * move (the hub's `waiting_notification`). In the caller's transaction, after the record left.
 */
export async function announceQueue(tx: ConvTx, scope: Scope) {
  for (const w of await waitingRecords(tx.db, scope, 'waiting', ANNOUNCED_PLACES)) {
    await tx.emit(
      ConversationEvents.queueWaiting,
      {
        session_id: w.session_id,
        waiting_id: w.id,
        priority: w.priority,
        reason: w.reason,
        target_skills: w.target_skills,
        queued_at: w.queued_at,
        position: w.queue_position ?? 1,
        estimated_wait_seconds: w.estimated_wait_seconds,
      },
      scope,
    )
  }
}

/** A waiting record leaves the queue to `agentId`: marked transferred, `conversations.queue.assigned`. */
export async function leaveQueue(
  tx: ConvTx,
  session: SessionRow,
  w: WaitingRow,
  agentId: string,
  now: string,
  opts: { announce?: boolean } = {},
) {
  await markTransferred(tx.db, w.id, agentId, now)
  await tx.emit(
    ConversationEvents.queueAssigned,
    {
      session_id: session.id,
      waiting_id: w.id,
      priority: w.priority,
      reason: w.reason,
      target_skills: waitingSkills(w),
      queued_at: w.queued_at,
      agent_id: agentId,
      waited_seconds: waitedSeconds(w.queued_at, now),
    },
    scopeOfSession(session),
  )
  if (opts.announce !== false) await announceQueue(tx, scopeOfSession(session))
}

type Step =
  | { kind: 'empty' | 'no_agent' | 'settled' | 'assigned' }
  | { kind: 'busy'; waiting_id: string }
  | { kind: 'conflict' }

/**
 * One waiting record, in the caller's transaction: claimed (SKIP LOCKED), its session locked (or passed over if
 * busy), then the best agent now through `assignAgent`, which locks the agent's row and re-checks online and
 * capacity. One agent per transaction: holding one agent's lock while waiting for another's could deadlock two
 * replicas, so a refusal rolls the record back and the next step ranks afresh.
 */
async function serveNext(tx: ConvTx, scope: Scope, skip: string[]): Promise<Step> {
  const w = await claimNextWaiting(tx, scope, skip)
  if (!w) return { kind: 'empty' }
  const session = await lockQueuedSession(tx, w.session_id)
  if (!session) return { kind: 'busy', waiting_id: w.id }
  const now = nowIso()
  // A record whose session moved on without it (closed, or taken some other way) is settled, not routed.
  if (session.status === 'closed') {
    await markCancelled(tx.db, w.id, 'session_closed', now)
    await tx.emit(
      ConversationEvents.queueCancelled,
      { session_id: session.id, waiting_id: w.id, reason: 'session_closed' },
      scope,
    )
    return { kind: 'settled' }
  }
  if (session.agent_id) {
    await leaveQueue(tx, session, w, session.agent_id, now, { announce: false })
    return { kind: 'settled' }
  }
  const [best] = await rankedAgents(tx.db, scope, { skills: waitingSkills(w), priority: w.priority })
  if (!best) return { kind: 'no_agent' }
  const { transfer } = await assignAgent(tx, session, best.user_id, {
    kind: 'queue',
    reason: w.reason,
    notes: w.notes,
    summary: handoverSummary(session),
  })
  await leaveQueue(tx, session, w, best.user_id, transfer.transferred_at, { announce: false })
  return { kind: 'assigned' }
}

class Conflict extends Error {}

/** Up to `queue.batch` records of one scope, oldest first within priority, each in its own transaction. */
async function serveScope(svc: QueueService, scope: Scope, signal?: AbortSignal): Promise<number> {
  const skip: string[] = []
  let assigned = 0
  let moved = 0
  let steps = 0
  let conflicts = 0
  const batch = svc.config.queue.batch
  while (steps < batch && conflicts <= batch && !signal?.aborted) {
    let claimed: string | undefined
    let step: Step
    try {
      step = await svc.transaction(systemCaller(scope), async (tx) => {
        const s = await serveNext(tx, scope, skip).catch((err) => {
          // rolled back with the transaction; another replica just took that agent's last seat
          if (isAgentRefusal(err)) throw new Conflict()
          throw err
        })
        if (s.kind === 'busy') claimed = s.waiting_id
        return s
      })
    } catch (err) {
      if (!(err instanceof Conflict)) throw err
      step = { kind: 'conflict' }
    }
    if (step.kind === 'empty' || step.kind === 'no_agent') break
    if (step.kind === 'conflict') {
      conflicts++
      continue
    }
    if (claimed) skip.push(claimed)
    if (step.kind === 'assigned') assigned++
    if (step.kind === 'assigned' || step.kind === 'settled') moved++
    steps++
  }
  // Those still waiting hear their new place once per pass, not once per record that left: a pass serving 300
  // records re-announced the first 100 places 300 times (30,000 events in the passes' transactions).
  if (moved > 0) await svc.transaction(systemCaller(scope), (tx) => announceQueue(tx, scope))
  return assigned
}

export interface QueuePass {
  assigned: number
  /** records still waiting within the filter after the pass */
  remaining: number
}

/**
 * A pass over the waiting queue of every scope within `filter` (a concrete scope, or an admin's partial or empty
 * one). Safe on any number of replicas at once: the database referees (README "The database is the referee").
 * A record that fails unexpectedly stops its scope's pass (logged); the others keep what they committed.
 */
export async function processQueue(
  svc: QueueService,
  filter: Scope = NO_SCOPE,
  opts: { signal?: AbortSignal } = {},
): Promise<QueuePass> {
  const scopes = filter.tenant_id && filter.workspace_id ? [filter] : await waitingScopes(svc.db, filter)
  let assigned = 0
  for (const scope of scopes) {
    if (opts.signal?.aborted) break
    try {
      assigned += await serveScope(svc, scope, opts.signal)
    } catch (err) {
      svc.log.error({ err, ...scope }, 'waiting queue pass failed for a scope')
    }
  }
  return { assigned, remaining: await countWaiting(svc.db, filter) }
}

/**
 * A queue pass for `scope` soon, in the background, after a commit that added a waiting session or freed an
 * agent (a close, a transfer, an agent coming online). `when`: the pass starts only once it answers true (a
 * change committed by someone who cannot call after its commit). Never throws; the timer pass covers failures.
 * The app's own kicks (commands/queue-kicks.ts): outside the request, closed with the app.
 */
export function kickQueue(svc: Pick<ConversationsService, 'queueKicks'>, scope: Scope, when?: KickCondition): void {
  svc.queueKicks.kick(scope, when)
}

/** Resolves when no kicked pass of this app is running or about to (tests). */
export const queueSettled = (svc: Pick<ConversationsService, 'queueKicks'>) => svc.queueKicks.settled()
