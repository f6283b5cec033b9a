import type { Caller } from '@switchboard/platform'
import type { ScopeKey } from '../db/scoped-configs.repository.ts'
import { ConfigErrors } from '../errors.ts'

/** The two route sets: `/api/security/config/tenant…` and `/api/security/config/workspace…`. */
export const SCOPE_KINDS = ['tenant', 'workspace'] as const
export type ScopeKind = (typeof SCOPE_KINDS)[number]

/** Reading a scope's document and history, or changing it (PUT, approve, rollback, verify). */
export type ScopeAccess = 'read' | 'write'

/**
 * The stored scope a caller acts on: its tenant (workspace_id '') or its workspace. The caller's scope is its token's
 * or, for an unscoped administrator, the one it names (X-Tenant-ID / X-Workspace-ID); none → 400. Writing the tenant
 * document also needs a token bound to no workspace (README "Who may change which scope"): 403 otherwise.
 */
export function scopeKeyOf(kind: ScopeKind, caller: Caller, access: ScopeAccess = 'read'): ScopeKey {
  const { tenant_id, workspace_id } = caller.scope
  if (!tenant_id)
    throw kind === 'tenant' ? new ConfigErrors.TenantScopeRequired() : new ConfigErrors.WorkspaceScopeRequired()
  if (kind === 'tenant') {
    if (access === 'write') requireTenantAuthority(caller, tenant_id)
    return { tenant_id, workspace_id: '' }
  }
  if (!workspace_id) throw new ConfigErrors.WorkspaceScopeRequired()
  return { tenant_id, workspace_id }
}

/**
 * The workspace the caller's own token is bound to ('' for none): the token's claim, not a selector. An unscoped
 * administrator narrowing with X-Workspace-ID, or a tenant administrator's tenant-wide token, is bound to none; an
 * admin who signed in to one workspace (its binding there, or naming it at login) is bound to it, as identity treats
 * it (its reach is its token's scope). Without a principal (never on these routes) nothing vouches for it: '*', bound.
 */
export const boundWorkspaceOf = (caller: Caller): string => caller.principal?.token_workspace_id ?? '*'

/**
 * The tenant document is the layer under every workspace of the tenant: changing it from a token bound to one
 * workspace would let that workspace's administrator change every other workspace. 403 TENANT_ADMIN_REQUIRED.
 */
export function requireTenantAuthority(caller: Caller, tenant_id: string): void {
  const bound = boundWorkspaceOf(caller)
  if (bound) throw new ConfigErrors.TenantAdminRequired(tenant_id, bound)
}

export const kindOf = (key: ScopeKey): ScopeKind => (key.workspace_id ? 'workspace' : 'tenant')

/** How the scope appears in responses: `workspace_id` only on workspace routes. */
export const scopeFields = (key: ScopeKey) =>
  key.workspace_id ? { tenant_id: key.tenant_id, workspace_id: key.workspace_id } : { tenant_id: key.tenant_id }

/** The audit record's resource id: `tenant` or `tenant/workspace`, as the earlier system's records named it. */
export const resourceIdOf = (key: ScopeKey) =>
  key.workspace_id ? `${key.tenant_id}/${key.workspace_id}` : key.tenant_id

export interface ChangeControl {
  change_ref: string
  reason: string
  approval_ref: string | null
}
