import type { ScopeSettings, ScopeStatus } from '@switchboard/contracts'
import { fromJson, type PageWindow, type Scope, selectPage, toJson } from '@switchboard/platform'
import type { Selectable } from 'kysely'
import { completeSettings, SCOPE_STATUS, type ScopeRecord } from '../domain/scope-registry.ts'
import type { TenantsTable, WorkspacesTable } from './database.ts'
import type { Db } from './users.repository.ts'

export type TenantRow = Selectable<TenantsTable>
export type WorkspaceRow = Selectable<WorkspacesTable>

export interface NewScopeRecord {
  id: string
  name: string
  status: string
  settings: ScopeSettings
  now: string
}

const tenantValues = (t: NewScopeRecord) => ({
  id: t.id,
  name: t.name,
  status: t.status,
  settings: toJson(t.settings) ?? '{}',
  created_at: t.now,
  updated_at: t.now,
})

const workspaceValues = (tenantId: string, w: NewScopeRecord) => ({ tenant_id: tenantId, ...tenantValues(w) })

export function insertTenant(db: Db, t: NewScopeRecord): Promise<TenantRow> {
  return db.insertInto('tenants').values(tenantValues(t)).returningAll().executeTakeFirstOrThrow()
}

/** Undefined when the tenant exists already (a concurrent registration won): no error, no aborted transaction. */
export function insertTenantIfMissing(db: Db, t: NewScopeRecord): Promise<TenantRow | undefined> {
  return db
    .insertInto('tenants')
    .values(tenantValues(t))
    .onConflict((oc) => oc.column('id').doNothing())
    .returningAll()
    .executeTakeFirst()
}

export function insertWorkspace(db: Db, tenantId: string, w: NewScopeRecord): Promise<WorkspaceRow> {
  return db.insertInto('workspaces').values(workspaceValues(tenantId, w)).returningAll().executeTakeFirstOrThrow()
}

export function insertWorkspaceIfMissing(db: Db, tenantId: string, w: NewScopeRecord) {
  return db
    .insertInto('workspaces')
    .values(workspaceValues(tenantId, w))
    .onConflict((oc) => oc.columns(['tenant_id', 'id']).doNothing())
    .returningAll()
    .executeTakeFirst()
}

export function findTenant(db: Db, id: string): Promise<TenantRow | undefined> {
  return db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findWorkspace(db: Db, tenantId: string, id: string): Promise<WorkspaceRow | undefined> {
  return db
    .selectFrom('workspaces')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** The registry's records of a scope: its tenant, and its workspace when one is named. */
export async function scopeRecords(db: Db, scope: Scope) {
  const [tenant, workspace] = await Promise.all([
    findTenant(db, scope.tenant_id),
    scope.workspace_id ? findWorkspace(db, scope.tenant_id, scope.workspace_id) : undefined,
  ])
  return { tenant, workspace }
}

export interface ScopePatch {
  name?: string | undefined
  status?: string | undefined
  settings?: ScopeSettings | undefined
}

const patchValues = (p: ScopePatch, now: string) => ({
  ...(p.name === undefined ? {} : { name: p.name }),
  ...(p.status === undefined ? {} : { status: p.status }),
  ...(p.settings === undefined ? {} : { settings: toJson(p.settings) ?? '{}' }),
  updated_at: now,
})

export function updateTenant(db: Db, id: string, p: ScopePatch, now: string): Promise<TenantRow | undefined> {
  return db.updateTable('tenants').set(patchValues(p, now)).where('id', '=', id).returningAll().executeTakeFirst()
}

export function updateWorkspace(
  db: Db,
  tenantId: string,
  id: string,
  p: ScopePatch,
  now: string,
): Promise<WorkspaceRow | undefined> {
  return db
    .updateTable('workspaces')
    .set(patchValues(p, now))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

export interface RegistryFilter {
  /** a tenant-bound caller sees its own tenant only ('' = every tenant) */
  tenant_id?: string | undefined
  status?: string | undefined
}

export function listTenants(db: Db, f: RegistryFilter, window: PageWindow) {
  let q = db.selectFrom('tenants')
  if (f.tenant_id) q = q.where('id', '=', f.tenant_id)
  if (f.status) q = q.where('status', '=', f.status)
  return selectPage(q, window, (qb) => qb.selectAll().orderBy('id'))
}

export function listWorkspaces(db: Db, tenantId: string, f: Pick<RegistryFilter, 'status'>, window: PageWindow) {
  let q = db.selectFrom('workspaces').where('tenant_id', '=', tenantId)
  if (f.status) q = q.where('status', '=', f.status)
  return selectPage(q, window, (qb) => qb.selectAll().orderBy('id'))
}

/** Every disabled tenant (workspace_id '') and workspace: few, and the gateway holds them all. */
export async function listDisabledScopes(db: Db): Promise<ScopeStatus[]> {
  const [tenants, workspaces] = await Promise.all([
    db.selectFrom('tenants').select('id').where('status', '=', SCOPE_STATUS.disabled).orderBy('id').execute(),
    db
      .selectFrom('workspaces')
      .select(['tenant_id', 'id'])
      .where('status', '=', SCOPE_STATUS.disabled)
      .orderBy('tenant_id')
      .orderBy('id')
      .execute(),
  ])
  return [
    ...tenants.map((t) => ({ tenant_id: t.id, workspace_id: '', active: false })),
    ...workspaces.map((w) => ({ tenant_id: w.tenant_id, workspace_id: w.id, active: false })),
  ]
}

/** What the admission rule reads of a row (settings completed with the defaults). */
export function scopeRecord(row: TenantRow | WorkspaceRow | undefined): ScopeRecord | undefined {
  return row ? { status: row.status, settings: settingsOf(row) } : undefined
}

export const settingsOf = (row: TenantRow | WorkspaceRow) =>
  completeSettings(fromJson<Partial<ScopeSettings>>(row.settings, {}))
export const statusOf = (row: TenantRow | WorkspaceRow) =>
  row.status === SCOPE_STATUS.disabled ? SCOPE_STATUS.disabled : SCOPE_STATUS.active

/** The tenant as the API shows it. */
export function tenantView(t: TenantRow) {
  return {
    id: t.id,
    name: t.name,
    status: statusOf(t),
    settings: settingsOf(t),
    created_at: t.created_at,
    updated_at: t.updated_at,
  }
}

/** The workspace as the API shows it. */
export function workspaceView(w: WorkspaceRow) {
  return {
    id: w.id,
    tenant_id: w.tenant_id,
    name: w.name,
    status: statusOf(w),
    settings: settingsOf(w),
    created_at: w.created_at,
    updated_at: w.updated_at,
  }
}
