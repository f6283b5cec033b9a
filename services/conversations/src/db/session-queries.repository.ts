import { type Scope, whereScope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import { WAITING_STATUS, WORKING_STATUSES } from '../domain/session-rules.ts'
import type { ChannelStatusCount } from '../domain/workspace-overview.ts'
import type { ConversationsDatabase } from './database.ts'
import type { SessionRow } from './sessions.repository.ts'

// Queries of the sessions/messages API and the workspace overview, beside the shared repositories
// (sessions.repository.ts and friends are shared by the whole service; these are this API's own).

type Db = Kysely<ConversationsDatabase>

/**
 * Inserts a session unless one with its id exists; true when this call wrote it. Two first messages for one new
 * id (two hub replicas, a retry) then resolve to one session: the loser reads the winner's row.
 */
export async function insertSessionIfAbsent(db: Db, row: SessionRow): Promise<boolean> {
  const result = await db
    .insertInto('sessions')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0
}

/** Open sessions of a scope counted per channel and status (closed ones are history, not the overview). */
export async function openSessionCounts(db: Db, scope: Scope): Promise<ChannelStatusCount[]> {
  const rows = await whereScope(
    db
      .selectFrom('sessions')
      .select(['channel', 'status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('status', 'in', [...WORKING_STATUSES, WAITING_STATUS]),
    scope,
  )
    .groupBy(['channel', 'status'])
    .execute()
  return rows.map((r) => ({ channel: r.channel, status: r.status, n: Number(r.n) }))
}

/** Signed-in agents of a scope with their load (open sessions assigned to them, counted from this service's rows). */
export async function presentAgents(db: Db, scope: Scope) {
  const rows = await whereScope(
    db
      .selectFrom('agents')
      .select(['agents.status', 'agents.max_concurrent'])
      .select((eb) =>
        eb
          .selectFrom('sessions')
          .select((s) => s.fn.countAll<number>().as('n'))
          .whereRef('sessions.agent_id', '=', 'agents.user_id')
          .whereRef('sessions.tenant_id', '=', 'agents.tenant_id')
          .whereRef('sessions.workspace_id', '=', 'agents.workspace_id')
          .where('sessions.status', 'in', [...WORKING_STATUSES])
          .as('load'),
      )
      .where('agents.status', 'in', ['online', 'busy']),
    scope,
    'agents',
  ).execute()
  return rows.map((r) => ({ status: r.status, max_concurrent: Number(r.max_concurrent), load: Number(r.load ?? 0) }))
}

/** The latest sessions of a scope, newest first. */
export async function recentSessions(db: Db, scope: Scope, limit: number): Promise<SessionRow[]> {
  return whereScope(db.selectFrom('sessions').selectAll(), scope)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
}
