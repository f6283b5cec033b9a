/**
 * config-governance's scoped configuration through the gateway (services/config-governance README "Endpoints"):
 * the workspace's and the tenant's stored overrides, the effective configuration with each field's source, PUT with
 * change control, the history and one entry's diff.
 */

import { claimsOf } from '../../lib/access.ts'
import { api, getAccessToken } from '../../lib/http.ts'
import { selectors } from '../../lib/scope-picker.tsx'

export type Doc = Record<string, unknown>

export interface ScopeConfig {
  tenant_id: string
  workspace_id?: string
  config: Doc
  /** fingerprint of each stored secret by dotted path: whether a key is set, never what it is */
  secrets: Record<string, string>
  version: number
  updated_at: string | null
}

export interface ChangeRisk {
  risk_level: 'low' | 'medium' | 'high'
  approval_required: boolean
  risk_reasons: string[]
  changed_paths: string[]
}

export interface TemplateCheck {
  id: string
  title: string
  required: boolean
  changed_paths: string[]
}

export interface HistoryItem {
  audit: { id: string; action: string; actor_user_id: string; created_at: string; change_ref: string; reason: string }
  change_risk: ChangeRisk
  governance_status: string
  verification_status: string
  needs_action: boolean
  verification_template: { checks: TemplateCheck[] }
}

export interface PathChange {
  path: string
  type: string
  before: unknown
  after: unknown
}

/** What a change would do, computed by the API before it is sent (nothing stored). */
export interface Preview {
  change_risk: ChangeRisk
  diff: { changed_paths: string[]; changes: PathChange[] }
  verification_template: { checks: TemplateCheck[] }
}

/** A high-risk change waiting for a second administrator (config-governance README "Pending changes"). */
export interface Pending extends Preview {
  id: string
  status: 'pending' | 'approved' | 'rejected' | 'withdrawn'
  proposer_user_id: string
  change_control: { change_ref: string; reason: string; approval_ref: string }
  created_at: string
  decided_by: string | null
  applied_audit_id: string | null
  /** what the signed-in caller may do: the proposer withdraws, anyone else approves or rejects */
  actions: { approve: boolean; reject: boolean; withdraw: boolean }
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

/** Which scope's document the screen edits: the workspace's, or the tenant's (the layer under every workspace). */
export type ScopeKind = 'tenant' | 'workspace'

/** The document worked on: its kind and the tenant (and, for a workspace's, the workspace) it belongs to. */
export interface GovScope {
  kind: ScopeKind
  tenant: string
  workspace: string
}

/** The signed-in admin's tenant and workspace, from the access token (the gateway checks them again). */
export function scopeOf(): { tenant: string; workspace: string } {
  const claims = claimsOf(getAccessToken()) as { tenant_id?: string; workspace_id?: string } | null
  return { tenant: claims?.tenant_id ?? '', workspace: claims?.workspace_id ?? '' }
}

/**
 * The session's own document, or null for a token bound to no tenant (a platform operator's: it picks one). A
 * tenant-level session (a tenant named, no workspace) works on the tenant's: config-governance refuses a token bound
 * to one workspace the tenant's writes (403 TENANT_ADMIN_REQUIRED); any other on its workspace's.
 */
export function sessionScope(): GovScope | null {
  const { tenant, workspace } = scopeOf()
  if (!tenant) return null
  return { kind: workspace ? 'workspace' : 'tenant', tenant, workspace }
}

/** The tenant document under a scope (a workspace's or the tenant's own). */
export const tenantOf = (s: GovScope): GovScope => ({ kind: 'tenant', tenant: s.tenant, workspace: '' })

/** The gateway's selectors of the scope: the tenant's document is named by the tenant alone. */
function headers(s: GovScope): Record<string, string> {
  return selectors({ tenant_id: s.tenant, workspace_id: s.kind === 'workspace' ? s.workspace : '' })
}

const base = (s: GovScope) => `/api/security/config/${s.kind}`

export const readScope = (scope: GovScope) => api<ScopeConfig>(base(scope), { headers: headers(scope) })

/** The layer a field's effective value comes from (runtime > workspace > tenant > system > default). */
export type ConfigSource = 'runtime' | 'workspace' | 'tenant' | 'system' | 'default'

/** One field in effect; a key's `value` is always null: `set` says whether one is in effect, `source` from where. */
export interface EffectiveField {
  path: string
  value: unknown
  source: ConfigSource
  secret?: boolean
  set?: boolean
}

/** `GET /api/security/config/{kind}/effective`; `unavailable`: sections whose owning service did not answer. */
export interface EffectiveView {
  tenant_id: string
  workspace_id?: string
  fields: EffectiveField[]
  unavailable: { section: string; service: string; code: string; message: string }[]
}

export const readEffective = (scope: GovScope) =>
  api<EffectiveView>(`${base(scope)}/effective`, { headers: headers(scope) })

export const putScope = (scope: GovScope, body: Doc) =>
  api<PutAnswer>(base(scope), { method: 'PUT', body, headers: headers(scope) })

export const readHistory = (scope: GovScope) =>
  api<{ data: HistoryItem[]; total: number }>(`${base(scope)}/history`, {
    query: { page_size: 50 },
    headers: headers(scope),
  })

export const readEntry = (scope: GovScope, id: string) =>
  api<HistoryEntry>(`${base(scope)}/history/${encodeURIComponent(id)}`, { headers: headers(scope) })

/** A second administrator's yes to `approval_ref` + `change_ref`, recorded before the change runs. */
export const approveScope = (
  scope: GovScope,
  body: { change_ref: string; approval_ref: string; reason: string; notes: string },
) => api<unknown>(`${base(scope)}/approve`, { method: 'POST', body, headers: headers(scope) })

/** Undo one history entry (restore its `before`); high risk, so it needs an approval by someone else. */
export const rollbackScope = (
  scope: GovScope,
  id: string,
  body: { change_ref: string; approval_ref: string; reason: string },
) =>
  api<PutAnswer>(`${base(scope)}/rollback/${encodeURIComponent(id)}`, {
    method: 'POST',
    body: { ...body, confirm: true, restore: 'before' },
    headers: headers(scope),
  })

/** The risk and changed paths of these sections against the scope now: shown before anything is sent. */
export const previewScope = (scope: GovScope, body: Doc) =>
  api<Preview>(`${base(scope)}/preview`, { method: 'POST', body, headers: headers(scope) })

/** A high-risk change proposed to wait, unapplied, for a second administrator. */
export const proposeScope = (scope: GovScope, body: Doc) =>
  api<Pending>(`${base(scope)}/pending`, { method: 'POST', body, headers: headers(scope) })

export const readPending = (scope: GovScope) =>
  api<{ data: Pending[]; total: number }>(`${base(scope)}/pending`, {
    query: { page_size: 50 },
    headers: headers(scope),
  })

export const decidePending = (scope: GovScope, id: string, verb: 'approve' | 'reject' | 'withdraw', notes: string) =>
  api<unknown>(`${base(scope)}/pending/${encodeURIComponent(id)}/${verb}`, {
    method: 'POST',
    body: { notes },
    headers: headers(scope),
  })

/** A reviewer other than the executor reports on a change, check by check against its template. */
export const verifyScope = (
  scope: GovScope,
  id: string,
  body: {
    change_ref: string
    reason: string
    status: 'passed' | 'failed'
    notes: string
    evidence: string[]
    checks: { id: string; status: string }[]
  },
) =>
  api<{ governance_status: string }>(`${base(scope)}/verify/${encodeURIComponent(id)}`, {
    method: 'POST',
    body,
    headers: headers(scope),
  })
