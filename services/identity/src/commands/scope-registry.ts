import { IdentityEvents, type ScopeSettings } from '@switchboard/contracts'
import type { Scope } from '@switchboard/platform'
import { tenantFacts, workspaceFacts } from '../db/event-facts.ts'
import {
  findTenant,
  findWorkspace,
  insertTenantIfMissing,
  insertWorkspaceIfMissing,
  scopeRecord,
  scopeRecords,
  type TenantRow,
  type WorkspaceRow,
} from '../db/tenants.repository.ts'
import type { Db } from '../db/users.repository.ts'
import { admission, DEFAULT_SETTINGS, type Refusal, SCOPE_STATUS, type ScopePurpose } from '../domain/scope-registry.ts'
import { IdentityErrors } from '../errors.ts'
import type { IdentityTx } from './identity-tx.ts'

/*
 * The registry's steps inside other commands' units of work (like revocation.ts): admitting a scope (login,
 * registration, refresh, the widget) and making sure the scope of a new record exists.
 */

const label = (scope: Scope) => (scope.workspace_id ? `${scope.tenant_id}/${scope.workspace_id}` : scope.tenant_id)

/** The error a refusal answers with (docs: 404 unknown, 403 disabled or closed). */
export function refusalError(refusal: Refusal, scope: Scope): Error {
  switch (refusal) {
    case 'tenant_not_found':
      return new IdentityErrors.TenantNotFound(scope.tenant_id)
    case 'workspace_not_found':
      return new IdentityErrors.WorkspaceNotFound(label(scope))
    case 'tenant_disabled':
      return new IdentityErrors.TenantDisabled(scope.tenant_id)
    case 'workspace_disabled':
      return new IdentityErrors.WorkspaceDisabled(label(scope))
    case 'registration_closed':
      return new IdentityErrors.RegistrationClosed(label(scope))
    case 'widget_disabled':
      return new IdentityErrors.WidgetDisabled(label(scope))
  }
}

/** Why `scope` may not be entered for `purpose`, or undefined when it may. */
export async function scopeRefusal(db: Db, scope: Scope, purpose: ScopePurpose): Promise<Refusal | undefined> {
  const { tenant, workspace } = await scopeRecords(db, scope)
  return admission(scopeRecord(tenant), scopeRecord(workspace), scope.workspace_id, purpose)
}

/** Throws the refusal's error unless `scope` may be entered for `purpose`. */
export async function admitScope(db: Db, scope: Scope, purpose: ScopePurpose): Promise<void> {
  const refusal = await scopeRefusal(db, scope, purpose)
  if (refusal) throw refusalError(refusal, scope)
}

/** The events of a registry record: the record, and its status when it is new or changed. */
export async function announceTenant(tx: IdentityTx, row: TenantRow, statusChanged: boolean) {
  const at = { tenant_id: row.id, workspace_id: '' }
  await tx.emit(IdentityEvents.tenantUpserted, tenantFacts(row), at)
  if (statusChanged) {
    await tx.emit(IdentityEvents.scopeStatus, { ...at, active: row.status === SCOPE_STATUS.active }, at)
  }
}

export async function announceWorkspace(tx: IdentityTx, row: WorkspaceRow, statusChanged: boolean) {
  const at = { tenant_id: row.tenant_id, workspace_id: row.id }
  await tx.emit(IdentityEvents.workspaceUpserted, workspaceFacts(row), at)
  if (statusChanged) {
    await tx.emit(IdentityEvents.scopeStatus, { ...at, active: row.status === SCOPE_STATUS.active }, at)
  }
}

export interface ScopeDefaults {
  tenantName?: string
  workspaceName?: string
  settings?: ScopeSettings
}

/**
 * Registers what is missing of `scope` (active, named by its id unless told otherwise), announcing each new
 * record; existing records are left as they are, whatever their status. Answers the rows.
 */
export async function registerScope(tx: IdentityTx, scope: Scope, defaults: ScopeDefaults = {}) {
  const now = new Date().toISOString()
  const settings = defaults.settings ?? DEFAULT_SETTINGS
  const status = SCOPE_STATUS.active
  let tenant = await findTenant(tx.db, scope.tenant_id)
  if (!tenant) {
    const name = defaults.tenantName ?? scope.tenant_id
    const created = await insertTenantIfMissing(tx.db, { id: scope.tenant_id, name, status, settings, now })
    if (created) await announceTenant(tx, created, true)
    tenant = created ?? (await findTenant(tx.db, scope.tenant_id))
  }
  if (!scope.workspace_id) return { tenant, workspace: undefined }
  let workspace = await findWorkspace(tx.db, scope.tenant_id, scope.workspace_id)
  if (!workspace) {
    const name = defaults.workspaceName ?? scope.workspace_id
    const w = { id: scope.workspace_id, name, status, settings, now }
    const created = await insertWorkspaceIfMissing(tx.db, scope.tenant_id, w)
    if (created) await announceWorkspace(tx, created, true)
    workspace = created ?? (await findWorkspace(tx.db, scope.tenant_id, scope.workspace_id))
  }
  return { tenant, workspace }
}

/** Principals whose scoped record creation registers an unknown tenant or workspace (the README's rule). */
const REGISTERING_KINDS = new Set(['admin', 'service'])

/**
 * The scope of a record staff create (agent, customer, operator account): a disabled tenant or workspace refuses
 * it (403); an unknown one is registered, active, when an admin or service principal creates the record there,
 * and is 404 for anyone else. Self-registration never comes here: it is admitted with `admitScope(…, 'register')`.
 */
export async function ensureScopeForRecords(tx: IdentityTx, scope: Scope): Promise<void> {
  const refusal = await scopeRefusal(tx.db, scope, 'records')
  if (!refusal) return
  const unknown = refusal === 'tenant_not_found' || refusal === 'workspace_not_found'
  if (!unknown || !REGISTERING_KINDS.has(tx.caller.principal?.kind ?? '')) throw refusalError(refusal, scope)
  await registerScope(tx, scope)
}
