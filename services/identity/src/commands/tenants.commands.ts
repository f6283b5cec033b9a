import type { Caller } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import {
  findTenant,
  insertTenant,
  insertWorkspace,
  settingsOf,
  type TenantRow,
  updateTenant,
  type WorkspaceRow,
} from '../db/tenants.repository.ts'
import { completeSettings, SCOPE_STATUS, type ScopeStatusValue } from '../domain/scope-registry.ts'
import { IdentityErrors } from '../errors.ts'
import type { CreateTenantBody, UpdateScopeBody } from '../schemas/tenants.schemas.ts'
import type { IdentityTx } from './identity-tx.ts'
import { announceTenant, announceWorkspace } from './scope-registry.ts'

/** Both sides of a change, for the audit record. */
export interface TenantChange {
  before: TenantRow
  after: TenantRow
}

/**
 * A tenant the caller may see, or 404: a caller narrowed to one tenant (a tenant-bound token, or selectors) sees
 * that one only, and another tenant answers exactly like a missing one.
 */
export async function tenantInView(tx: IdentityTx, id: string): Promise<TenantRow> {
  const own = tx.caller.scope.tenant_id
  const tenant = own && own !== id ? undefined : await findTenant(tx.db, id)
  if (!tenant) throw new IdentityErrors.TenantNotFound(id)
  return tenant
}

/** A new tenant, active, with its first workspaces; each announced (upserted + status). 409 when it exists. */
export function createTenant(svc: IdentityService, caller: Caller, body: CreateTenantBody) {
  return svc.transaction(caller, async (tx) => {
    if (await findTenant(tx.db, body.id)) throw new IdentityErrors.TenantExists(body.id)
    const ids = (body.workspaces ?? []).map((w) => w.id)
    const twice = ids.find((id, i) => ids.indexOf(id) !== i)
    if (twice) throw new IdentityErrors.WorkspaceExists(`${body.id}/${twice}`)
    const now = new Date().toISOString()
    const status = SCOPE_STATUS.active
    const tenant = await insertTenant(tx.db, {
      id: body.id,
      name: body.name ?? body.id,
      status,
      settings: completeSettings(body.settings),
      now,
    })
    await announceTenant(tx, tenant, true)
    const workspaces: WorkspaceRow[] = []
    for (const w of body.workspaces ?? []) {
      const settings = completeSettings(w.settings)
      const row = await insertWorkspace(tx.db, tenant.id, { id: w.id, name: w.name ?? w.id, status, settings, now })
      await announceWorkspace(tx, row, true)
      workspaces.push(row)
    }
    return { tenant, workspaces }
  })
}

/** Name and settings (merged: keys not named keep their value). */
export function updateTenantCommand(svc: IdentityService, caller: Caller, id: string, patch: UpdateScopeBody) {
  return svc.transaction(caller, async (tx): Promise<TenantChange> => {
    const before = await tenantInView(tx, id)
    const settings = patch.settings ? { ...settingsOf(before), ...patch.settings } : undefined
    const after = (await updateTenant(tx.db, id, { name: patch.name, settings }, new Date().toISOString())) as TenantRow
    await announceTenant(tx, after, false)
    return { before, after }
  })
}

/**
 * Disables or enables a tenant. Disabled: logins, registrations and new records in it are refused, and the
 * gateway refuses its tokens (identity.scope.status_changed, and GET /internal/token-state/scopes). Setting the
 * status it already has changes nothing and announces nothing.
 */
export function setTenantStatusCommand(svc: IdentityService, caller: Caller, id: string, status: ScopeStatusValue) {
  return svc.transaction(caller, async (tx): Promise<TenantChange> => {
    const before = await tenantInView(tx, id)
    if (before.status === status) return { before, after: before }
    const after = (await updateTenant(tx.db, id, { status }, new Date().toISOString())) as TenantRow
    await announceTenant(tx, after, true)
    return { before, after }
  })
}
