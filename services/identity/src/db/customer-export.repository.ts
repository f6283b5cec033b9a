import type { CustomerExportPart } from '@switchboard/contracts'
import { fromJson } from '@switchboard/platform'
import type { CustomerRow } from './customers.repository.ts'
import type { Db } from './users.repository.ts'

/** What identity holds of a customer: the record, its notes, the account (no password hash), its auth sessions. */
export async function customerExport(db: Db, customer: CustomerRow): Promise<CustomerExportPart> {
  const notes = await db.selectFrom('customer_notes').selectAll().where('customer_id', '=', customer.id).execute()
  const account = await db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'name', 'phone', 'role', 'status', 'last_login', 'created_at', 'updated_at'])
    .where('id', '=', customer.user_id)
    .execute()
  const sessions = await db
    .selectFrom('auth_sessions')
    .select(['id', 'status', 'tenant_id', 'workspace_id', 'user_agent', 'client_ip', 'created_at', 'last_seen_at'])
    .select(['revoked_at', 'revoke_reason'])
    .where('user_id', '=', customer.user_id)
    .execute()
  return {
    customers: [{ ...customer, tags: fromJson(customer.tags, []) }],
    customer_notes: notes,
    accounts: account,
    auth_sessions: sessions,
  }
}
