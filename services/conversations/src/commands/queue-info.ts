import { fromJson, type Scope, type Tx } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import type { ConversationsDatabase } from '../db/database.ts'
import { type SessionRow, toSession } from '../db/sessions.repository.ts'
import {
  countAhead,
  findWaiting,
  listWaiting,
  recentAssignments,
  type WaitingRow,
  type WaitingStatus,
} from '../db/waiting.repository.ts'
import { assignmentInterval, ESTIMATE_WINDOW_MS, estimatedWaitSeconds } from '../domain/queue-estimate.ts'
import type { Session } from '../schemas/sessions.schemas.ts'
import type { WaitingRecord } from '../schemas/transfer.schemas.ts'

// What a waiting customer (and whoever lists the queue) is told: position and estimated wait (README "Records";
// domain/queue-estimate.ts). Reads only; any route showing a session calls `queueInfo`.

type Db = Tx<ConversationsDatabase>['db'] | ConversationsService['db']

/** What a waiting customer is told: 1 = next, and the estimate (null while the scope's rate is unknown). */
export interface QueueInfo {
  position: number
  estimated_wait_seconds: number | null
}

export async function waitingInfo(db: Db, w: WaitingRow, now = new Date()): Promise<QueueInfo> {
  const position = (await countAhead(db, w)) + 1
  const since = new Date(now.getTime() - ESTIMATE_WINDOW_MS).toISOString()
  const interval = assignmentInterval(await recentAssignments(db, w, since))
  return { position, estimated_wait_seconds: estimatedWaitSeconds(position, interval) }
}

/**
 * The queue position and estimated wait of a session, for wherever a session is shown:
 * `toSession(row, await queueInfo(db, row))`. Undefined unless it waits for a human.
 */
export async function queueInfo(db: Db, session: SessionRow): Promise<QueueInfo | undefined> {
  if (session.status !== 'waiting_human') return undefined
  const w = await findWaiting(db, session.id)
  return w ? waitingInfo(db, w) : undefined
}

/** A session as the API shows it: with its queue position and estimated wait while it waits for a human. */
export async function sessionView(db: Db, row: SessionRow): Promise<Session> {
  return toSession(row, await queueInfo(db, row))
}

export const waitingSkills = (w: WaitingRow) => fromJson<string[]>(w.target_skills, [])

/**
 * `GET /waiting`: the records of a status; `waiting` ones in the queue's order with their position (counted per
 * workspace, so an unscoped admin's list numbers each queue on its own) and estimate (one rate query per scope).
 */
export async function waitingRecords(
  db: Db,
  scope: Scope,
  status: WaitingStatus,
  limit: number,
): Promise<WaitingRecord[]> {
  const rows = await listWaiting(db, scope, status, limit)
  const now = new Date()
  const since = new Date(now.getTime() - ESTIMATE_WINDOW_MS).toISOString()
  const queues = new Map<string, { seen: number; interval: number | null }>()
  const out: WaitingRecord[] = []
  for (const w of rows) {
    let info: QueueInfo | undefined
    if (status === 'waiting') {
      const key = `${w.tenant_id}\u0000${w.workspace_id}`
      let q = queues.get(key)
      if (!q) {
        q = { seen: 0, interval: assignmentInterval(await recentAssignments(db, w, since)) }
        queues.set(key, q)
      }
      q.seen++
      info = { position: q.seen, estimated_wait_seconds: estimatedWaitSeconds(q.seen, q.interval) }
    }
    out.push({
      ...w,
      status: w.status as WaitingStatus,
      target_skills: waitingSkills(w),
      queue_position: info?.position ?? null,
      estimated_wait_seconds: info?.estimated_wait_seconds ?? null,
    })
  }
  return out
}
