/** The audit service's reads (services/audit README "Out"), through the gateway with the user's token. */
import { ApiError, api, buildUrl, getAccessToken, type Page, refreshAccessToken } from '../../lib/http.ts'

export interface AuditRecord {
  id: string
  created_at: string
  tenant_id: string
  workspace_id: string
  actor_user_id: string
  principal_kind: string
  action: string
  resource_type: string
  resource_id: string
  route: string
  method: string
  status_code: number
  success: boolean
  request_id: string
  client_ip: string
  user_agent: string
  request_json: unknown
  before_json: unknown
  after_json: unknown
  sanitised?: boolean
}

export interface AuditChange {
  path: string
  type: 'added' | 'removed' | 'updated'
  before?: unknown
  after?: unknown
}

export interface AuditDiff {
  audit: AuditRecord
  diff: {
    has_before: boolean
    has_after: boolean
    changed: boolean
    change_count: number
    changed_paths: string[]
    changes: AuditChange[]
  }
}

/** The list's filters as the service names them; '' is "any". */
export interface AuditFilters {
  action: string
  resource: string
  principal: string
  actor: string
  success: '' | 'true' | 'false'
  start_date: string
  end_date: string
}

export const NO_FILTERS: AuditFilters = {
  action: '',
  resource: '',
  principal: '',
  actor: '',
  success: '',
  start_date: '',
  end_date: '',
}

export const PAGE_SIZE = 50
/** the service's cap on one export */
export const EXPORT_LIMIT = 5000

export const auditKeys = {
  list: (filters: AuditFilters, page: number) => ['audit', 'list', filters, page] as const,
  diff: (id: string) => ['audit', 'diff', id] as const,
}

export function listAudit(filters: AuditFilters, page: number, signal?: AbortSignal): Promise<Page<AuditRecord>> {
  return api<Page<AuditRecord>>('/api/audit/logs', { query: { ...filters, page, page_size: PAGE_SIZE }, signal })
}

export function auditDiff(id: string, signal?: AbortSignal): Promise<AuditDiff> {
  return api<AuditDiff>(`/api/audit/logs/${encodeURIComponent(id)}/diff`, { signal })
}

/** The filtered view as the service's CSV (`/api/audit/logs/export`, same filters, up to EXPORT_LIMIT records). */
export async function exportAuditCsv(filters: AuditFilters): Promise<Blob> {
  const url = buildUrl('/api/audit/logs/export', { ...filters, limit: EXPORT_LIMIT })
  const get = (token: string | null) =>
    fetch(url, { headers: token ? { authorization: `Bearer ${token}`, accept: 'text/csv' } : {} })
  let res = await get(getAccessToken())
  if (res.status === 401) res = await get(await refreshAccessToken())
  if (!res.ok) {
    const body = await res.json().catch(() => ({}))
    throw new ApiError(res.status, body)
  }
  return res.blob()
}
