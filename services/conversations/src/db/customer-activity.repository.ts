import { type Scope, whereScope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { ConversationsDatabase } from './database.ts'

type Db = Kysely<ConversationsDatabase>

export interface ActivityCustomer {
  customer_id: string
  user_id: string
  tenant_id: string
  workspace_id: string
}

/**
 * The customers of the caller's scope (identity's projection) that `ref` names — by customer id or user id. At most
 * two are read: more than one is possible only for an unscoped caller naming a user who is a customer in several
 * workspaces. Another tenant's customer is none, exactly like an id nobody has.
 */
export function customersNamed(db: Db, ref: string, scope: Scope): Promise<ActivityCustomer[]> {
  return whereScope(
    db
      .selectFrom('customers')
      .select(['customer_id', 'user_id', 'tenant_id', 'workspace_id'])
      .where((eb) => eb.or([eb('customer_id', '=', ref), eb('user_id', '=', ref)])),
    scope,
  )
    .orderBy('customer_id')
    .limit(2)
    .execute()
}

/** The customer's newest sessions in its workspace. */
export function recentCustomerSessions(db: Db, c: ActivityCustomer, limit: number) {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('tenant_id', '=', c.tenant_id)
    .where('workspace_id', '=', c.workspace_id)
    .where('customer_id', '=', c.user_id)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
}

/** The newest messages of the customer's sessions in its workspace, whoever wrote them. */
export function recentCustomerMessages(db: Db, c: ActivityCustomer, limit: number) {
  return db
    .selectFrom('messages')
    .selectAll()
    .where('tenant_id', '=', c.tenant_id)
    .where('workspace_id', '=', c.workspace_id)
    .where('session_id', 'in', (eb) =>
      eb
        .selectFrom('sessions')
        .select('id')
        .where('tenant_id', '=', c.tenant_id)
        .where('workspace_id', '=', c.workspace_id)
        .where('customer_id', '=', c.user_id),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
}
