import type { Caller } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import {
  findWorkspace,
  insertWorkspace,
  settingsOf,
  updateWorkspace,
  type WorkspaceRow,
} from '../db/tenants.repository.ts'
import { completeSettings, SCOPE_STATUS, type ScopeStatusValue } from '../domain/scope-registry.ts'
import { IdentityErrors } from '../errors.ts'
import type { CreateWorkspaceBody, UpdateScopeBody } from '../schemas/tenants.schemas.ts'
import type { IdentityTx } from './identity-tx.ts'
import { announceWorkspace } from './scope-registry.ts'
import { tenantInView } from './tenants.commands.ts'

/** Both sides of a change, for the audit record. */
export interface WorkspaceChange {
  before: WorkspaceRow
  after: WorkspaceRow
}

/** A workspace of a tenant the caller may see, or 404 (the tenant's own 404 when the tenant is not visible). */
export async function workspaceInView(tx: IdentityTx, tenantId: string, id: string): Promise<WorkspaceRow> {
  await tenantInView(tx, tenantId)
  const workspace = await findWorkspace(tx.db, tenantId, id)
  if (!workspace) throw new IdentityErrors.WorkspaceNotFound(`${tenantId}/${id}`)
  return workspace
}

/** A new workspace of an existing tenant, active, announced; 409 when it exists. */
export function createWorkspace(svc: IdentityService, caller: Caller, tenantId: string, body: CreateWorkspaceBody) {
  return svc.transaction(caller, async (tx) => {
    await tenantInView(tx, tenantId)
    if (await findWorkspace(tx.db, tenantId, body.id))
      throw new IdentityErrors.WorkspaceExists(`${tenantId}/${body.id}`)
    const row = await insertWorkspace(tx.db, tenantId, {
      id: body.id,
      name: body.name ?? body.id,
      status: SCOPE_STATUS.active,
      settings: completeSettings(body.settings),
      now: new Date().toISOString(),
    })
    await announceWorkspace(tx, row, true)
    return row
  })
}

export function updateWorkspaceCommand(
  svc: IdentityService,
  caller: Caller,
  tenantId: string,
  id: string,
  patch: UpdateScopeBody,
) {
  return svc.transaction(caller, async (tx): Promise<WorkspaceChange> => {
    const before = await workspaceInView(tx, tenantId, id)
    const settings = patch.settings ? { ...settingsOf(before), ...patch.settings } : undefined
    const now = new Date().toISOString()
    const after = (await updateWorkspace(tx.db, tenantId, id, { name: patch.name, settings }, now)) as WorkspaceRow
    await announceWorkspace(tx, after, false)
    return { before, after }
  })
}

/** Disables or enables one workspace (as a tenant, but for that workspace only); a no-op announces nothing. */
export function setWorkspaceStatusCommand(
  svc: IdentityService,
  caller: Caller,
  tenantId: string,
  id: string,
  status: ScopeStatusValue,
) {
  return svc.transaction(caller, async (tx): Promise<WorkspaceChange> => {
    const before = await workspaceInView(tx, tenantId, id)
    if (before.status === status) return { before, after: before }
    const after = (await updateWorkspace(tx.db, tenantId, id, { status }, new Date().toISOString())) as WorkspaceRow
    await announceWorkspace(tx, after, true)
    return { before, after }
  })
}
