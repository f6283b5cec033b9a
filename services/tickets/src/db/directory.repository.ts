import { type Scope, type Tx, whereScope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import { LOAD_STATUSES } from '../domain/auto-assign.ts'
import type { TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

// Before any event: a row made by a status change that arrived before its agent's record is older than any record.
const NEVER = '1970-01-01T00:00:00.000Z'

export interface DirectoryCustomer {
  customer_id: string
  user_id: string
  name: string
}

export interface DirectoryAgent {
  agent_id: string
  user_id: string
  name: string
  status: string
  max_concurrent: number
}

/**
 * Applies `identity.customer.upserted` (`at` = the event's time) unless a newer event already did: a redelivered
 * older event must not undo a newer one. Without a scope (an event identity sent without one) only a customer
 * already known is updated, since nothing says which workspace a new one belongs to.
 */
export async function upsertCustomer(db: Db, c: DirectoryCustomer, scope: Scope | null, at: string): Promise<void> {
  if (!scope) {
    await db
      .updateTable('directory_customers')
      .set({ user_id: c.user_id, name: c.name, event_at: at })
      .where('customer_id', '=', c.customer_id)
      .where('event_at', '<=', at)
      .execute()
    return
  }
  const row = { ...c, tenant_id: scope.tenant_id, workspace_id: scope.workspace_id, event_at: at }
  await db
    .insertInto('directory_customers')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('customer_id')
        .doUpdateSet({ user_id: c.user_id, name: c.name, ...scope, event_at: at })
        .where('directory_customers.event_at', '<=', at),
    )
    .execute()
}

/** A customer of exactly this scope, named by its record id or its user id. */
export function findCustomer(db: Db, ref: string, scope: Scope): Promise<DirectoryCustomer | undefined> {
  return whereScope(
    db
      .selectFrom('directory_customers')
      .select(['customer_id', 'user_id', 'name'])
      .where((eb) => eb.or([eb('customer_id', '=', ref), eb('user_id', '=', ref)])),
    scope,
  ).executeTakeFirst()
}

/**
 * Applies `identity.agent.upserted`: the record's fields, and its status if no newer status change came first.
 * Without a scope, only an agent already known is updated (as for customers).
 */
export async function upsertAgent(db: Db, a: DirectoryAgent, scope: Scope | null, at: string): Promise<void> {
  if (scope) {
    const inserted = await db
      .insertInto('directory_agents')
      .values({ ...a, ...scope, record_at: at, status_at: at })
      .onConflict((oc) => oc.column('agent_id').doNothing())
      .executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return
  }
  await db
    .updateTable('directory_agents')
    .set({ user_id: a.user_id, name: a.name, max_concurrent: a.max_concurrent, ...(scope ?? {}), record_at: at })
    .where('agent_id', '=', a.agent_id)
    .where('record_at', '<=', at)
    .execute()
  await setAgentStatus(db, a.agent_id, a.status, at)
}

/**
 * Applies `identity.agent.status_changed`. An agent whose record has not arrived yet gets a placeholder row (no
 * capacity, so auto-assignment passes it over) that its record fills in; without a scope, only a known agent changes.
 */
export async function applyAgentStatus(
  db: Db,
  a: { agent_id: string; user_id: string; status: string },
  scope: Scope | null,
  at: string,
): Promise<void> {
  if (scope) {
    await db
      .insertInto('directory_agents')
      .values({ ...a, ...scope, name: '', max_concurrent: 0, record_at: NEVER, status_at: at })
      .onConflict((oc) => oc.column('agent_id').doNothing())
      .execute()
  }
  await setAgentStatus(db, a.agent_id, a.status, at)
}

async function setAgentStatus(db: Db, agentId: string, status: string, at: string): Promise<void> {
  await db
    .updateTable('directory_agents')
    .set({ status, status_at: at })
    .where('agent_id', '=', agentId)
    .where('status_at', '<=', at)
    .execute()
}

/** An agent of exactly this scope, named by its record id or its user id. */
export function findAgent(db: Db, ref: string, scope: Scope): Promise<DirectoryAgent | undefined> {
  return whereScope(
    db
      .selectFrom('directory_agents')
      .select(['agent_id', 'user_id', 'name', 'status', 'max_concurrent'])
      .where((eb) => eb.or([eb('agent_id', '=', ref), eb('user_id', '=', ref)])),
    scope,
  ).executeTakeFirst()
}

/** A scope's agents, each with its load: its tickets in a status that still needs work. */
export async function agentsWithLoad(db: Db, scope: Scope): Promise<Array<DirectoryAgent & { load: number }>> {
  const rows = await whereScope(
    db
      .selectFrom('directory_agents as a')
      .select(['a.agent_id', 'a.user_id', 'a.name', 'a.status', 'a.max_concurrent'])
      .select((eb) =>
        eb
          .selectFrom('tickets as t')
          .select((s) => s.fn.countAll<number>().as('n'))
          .whereRef('t.agent_id', '=', 'a.user_id')
          .whereRef('t.tenant_id', '=', 'a.tenant_id')
          .whereRef('t.workspace_id', '=', 'a.workspace_id')
          .where('t.status', 'in', [...LOAD_STATUSES])
          .as('load'),
      )
      .where('a.status', '=', 'online'),
    scope,
    'a',
  ).execute()
  return rows.map((r) => ({ ...r, max_concurrent: Number(r.max_concurrent), load: Number(r.load ?? 0) }))
}

/**
 * Locks these agents' rows until `tx` ends, always in agent id order so that two transactions locking overlapping
 * sets can't deadlock.
 */
export async function lockAgents(tx: Tx<TicketsDatabase>, agentIds: string[]): Promise<void> {
  if (agentIds.length === 0) return
  await tx
    .forUpdate(
      tx.db.selectFrom('directory_agents').select('agent_id').where('agent_id', 'in', agentIds).orderBy('agent_id'),
    )
    .execute()
}
