import type { Caller } from '@switchboard/platform'
import type { ScopeKey } from '../db/scoped-configs.repository.ts'
import { ConfigErrors } from '../errors.ts'

/** The two route sets: `/api/security/config/tenant…` and `/api/security/config/workspace…`. */
export const SCOPE_KINDS = ['tenant', 'workspace'] as const
export type ScopeKind = (typeof SCOPE_KINDS)[number]

/**
 * The stored scope a caller acts on: its tenant (workspace_id '') or its workspace. The caller's scope is its token's
 * or, for an unscoped administrator, the one it names (X-Tenant-ID / X-Workspace-ID); none → 400.
 */
export function scopeKeyOf(kind: ScopeKind, caller: Caller): ScopeKey {
  const { tenant_id, workspace_id } = caller.scope
  if (!tenant_id)
    throw kind === 'tenant' ? new ConfigErrors.TenantScopeRequired() : new ConfigErrors.WorkspaceScopeRequired()
  if (kind === 'tenant') return { tenant_id, workspace_id: '' }
  if (!workspace_id) throw new ConfigErrors.WorkspaceScopeRequired()
  return { tenant_id, workspace_id }
}

export const kindOf = (key: ScopeKey): ScopeKind => (key.workspace_id ? 'workspace' : 'tenant')

/** How the scope appears in responses: `workspace_id` only on workspace routes. */
export const scopeFields = (key: ScopeKey) =>
  key.workspace_id ? { tenant_id: key.tenant_id, workspace_id: key.workspace_id } : { tenant_id: key.tenant_id }

/** The audit record's resource id: `tenant` or `tenant/workspace` (reference §5.5). */
export const resourceIdOf = (key: ScopeKey) =>
  key.workspace_id ? `${key.tenant_id}/${key.workspace_id}` : key.tenant_id

export interface ChangeControl {
  change_ref: string
  reason: string
  approval_ref: string | null
}
