import { fromJson, type PageWindow, type Scope, selectPage, toJson, whereScope } from '@switchboard/platform'
import { type Selectable, sql } from 'kysely'
import type { AgentsTable } from './database.ts'
import type { Db } from './users.repository.ts'

export type AgentRow = Selectable<AgentsTable>

export const AGENT_STATUSES = ['online', 'busy', 'away', 'offline'] as const
export type AgentStatus = (typeof AGENT_STATUSES)[number]

/** How many conversations an agent takes at once when nobody said. */
export const DEFAULT_MAX_CONCURRENT = 5

export interface NewAgent {
  id: string
  user_id: string
  tenant_id: string
  workspace_id: string
  name: string
  department: string
  skills: string[]
  max_concurrent: number
  now: string
}

export function insertAgent(db: Db, a: NewAgent): Promise<AgentRow> {
  return db
    .insertInto('agents')
    .values({
      id: a.id,
      user_id: a.user_id,
      tenant_id: a.tenant_id,
      workspace_id: a.workspace_id,
      name: a.name,
      department: a.department,
      skills: toJson(a.skills) ?? '[]',
      max_concurrent: a.max_concurrent,
      status: 'offline',
      rating: 0,
      avg_response_time: 0,
      created_at: a.now,
      updated_at: a.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** An agent inside the scope, or undefined: another tenant's agent is indistinguishable from none. */
export function findAgentInScope(db: Db, id: string, scope: Scope): Promise<AgentRow | undefined> {
  return whereScope(db.selectFrom('agents').selectAll().where('id', '=', id), scope).executeTakeFirst()
}

export function findAgentByUserInScope(db: Db, userId: string, scope: Scope): Promise<AgentRow | undefined> {
  return whereScope(db.selectFrom('agents').selectAll().where('user_id', '=', userId), scope).executeTakeFirst()
}

export interface AgentFilter {
  status?: string | undefined
  department?: string | undefined
}

function filtered(db: Db, scope: Scope, f: AgentFilter) {
  let q = whereScope(db.selectFrom('agents'), scope)
  if (f.status) q = q.where('status', '=', f.status)
  if (f.department) q = q.where('department', '=', f.department)
  return q
}

export function listAgents(db: Db, scope: Scope, f: AgentFilter, window: PageWindow) {
  return selectPage(filtered(db, scope, f), window, (q) => q.selectAll().orderBy('created_at').orderBy('id'))
}

/** Agents present in the scope (not offline), for routing views; bounded: one workspace's staff. */
export function listPresentAgents(db: Db, scope: Scope, limit = 500): Promise<AgentRow[]> {
  return whereScope(db.selectFrom('agents').selectAll(), scope)
    .where('status', '!=', 'offline')
    .orderBy('name')
    .orderBy('id')
    .limit(limit)
    .execute()
}

/** Counts and averages over the scope's agents (or one of them). */
export async function agentStats(db: Db, scope: Scope, agentId?: string) {
  let q = whereScope(db.selectFrom('agents'), scope)
  if (agentId) q = q.where('id', '=', agentId)
  const row = await q
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('status', '=', 'online').then(1).else(0).end()).as('online'),
      eb.fn.sum<number>(eb.case().when('status', '=', 'busy').then(1).else(0).end()).as('busy'),
      eb.fn.avg<number>('avg_response_time').as('avg_response_time'),
      eb.fn.avg<number>('rating').as('avg_rating'),
    ])
    .executeTakeFirstOrThrow()
  // PostgreSQL answers sums and averages as numeric strings, SQLite as numbers; both as null over no rows.
  const n = (v: unknown) => Number(v ?? 0)
  return {
    total: n(row.total),
    online: n(row.online),
    busy: n(row.busy),
    avg_response_time: n(row.avg_response_time),
    avg_rating: n(row.avg_rating),
  }
}

export function setAgentStatus(db: Db, id: string, status: AgentStatus, now: string): Promise<AgentRow | undefined> {
  return db
    .updateTable('agents')
    .set({ status, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

export interface AgentPatch {
  name?: string | undefined
  department?: string | undefined
  skills?: string[] | undefined
  max_concurrent?: number | undefined
}

export function updateAgent(db: Db, id: string, p: AgentPatch, now: string): Promise<AgentRow | undefined> {
  return db
    .updateTable('agents')
    .set({
      ...(p.name === undefined ? {} : { name: p.name }),
      ...(p.department === undefined ? {} : { department: p.department }),
      ...(p.skills === undefined ? {} : { skills: toJson(p.skills) ?? '[]' }),
      ...(p.max_concurrent === undefined ? {} : { max_concurrent: p.max_concurrent }),
      updated_at: now,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

/** The agent as the API and its events show it. */
export function agentView(a: AgentRow) {
  return {
    id: a.id,
    user_id: a.user_id,
    tenant_id: a.tenant_id,
    workspace_id: a.workspace_id,
    name: a.name,
    department: a.department,
    skills: fromJson<string[]>(a.skills, []),
    max_concurrent: Number(a.max_concurrent),
    status: a.status,
    rating: Number(a.rating),
    avg_response_time: Number(a.avg_response_time),
    created_at: a.created_at,
    updated_at: a.updated_at,
  }
}
export type AgentView = ReturnType<typeof agentView>

/**
 * Moves an agent's rating by one rating added (`count` 1), removed (`count` -1) or changed (`count` 0, `sum` the
 * difference): the running sum and count and their average in one statement, so concurrent ratings never lose
 * one. The agent is the ticket's, by user id, inside the scope; undefined when there is none.
 */
export function applyRatingDelta(
  db: Db,
  scope: Scope,
  userId: string,
  delta: { sum: number; count: number },
  now: string,
): Promise<AgentRow | undefined> {
  const sum = sql<number>`(rating_sum + ${delta.sum})`
  const count = sql<number>`(rating_count + ${delta.count})`
  return whereScope(
    db
      .updateTable('agents')
      .set({
        rating_sum: sum,
        rating_count: count,
        rating: sql<number>`case when ${count} > 0 then cast(${sum} as real) / ${count} else 0 end`,
        updated_at: now,
      })
      .where('user_id', '=', userId),
    scope,
  )
    .returningAll()
    .executeTakeFirst()
}
