import { type Scope, whereScope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { ConversationsDatabase } from './database.ts'

// The persons a request may name, as identity's events made them known here: customers (their own projection) and
// agents (the routing projection, `agents`). Looked up in exactly one scope, so another workspace's person is as
// unknown as an id nobody has (README "References").

type Db = Kysely<ConversationsDatabase>

export interface ProjectedCustomer {
  customer_id: string
  user_id: string
  /** the display name (the inbox's); absent: left as it is */
  name?: string
}

/**
 * Applies `identity.customer.upserted` (`at` = the event's time) unless a newer event already did: a redelivered
 * older event must not undo a newer one. Without a scope (identity acting for an unscoped admin) only a customer
 * already known is updated: nothing says which workspace a new one belongs to.
 */
export async function upsertProjectedCustomer(
  db: Db,
  c: ProjectedCustomer,
  scope: Scope | null,
  at: string,
): Promise<void> {
  if (!scope) {
    await db
      .updateTable('customers')
      .set({ user_id: c.user_id, ...(c.name === undefined ? {} : { name: c.name }), updated_at: at })
      .where('customer_id', '=', c.customer_id)
      .where('updated_at', '<=', at)
      .execute()
    return
  }
  await db
    .insertInto('customers')
    .values({ ...c, ...scope, updated_at: at })
    .onConflict((oc) =>
      oc
        .column('customer_id')
        .doUpdateSet({
          user_id: c.user_id,
          ...(c.name === undefined ? {} : { name: c.name }),
          ...scope,
          updated_at: at,
        })
        .where('customers.updated_at', '<=', at),
    )
    .execute()
}

/** A customer of exactly this scope, named by its identity record id or its user id. */
export function findCustomerRef(db: Db, ref: string, scope: Scope): Promise<ProjectedCustomer | undefined> {
  return whereScope(
    db
      .selectFrom('customers')
      .select(['customer_id', 'user_id'])
      .where((eb) => eb.or([eb('customer_id', '=', ref), eb('user_id', '=', ref)])),
    scope,
  ).executeTakeFirst()
}

/** An agent of exactly this scope, named by its identity record id or its user id. */
export function findAgentRef(db: Db, ref: string, scope: Scope): Promise<{ user_id: string } | undefined> {
  return whereScope(
    db
      .selectFrom('agents')
      .select('user_id')
      .where((eb) => eb.or([eb('agent_id', '=', ref), eb('user_id', '=', ref)])),
    scope,
  ).executeTakeFirst()
}
