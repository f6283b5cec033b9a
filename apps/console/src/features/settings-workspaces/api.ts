/** Identity's tenant registry (services/identity README "Tenants and workspaces") and the portal's widget origins. */
import { claimsOf } from '../../lib/access.ts'
import { api, getAccessToken, type Page } from '../../lib/http.ts'

export interface ScopeSettings {
  public_registration: boolean
  widget_enabled: boolean
}

export interface Tenant {
  id: string
  name: string
  status: 'active' | 'disabled'
  settings: ScopeSettings
  created_at: string
  updated_at: string
}

export interface Workspace extends Tenant {
  tenant_id: string
}

export const keys = {
  tenants: ['settings-workspaces', 'tenants'] as const,
  workspaces: (tenant: string) => ['settings-workspaces', 'workspaces', tenant] as const,
  origins: (tenant: string, workspace: string) => ['settings-workspaces', 'origins', tenant, workspace] as const,
}

/**
 * The registry's writes are a platform session's: an admin of platform reach whose *token* names no tenant (identity
 * refuses a scoped one with 403 IDENTITY_PLATFORM_ONLY, whatever its admin_reach). The API checks again.
 */
export function platformSession(): boolean {
  const claims = claimsOf(getAccessToken())
  return claims?.admin_reach === 'platform' && !claims.tenant_id && !claims.workspace_id
}

const tenantPath = (id: string) => `/api/security/tenants/${encodeURIComponent(id)}`
const workspacePath = (tenant: string, id: string) => `${tenantPath(tenant)}/workspaces/${encodeURIComponent(id)}`

export const listTenants = (signal?: AbortSignal) =>
  api<Page<Tenant>>('/api/security/tenants', { query: { page: 1, page_size: 100 }, signal })
export const createTenant = (body: { id: string; name?: string }) =>
  api<Tenant>('/api/security/tenants', { method: 'POST', body })
export const setTenantSettings = (id: string, settings: Partial<ScopeSettings>) =>
  api<Tenant>(tenantPath(id), { method: 'PUT', body: { settings } })
export const setTenantStatus = (id: string, to: 'enable' | 'disable') =>
  api<Tenant>(`${tenantPath(id)}/${to}`, { method: 'POST' })

export const listWorkspaces = (tenant: string, signal?: AbortSignal) =>
  api<Page<Workspace>>(`${tenantPath(tenant)}/workspaces`, { query: { page: 1, page_size: 100 }, signal })
export const createWorkspace = (tenant: string, body: { id: string; name?: string }) =>
  api<Workspace>(`${tenantPath(tenant)}/workspaces`, { method: 'POST', body })
export const setWorkspaceStatus = (tenant: string, id: string, to: 'enable' | 'disable') =>
  api<Workspace>(`${workspacePath(tenant, id)}/${to}`, { method: 'POST' })
export const setWorkspaceSettings = (tenant: string, id: string, settings: Partial<ScopeSettings>) =>
  api<Workspace>(workspacePath(tenant, id), { method: 'PUT', body: { settings } })

/** The sites that may embed the widget: governed portal configuration, read from its public answer. */
export const widgetOrigins = async (tenant: string, workspace: string, signal?: AbortSignal) =>
  (
    await api<{ widget?: { allowed_origins?: string[] } }>('/public/portal/config', {
      query: { tenant_id: tenant, workspace_id: workspace },
      auth: false,
      signal,
    })
  ).widget?.allowed_origins ?? []
