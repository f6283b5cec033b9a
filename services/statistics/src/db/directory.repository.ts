import { incomingIsNewer, type Scope, storedIsOlder, type Version } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import { apply, type Share } from './aggregates.repository.ts'
import type { AgentsTable, CustomersTable, StatisticsDatabase } from './database.ts'
import type { StatsTx } from './unit-of-work.ts'

type Db = Kysely<StatisticsDatabase>

/**
 * total_customers' aggregates depend on a user's role and on its customer records together: a transaction that
 * changes either takes this lock on the user first (PostgreSQL; SQLite has one writer), so that what it reads of
 * the other is what the other's committed transaction left (each statement reads anew under READ COMMITTED).
 */
const lockUser = (tx: StatsTx, user_id: string) => tx.advisoryLock(`statistics-user:${user_id}`)

const roleOf = async (db: Db, user_id: string) =>
  (await db.selectFrom('users').select('role').where('user_id', '=', user_id).executeTakeFirst())?.role

/** Does the user count in the scope's total_customers: role customer, and a customer record there. */
async function countsIn(db: Db, user_id: string, scope: Scope): Promise<boolean> {
  if ((await roleOf(db, user_id)) !== 'customer') return false
  const record = await db
    .selectFrom('customers')
    .select('customer_id')
    .where('user_id', '=', user_id)
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .executeTakeFirst()
  return record !== undefined
}

/**
 * A user's role, newest event wins (registered and role_changed both carry it). Users by role move with it, and,
 * when it becomes or stops being `customer`, total_customers of every scope where the user has a record.
 */
export async function upsertUserRole(tx: StatsTx, user_id: string, role: string, v: Version): Promise<void> {
  const { db } = tx
  await lockUser(tx, user_id)
  const before = await roleOf(db, user_id)
  await writeUserRole(db, user_id, role, v)
  const after = await roleOf(db, user_id)
  if (before === after) return
  const shares: Share[] = []
  if (before !== undefined) shares.push({ table: 'user_role_counts', key: { role: before }, add: { count: -1 } })
  if (after !== undefined) shares.push({ table: 'user_role_counts', key: { role: after }, add: { count: 1 } })
  if ((before === 'customer') !== (after === 'customer')) {
    const scopes = await db
      .selectFrom('customers')
      .select(['tenant_id', 'workspace_id'])
      .distinct()
      .where('user_id', '=', user_id)
      .execute()
    for (const s of scopes) {
      const key = { tenant_id: s.tenant_id, workspace_id: s.workspace_id }
      shares.push({ table: 'customer_counts', key, add: { customers: after === 'customer' ? 1 : -1 } })
    }
  }
  apply(tx.work, shares)
}

async function writeUserRole(db: Db, user_id: string, role: string, v: Version): Promise<void> {
  await db
    .insertInto('users')
    .values({ user_id, role, ...v })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet((eb) => ({
          role: eb.ref('excluded.role'),
          version_at: eb.ref('excluded.version_at'),
          version_id: eb.ref('excluded.version_id'),
        }))
        .where(incomingIsNewer('users')),
    )
    .execute()
}

/**
 * A customer record, whole; its scope is the record's and never moves. The scope's records by source and its
 * total_customers (its user, and the user it had before if another) move with it.
 */
export async function upsertCustomer(tx: StatsTx, row: CustomersTable): Promise<void> {
  const { db } = tx
  const read = () =>
    db
      .selectFrom('customers')
      .select(['user_id', 'tenant_id', 'workspace_id', 'source'])
      .where('customer_id', '=', row.customer_id)
      .executeTakeFirst()
  // the record's user locked before the record is read: a concurrent event of the same record reads it after
  await lockUser(tx, row.user_id)
  const stored = await read()
  if (stored && stored.user_id !== row.user_id) await lockUser(tx, stored.user_id)
  const scope: Scope = stored ?? row
  const users = [...new Set([row.user_id, ...(stored ? [stored.user_id] : [])])]
  const counted = async () => Promise.all(users.map((u) => countsIn(db, u, scope)))
  const before = await counted()
  await writeCustomer(db, row)
  const now = await read()
  const after = await counted()
  const key = { tenant_id: scope.tenant_id, workspace_id: scope.workspace_id }
  const moved = after.filter(Boolean).length - before.filter(Boolean).length
  const shares: Share[] = []
  if (moved !== 0) shares.push({ table: 'customer_counts', key, add: { customers: moved } })
  if (stored?.source !== now?.source) {
    if (stored)
      shares.push({ table: 'customer_source_counts', key: { ...key, source: stored.source }, add: { count: -1 } })
    if (now) shares.push({ table: 'customer_source_counts', key: { ...key, source: now.source }, add: { count: 1 } })
  }
  apply(tx.work, shares)
}

async function writeCustomer(db: Db, row: CustomersTable): Promise<void> {
  await db
    .insertInto('customers')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('customer_id')
        .doUpdateSet((eb) => ({
          user_id: eb.ref('excluded.user_id'),
          source: eb.ref('excluded.source'),
          version_at: eb.ref('excluded.version_at'),
          version_id: eb.ref('excluded.version_id'),
        }))
        .where(incomingIsNewer('customers')),
    )
    .execute()
}

/** An agent record, whole (identity re-announces it when its rating or response time moves). */
export async function upsertAgent(db: Db, row: AgentsTable): Promise<void> {
  await db
    .insertInto('agents')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('agent_id')
        .doUpdateSet((eb) => ({
          user_id: eb.ref('excluded.user_id'),
          name: eb.ref('excluded.name'),
          department: eb.ref('excluded.department'),
          status: eb.ref('excluded.status'),
          avg_response_time: eb.ref('excluded.avg_response_time'),
          rating: eb.ref('excluded.rating'),
          version_at: eb.ref('excluded.version_at'),
          version_id: eb.ref('excluded.version_id'),
        }))
        .where(incomingIsNewer('agents')),
    )
    .execute()
}

export async function agentExists(db: Db, agent_id: string): Promise<boolean> {
  return (
    (await db.selectFrom('agents').select('agent_id').where('agent_id', '=', agent_id).executeTakeFirst()) !== undefined
  )
}

/** A status change, if newer than what the row holds. */
export async function applyAgentStatus(db: Db, agent_id: string, status: string, v: Version): Promise<void> {
  await db
    .updateTable('agents')
    .set({ status, ...v })
    .where('agent_id', '=', agent_id)
    .where(storedIsOlder('agents', v))
    .execute()
}

/**
 * A tenant's erasure: its agents' names and departments emptied, the rows (and so every total) kept. The version
 * moves to the erasure's where the row's is older, so an older agent event taken late changes nothing.
 */
export async function eraseTenantAgents(db: Db, tenant_id: string, v: Version): Promise<void> {
  await db.updateTable('agents').set({ name: '', department: '' }).where('tenant_id', '=', tenant_id).execute()
  await db
    .updateTable('agents')
    .set({ ...v })
    .where('tenant_id', '=', tenant_id)
    .where(storedIsOlder('agents', v))
    .execute()
}
