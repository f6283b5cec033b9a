import { type Scope, type Tx, toJson, whereScope } from '@switchboard/platform'
import { type Kysely, type Selectable, sql } from 'kysely'
import type { RecentAssignments } from '../domain/queue-estimate.ts'
import type { ConversationsDatabase, WaitingTable } from './database.ts'
import type { SessionRow } from './sessions.repository.ts'

// The waiting queue's rows: one `waiting` record per session at most (partial unique index), served by
// `priority_rank desc, queued_at asc, id asc` within a scope.

type Db = Kysely<ConversationsDatabase>
export type WaitingRow = Selectable<WaitingTable>
export type WaitingStatus = 'waiting' | 'transferred' | 'cancelled'

export async function insertWaiting(db: Db, row: Omit<WaitingRow, 'target_skills'> & { target_skills: string[] }) {
  await db
    .insertInto('waiting')
    .values({ ...row, target_skills: toJson(row.target_skills) ?? '[]' })
    .execute()
}

const waitingOf = (db: Db, sessionId: string) =>
  db.selectFrom('waiting').selectAll().where('session_id', '=', sessionId).where('status', '=', 'waiting')

/** The session's `waiting` record, if any. */
export async function findWaiting(db: Db, sessionId: string) {
  return waitingOf(db, sessionId).executeTakeFirst()
}

/** `findWaiting`, the record locked with the session's transaction `tx`. */
export async function findWaitingForUpdate(tx: Tx<ConversationsDatabase>, sessionId: string) {
  return tx.forUpdate(waitingOf(tx.db, sessionId)).executeTakeFirst()
}

/**
 * The next record of the scope the queue should serve, locked; a record another replica is serving is passed over
 * instead of waited for (`tx.skipLocked`), so replicas work through the queue side by side. `skip`: records this
 * pass already gave up on (their session was busy).
 */
export async function claimNextWaiting(
  tx: Tx<ConversationsDatabase>,
  scope: Scope,
  skip: readonly string[],
): Promise<WaitingRow | undefined> {
  let q = whereScope(tx.db.selectFrom('waiting').selectAll().where('status', '=', 'waiting'), scope)
  if (skip.length > 0) q = q.where('id', 'not in', [...skip])
  q = q.orderBy('priority_rank', 'desc').orderBy('queued_at').orderBy('id').limit(1)
  return tx.skipLocked(q).executeTakeFirst()
}

/**
 * The session of a claimed record, locked, or undefined when another transaction holds it: the queue never waits
 * for a session lock while it holds a waiting record, since a close or a hand-over takes the two the other way round.
 */
export async function lockQueuedSession(
  tx: Tx<ConversationsDatabase>,
  sessionId: string,
): Promise<SessionRow | undefined> {
  return tx.skipLocked(tx.db.selectFrom('sessions').selectAll().where('id', '=', sessionId)).executeTakeFirst()
}

export async function markTransferred(db: Db, id: string, agentUserId: string, now: string): Promise<void> {
  await db
    .updateTable('waiting')
    .set({ status: 'transferred', assigned_at: now, assigned_to: agentUserId })
    .where('id', '=', id)
    .execute()
}

export async function markCancelled(db: Db, id: string, reason: string, now: string): Promise<void> {
  await db
    .updateTable('waiting')
    .set({ status: 'cancelled', cancelled_at: now, cancel_reason: reason })
    .where('id', '=', id)
    .execute()
}

/** Waiting records of the record's scope served before it: higher priority, or as high and queued earlier. */
export async function countAhead(
  db: Db,
  w: Pick<WaitingRow, 'id' | 'tenant_id' | 'workspace_id' | 'priority_rank' | 'queued_at'>,
): Promise<number> {
  const row = await db
    .selectFrom('waiting')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'waiting')
    .where('tenant_id', '=', w.tenant_id)
    .where('workspace_id', '=', w.workspace_id)
    .where('id', '!=', w.id)
    .where((eb) =>
      eb.or([
        eb('priority_rank', '>', w.priority_rank),
        eb.and([eb('priority_rank', '=', w.priority_rank), eb('queued_at', '<', w.queued_at)]),
        eb.and([eb('priority_rank', '=', w.priority_rank), eb('queued_at', '=', w.queued_at), eb('id', '<', w.id)]),
      ]),
    )
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Whether a session of this priority arriving now would have anyone of the scope ahead of it. */
export async function anyWaitingAtOrAbove(db: Db, scope: Scope, rank: number): Promise<boolean> {
  const row = await db
    .selectFrom('waiting')
    .select('id')
    .where('status', '=', 'waiting')
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .where('priority_rank', '>=', rank)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** The scope's hand-overs to a human since `since` (the queue's and to-human's): the estimate's rate. */
export async function recentAssignments(db: Db, scope: Scope, since: string): Promise<RecentAssignments> {
  const row = await db
    .selectFrom('transfers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .where('transferred_at', '>=', since)
    .where('kind', 'in', ['queue', 'to_human'])
    .executeTakeFirstOrThrow()
  return { count: Number(row.n) }
}

/** The scopes (within a filter; empty parts unrestricted) that have sessions waiting. */
export async function waitingScopes(db: Db, filter: Scope): Promise<Scope[]> {
  return whereScope(
    db.selectFrom('waiting').select(['tenant_id', 'workspace_id']).where('status', '=', 'waiting'),
    filter,
  )
    .distinct()
    .orderBy('tenant_id')
    .orderBy('workspace_id')
    .execute()
}

export async function countWaiting(db: Db, filter: Scope): Promise<number> {
  const row = await whereScope(
    db
      .selectFrom('waiting')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'waiting'),
    filter,
  ).executeTakeFirstOrThrow()
  return Number(row.n)
}

/** `waiting` in the queue's order (so positions follow from it); the others newest first. */
export async function listWaiting(db: Db, scope: Scope, status: WaitingStatus, limit: number): Promise<WaitingRow[]> {
  let q = whereScope(db.selectFrom('waiting').selectAll().where('status', '=', status), scope)
  q =
    status === 'waiting'
      ? q.orderBy('priority_rank', 'desc').orderBy('queued_at').orderBy('id')
      : q.orderBy('queued_at', 'desc').orderBy('id', 'desc')
  return q.limit(limit).execute()
}

/**
 * The queue positions (1 = next; `countAhead`'s order: priority, then arrival, then id) of some waiting sessions of
 * one scope, numbered in one pass over the scope's queue (the inbox's page of waiting sessions).
 */
export async function queuePositionsOf(
  db: Db,
  scope: Scope,
  sessionIds: readonly string[],
): Promise<Array<{ session_id: string; position: number }>> {
  if (sessionIds.length === 0) return []
  const numbered = db
    .selectFrom('waiting')
    .select(['session_id', sql<number>`row_number() over (order by priority_rank desc, queued_at, id)`.as('position')])
    .where('status', '=', 'waiting')
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
  const rows = await db
    .selectFrom(numbered.as('q'))
    .select(['q.session_id', 'q.position'])
    .where('q.session_id', 'in', [...sessionIds])
    .execute()
  return rows.map((r) => ({ session_id: r.session_id, position: Number(r.position) }))
}
