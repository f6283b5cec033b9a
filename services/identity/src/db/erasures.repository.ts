import { type Scope, whereScope } from '@switchboard/platform'
import type { Selectable } from 'kysely'
import type { CustomerErasureReportsTable, CustomerErasuresTable } from './database.ts'
import type { Db } from './users.repository.ts'

export type ErasureRow = Selectable<CustomerErasuresTable>
export type ErasureReportRow = Selectable<CustomerErasureReportsTable>

/** The erasure of a customer of the scope, or undefined: another tenant's answers like none. */
export function findErasureOfCustomer(db: Db, customerId: string, scope: Scope): Promise<ErasureRow | undefined> {
  return whereScope(
    db.selectFrom('customer_erasures').selectAll().where('customer_id', '=', customerId),
    scope,
  ).executeTakeFirst()
}

export async function insertErasure(db: Db, row: ErasureRow): Promise<void> {
  await db.insertInto('customer_erasures').values(row).execute()
}

/**
 * Takes the erasure's row lock (a write that changes nothing, the same on both engines): reports arriving at once
 * from several units' consumers are then counted one after the other, so the last one sees all the others.
 */
export async function lockErasure(db: Db, id: string): Promise<boolean> {
  const r = await db.updateTable('customer_erasures').set({ id }).where('id', '=', id).executeTakeFirst()
  return Number(r.numUpdatedRows) > 0
}

/** A unit's report; a repeated one (the same unit again) leaves the first. */
export async function insertErasureReport(db: Db, row: ErasureReportRow): Promise<void> {
  await db
    .insertInto('customer_erasure_reports')
    .values(row)
    .onConflict((oc) => oc.columns(['erasure_id', 'service']).doNothing())
    .execute()
}

export function listErasureReports(db: Db, erasureId: string): Promise<ErasureReportRow[]> {
  return db
    .selectFrom('customer_erasure_reports')
    .selectAll()
    .where('erasure_id', '=', erasureId)
    .orderBy('reported_at')
    .orderBy('service')
    .execute()
}

export async function completeErasure(db: Db, id: string, at: string): Promise<void> {
  await db
    .updateTable('customer_erasures')
    .set({ status: 'completed', completed_at: at })
    .where('id', '=', id)
    .where('status', '=', 'in_progress')
    .execute()
}

/** Forgets the person: notes and the customer record go; the account stays as a row others refer to, emptied. */
export async function removeCustomerRecord(db: Db, customerId: string): Promise<{ notes: number }> {
  const notes = await db.deleteFrom('customer_notes').where('customer_id', '=', customerId).executeTakeFirst()
  await db.deleteFrom('customers').where('id', '=', customerId).execute()
  return { notes: Number(notes.numDeletedRows) }
}

export function otherCustomerRecords(db: Db, userId: string): Promise<{ id: string }[]> {
  return db.selectFrom('customers').select('id').where('user_id', '=', userId).execute()
}

/**
 * Empties an account: a login name and e-mail nobody can guess or hold (unique columns), no name, phone or password
 * (the command deactivates it and revokes its tokens too); its auth sessions lose address and device.
 */
export async function anonymiseUser(db: Db, userId: string, now: string): Promise<{ sessions: number }> {
  await db
    .updateTable('users')
    .set({
      username: `erased-${userId}`,
      email: `erased-${userId}@erased.invalid`,
      name: '',
      phone: '',
      password_hash: '',
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute()
  const sessions = await db
    .updateTable('auth_sessions')
    .set({
      status: 'revoked',
      revoked_at: now,
      revoke_reason: 'erased',
      client_ip: '',
      user_agent: '',
      device_fingerprint: '',
    })
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return { sessions: Number(sessions.numUpdatedRows) }
}

/** Every customer record of a tenant, in all its workspaces. */
export function customersOfTenant(db: Db, tenantId: string) {
  return db.selectFrom('customers').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').execute()
}

/** A tenant's erasures by status. */
export async function tenantErasureCounts(db: Db, tenantId: string): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('customer_erasures')
    .select(['status', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('tenant_id', '=', tenantId)
    .groupBy('status')
    .execute()
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]))
}
