import type { Selectable } from 'kysely'
import type { TenantErasureReportsTable, TenantErasuresTable } from './database.ts'
import type { Db } from './users.repository.ts'

export type TenantErasureRow = Selectable<TenantErasuresTable>
export type TenantErasureReportRow = Selectable<TenantErasureReportsTable>

const n = (r: { numUpdatedRows?: bigint; numDeletedRows?: bigint }) => Number(r.numUpdatedRows ?? r.numDeletedRows ?? 0)

export function findTenantErasure(db: Db, tenantId: string): Promise<TenantErasureRow | undefined> {
  return db.selectFrom('tenant_erasures').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst()
}

export async function insertTenantErasure(db: Db, row: TenantErasureRow): Promise<void> {
  await db.insertInto('tenant_erasures').values(row).execute()
}

/** The erasure's row lock (a write that changes nothing): units' reports are counted one after the other. */
export async function lockTenantErasure(db: Db, id: string): Promise<boolean> {
  const r = await db.updateTable('tenant_erasures').set({ id }).where('id', '=', id).executeTakeFirst()
  return n(r) > 0
}

/** A unit's report; a repeated one (the same unit again) leaves the first. */
export async function insertTenantErasureReport(db: Db, row: TenantErasureReportRow): Promise<void> {
  await db
    .insertInto('tenant_erasure_reports')
    .values(row)
    .onConflict((oc) => oc.columns(['tenant_erasure_id', 'service']).doNothing())
    .execute()
}

export function listTenantErasureReports(db: Db, id: string): Promise<TenantErasureReportRow[]> {
  return db
    .selectFrom('tenant_erasure_reports')
    .selectAll()
    .where('tenant_erasure_id', '=', id)
    .orderBy('reported_at')
    .orderBy('service')
    .execute()
}

export async function completeTenantErasure(db: Db, id: string, at: string): Promise<void> {
  await db
    .updateTable('tenant_erasures')
    .set({ status: 'completed', completed_at: at })
    .where('id', '=', id)
    .where('status', '=', 'in_progress')
    .execute()
}

/** The tenant's staff: users bound to it as agents, and its own administrators. */
export async function staffOfTenant(db: Db, tenantId: string): Promise<string[]> {
  const [agents, admins] = await Promise.all([
    db.selectFrom('agents').select('user_id').where('tenant_id', '=', tenantId).execute(),
    db
      .selectFrom('users')
      .select('id as user_id')
      .where('admin_tenant_id', '=', tenantId)
      .where('role', '=', 'admin')
      .execute(),
  ])
  return [...new Set([...agents, ...admins].map((r) => r.user_id))]
}

/** Whether a user holds anything outside the tenant: a binding elsewhere, or the administration of another. */
export async function heldElsewhere(db: Db, userId: string, tenantId: string): Promise<boolean> {
  const [agents, customers, user] = await Promise.all([
    db.selectFrom('agents').select('id').where('user_id', '=', userId).where('tenant_id', '!=', tenantId).execute(),
    db.selectFrom('customers').select('id').where('user_id', '=', userId).where('tenant_id', '!=', tenantId).execute(),
    db.selectFrom('users').select(['role', 'admin_tenant_id']).where('id', '=', userId).executeTakeFirst(),
  ])
  const adminElsewhere = user?.role === 'admin' && user.admin_tenant_id !== tenantId
  return agents.length + customers.length > 0 || adminElsewhere
}

/**
 * The tenant's staff bindings go (agent records: name, department, skills); the login's rows that still name the
 * tenant — its auth sessions and their address and device, the per-agent load rows — are emptied or dropped.
 */
export async function removeTenantBindings(db: Db, tenantId: string, now: string): Promise<Record<string, number>> {
  const agents = await db.deleteFrom('agents').where('tenant_id', '=', tenantId).executeTakeFirst()
  const sessions = await db
    .updateTable('auth_sessions')
    .set({ status: 'revoked', revoked_at: now, revoke_reason: 'erased', client_ip: '', user_agent: '' })
    .set({ device_fingerprint: '' })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  await db.deleteFrom('agent_sessions').where('tenant_id', '=', tenantId).execute()
  return { agent_bindings_removed: n(agents), auth_sessions_revoked: n(sessions) }
}

/** A staff account emptied for good: its one-time set-password links go with it. */
export async function dropPasswordTokens(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('password_tokens').where('user_id', '=', userId).execute()
}

/** The registry keeps the tenant's and workspaces' ids and statuses; their names and settings go. */
export async function emptyRegistry(db: Db, tenantId: string, now: string): Promise<{ workspaces: number }> {
  await db
    .updateTable('tenants')
    .set({ name: '', settings: '{}', updated_at: now })
    .where('id', '=', tenantId)
    .execute()
  const ws = await db
    .updateTable('workspaces')
    .set({ name: '', settings: '{}', updated_at: now })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  return { workspaces: n(ws) }
}

export function workspacesOfTenant(db: Db, tenantId: string) {
  return db.selectFrom('workspaces').selectAll().where('tenant_id', '=', tenantId).execute()
}

/** The accounts of the tenant's erased customers (their erasures keep the ids). */
export async function erasedCustomerUsers(db: Db, tenantId: string): Promise<string[]> {
  const rows = await db.selectFrom('customer_erasures').select('user_id').where('tenant_id', '=', tenantId).execute()
  return rows.map((r) => r.user_id)
}
