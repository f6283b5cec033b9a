import type { Kysely } from 'kysely'
import type { AgentsTable, CustomersTable, StatisticsDatabase } from './database.ts'
import { incomingIsNewer, storedIsOlder, type Version } from './versions.ts'

type Db = Kysely<StatisticsDatabase>

/** A user's role, newest event wins (registered and role_changed both carry it). */
export async function upsertUserRole(db: Db, user_id: string, role: string, v: Version): Promise<void> {
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

/** A customer record, whole; its scope is the record's and never moves. */
export async function upsertCustomer(db: Db, row: CustomersTable): Promise<void> {
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
