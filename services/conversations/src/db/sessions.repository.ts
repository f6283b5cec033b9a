import { type PageWindow, type Scope, selectPage, type Tx, whereScope } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import { WORKING_STATUSES } from '../domain/session-rules.ts'
import type { Session } from '../schemas/sessions.schemas.ts'
import type { ConversationsDatabase, SessionsTable } from './database.ts'
import { prebuilt } from './prebuilt.ts'

type Db = Kysely<ConversationsDatabase>
export type SessionRow = Selectable<SessionsTable>

/** A row as the API shows it; the queue position is filled by whoever knows it (null otherwise). */
export function toSession(
  row: SessionRow,
  queue?: { position: number; estimated_wait_seconds: number | null },
): Session {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    workspace_id: row.workspace_id,
    status: row.status as Session['status'],
    channel: row.channel,
    subject: row.subject,
    customer_id: row.customer_id,
    visitor_id: row.visitor_id,
    agent_id: row.agent_id,
    ticket_id: row.ticket_id,
    priority: row.priority,
    message_count: Number(row.message_count),
    started_at: row.started_at,
    last_message_at: row.last_message_at,
    ended_at: row.ended_at,
    queue_position: queue?.position ?? null,
    estimated_wait_seconds: queue?.estimated_wait_seconds ?? null,
  }
}

export async function insertSession(db: Db, row: SessionRow): Promise<void> {
  await db.insertInto('sessions').values(row).execute()
}

const sessionById = (db: Db, id: string, scope: Scope) =>
  whereScope(db.selectFrom('sessions').selectAll().where('id', '=', id), scope)

/** Scoped: another tenant's session is not found, like a missing one. */
export async function findSessionRow(db: Db, id: string, scope: Scope): Promise<SessionRow | undefined> {
  return sessionById(db, id, scope).executeTakeFirst()
}

/** `findSessionRow`, its row locked until `tx` ends, so two changes can't both pass a check. */
export async function findSessionRowForUpdate(
  tx: Tx<ConversationsDatabase>,
  id: string,
  scope: Scope,
): Promise<SessionRow | undefined> {
  return tx.forUpdate(sessionById(tx.db, id, scope)).executeTakeFirst()
}

/**
 * One more message in the session of `scope`: its `message_count` raised (the new message's `seq`) and
 * `last_message_at`/`updated_at` set to `at`, the row returned as it now is and locked until `tx` ends — one
 * statement for what a locking read and an update did. Another tenant's session is not found, like a missing one.
 * A caller that then refuses the message throws, and the transaction takes the count back.
 */
export async function countMessageIn(
  tx: Tx<ConversationsDatabase>,
  id: string,
  scope: Scope,
  at: string,
): Promise<SessionRow | undefined> {
  const counting = tx.db
    .updateTable('sessions')
    .set((eb) => ({ message_count: eb('message_count', '+', 1), last_message_at: at, updated_at: at }))
    .where('id', '=', id)
  return whereScope(counting, scope).returningAll().executeTakeFirst()
}

const oneMoreMessage = prebuilt((db: Db, v: { id: string; at: string }) =>
  db
    .updateTable('sessions')
    .set((eb) => ({ message_count: eb('message_count', '+', 1), last_message_at: v.at, updated_at: v.at }))
    .where('id', '=', v.id)
    .returning('message_count'),
)

/**
 * One more message in session `id`, whose row the caller's transaction already holds (locked or inserted): its
 * `message_count` raised and `last_message_at`/`updated_at` set to `at`; the new count (the message's `seq`).
 * Built once per dialect (prebuilt.ts).
 */
export async function countMessage(db: Db, id: string, at: string): Promise<number> {
  const { rows } = await oneMoreMessage(db, { id, at })
  if (!rows[0]) throw new Error(`session ${id}: no row to count a message in`)
  return Number(rows[0].message_count)
}

export async function updateSession(db: Db, id: string, patch: Partial<SessionRow>): Promise<void> {
  await db.updateTable('sessions').set(patch).where('id', '=', id).execute()
}

export interface SessionFilters {
  status?: string
  agent_id?: string
  customer_id?: string
  channel?: string
}

/** Newest first, filtered within the scope. */
export async function listSessions(db: Db, scope: Scope, filters: SessionFilters, window: PageWindow) {
  let q = whereScope(db.selectFrom('sessions'), scope)
  if (filters.status) q = q.where('status', '=', filters.status)
  if (filters.agent_id) q = q.where('agent_id', '=', filters.agent_id)
  if (filters.customer_id) q = q.where('customer_id', '=', filters.customer_id)
  if (filters.channel) q = q.where('channel', '=', filters.channel)
  return selectPage(q, window, (qb) => qb.selectAll().orderBy('started_at', 'desc').orderBy('id', 'desc'))
}

/** Open sessions assigned to an agent: its load, counted from this service's own rows. */
export async function agentLoad(db: Db, agentUserId: string, scope: Scope): Promise<number> {
  const row = await whereScope(
    db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('agent_id', '=', agentUserId)
      .where('status', 'in', [...WORKING_STATUSES]),
    scope,
  ).executeTakeFirstOrThrow()
  return Number(row.n)
}
