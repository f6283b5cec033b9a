import type { ScopeSettings } from '@switchboard/contracts'

/** A tenant's or workspace's status: a disabled one refuses logins, registrations, new records and its tokens. */
export const SCOPE_STATUS = { active: 'active', disabled: 'disabled' } as const
export type ScopeStatusValue = (typeof SCOPE_STATUS)[keyof typeof SCOPE_STATUS]

/** Ids the registry's API accepts for new tenants and workspaces (lower-case slugs, 2 to 63 characters). */
export const SCOPE_ID_PATTERN = '^[a-z0-9][a-z0-9_-]{1,62}$'

/**
 * Settings a tenant or workspace has unless told otherwise: what every scope effectively had before the registry
 * (a tenant exists to serve its customers). An operator closes them per tenant or workspace.
 */
export const DEFAULT_SETTINGS: ScopeSettings = Object.freeze({ public_registration: true, widget_enabled: true })

/** Stored settings (possibly written by an older version, with keys missing) completed with the defaults. */
export function completeSettings(stored: Partial<ScopeSettings> | null | undefined): ScopeSettings {
  return {
    public_registration: stored?.public_registration ?? DEFAULT_SETTINGS.public_registration,
    widget_enabled: stored?.widget_enabled ?? DEFAULT_SETTINGS.widget_enabled,
  }
}

/** What the registry knows of one tenant or workspace, for the admission rule. */
export interface ScopeRecord {
  status: string
  settings: ScopeSettings
}

/**
 * Why someone enters a scope: a login or refresh, an anonymous self-registration, the customer widget, or a record
 * created there by staff (an agent or customer record, an operator account).
 */
export type ScopePurpose = 'login' | 'refresh' | 'register' | 'widget' | 'records'

export type Refusal =
  | 'tenant_not_found'
  | 'workspace_not_found'
  | 'tenant_disabled'
  | 'workspace_disabled'
  | 'registration_closed'
  | 'widget_disabled'

/**
 * The registry's one admission rule (services/identity/README.md): an unknown tenant or workspace is refused as
 * not found, a disabled one as disabled (the tenant is checked first), and registration and the widget need their
 * setting on for both the tenant and the workspace. `workspace` undefined with `workspaceId` '' means the whole
 * tenant is entered (a tenant-wide admin token). A refresh refuses a disabled scope only: a scope a token was issued
 * for has existed.
 */
export function admission(
  tenant: ScopeRecord | undefined,
  workspace: ScopeRecord | undefined,
  workspaceId: string,
  purpose: ScopePurpose,
): Refusal | undefined {
  const lenient = purpose === 'refresh'
  if (!tenant) return lenient ? undefined : 'tenant_not_found'
  if (tenant.status !== SCOPE_STATUS.active) return 'tenant_disabled'
  if (workspaceId && !workspace) return lenient ? undefined : 'workspace_not_found'
  if (workspace && workspace.status !== SCOPE_STATUS.active) return 'workspace_disabled'
  const both = (key: keyof ScopeSettings) => tenant.settings[key] && (workspace?.settings[key] ?? true)
  if (purpose === 'register' && !both('public_registration')) return 'registration_closed'
  if (purpose === 'widget' && !both('widget_enabled')) return 'widget_disabled'
  return undefined
}
