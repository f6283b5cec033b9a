/**
 * config-governance's scoped configuration through the gateway (services/config-governance README "Endpoints"):
 * the workspace's and the tenant's stored overrides, the public portal's effective values, PUT with change control,
 * the history and one entry's diff.
 */

import { claimsOf } from '../../lib/access.ts'
import { api, getAccessToken } from '../../lib/http.ts'

export type Doc = Record<string, unknown>

export interface ScopeConfig {
  tenant_id: string
  workspace_id?: string
  config: Doc
  version: number
  updated_at: string | null
}

export interface ChangeRisk {
  risk_level: 'low' | 'medium' | 'high'
  approval_required: boolean
  risk_reasons: string[]
  changed_paths: string[]
}

export interface HistoryItem {
  audit: { id: string; action: string; actor_user_id: string; created_at: string; change_ref: string; reason: string }
  change_risk: ChangeRisk
  governance_status: string
}

export interface HistoryEntry extends HistoryItem {
  diff: { changed_paths: string[]; changes?: { path: string; type: string; before?: unknown; after?: unknown }[] }
  before: Doc
  snapshot: Doc
}

export interface PutAnswer extends ScopeConfig {
  audit_id: string
  change_risk: ChangeRisk
  governance_status: string
}

/** The signed-in admin's tenant and workspace, from the access token (the gateway checks them again). */
export function scopeOf(): { tenant: string; workspace: string } {
  const claims = claimsOf(getAccessToken()) as { tenant_id?: string; workspace_id?: string } | null
  return { tenant: claims?.tenant_id ?? '', workspace: claims?.workspace_id ?? '' }
}

function headers(): Record<string, string> {
  const { tenant, workspace } = scopeOf()
  const h: Record<string, string> = {}
  if (tenant) h['x-tenant-id'] = tenant
  if (workspace) h['x-workspace-id'] = workspace
  return h
}

export const readScope = (kind: 'tenant' | 'workspace') =>
  api<ScopeConfig>(`/api/security/config/${kind}`, { headers: headers() })

export const readPortal = () => {
  const { tenant, workspace } = scopeOf()
  return api<Doc>('/public/portal/config', { query: { tenant_id: tenant, workspace_id: workspace }, auth: false })
}

export const putWorkspace = (body: Doc) =>
  api<PutAnswer>('/api/security/config/workspace', { method: 'PUT', body, headers: headers() })

export const readHistory = () =>
  api<{ data: HistoryItem[]; total: number }>('/api/security/config/workspace/history', {
    query: { page_size: 50 },
    headers: headers(),
  })

export const readEntry = (id: string) =>
  api<HistoryEntry>(`/api/security/config/workspace/history/${encodeURIComponent(id)}`, { headers: headers() })

/** A second administrator's yes to `approval_ref` + `change_ref`, recorded before the change runs. */
export const approveWorkspace = (body: { change_ref: string; approval_ref: string; reason: string; notes: string }) =>
  api<unknown>('/api/security/config/workspace/approve', { method: 'POST', body, headers: headers() })

/** Undo one history entry (restore its `before`); high risk, so it needs an approval by someone else. */
export const rollbackWorkspace = (id: string, body: { change_ref: string; approval_ref: string; reason: string }) =>
  api<PutAnswer>(`/api/security/config/workspace/rollback/${encodeURIComponent(id)}`, {
    method: 'POST',
    body: { ...body, confirm: true, restore: 'before' },
    headers: headers(),
  })
