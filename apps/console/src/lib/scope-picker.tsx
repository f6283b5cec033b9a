/**
 * A platform operator's scope (a token bound to no tenant): a tenant and maybe one of its workspaces from identity's
 * registry, sent as the gateway's selectors (docs/api.md "Selectors": an unscoped token with selectors is narrowed to
 * them). Shared by Reports (every tenant, a tenant or a workspace) and Configuration (a tenant's or a workspace's
 * document); each screen names the empty choices. A token with a tenant gets no picker: the gateway would refuse
 * another scope (403 SCOPE_CONFLICT).
 */
import { useQuery } from '@tanstack/react-query'
import { claimsOf } from './access.ts'
import { api, getAccessToken, type Page } from './http.ts'

/** Empty `tenant_id`: no tenant chosen; empty `workspace_id`: the tenant as a whole. */
export interface Scope {
  tenant_id: string
  workspace_id: string
}

export const ALL: Scope = { tenant_id: '', workspace_id: '' }

/** The gateway's selectors of a scope (none for no tenant; a workspace only with its tenant). */
export const selectors = (s: Scope): Record<string, string> => ({
  ...(s.tenant_id ? { 'X-Tenant-ID': s.tenant_id } : {}),
  ...(s.tenant_id && s.workspace_id ? { 'X-Workspace-ID': s.workspace_id } : {}),
})

/** Whether the session's token is bound to no tenant (a platform operator's): the one that may pick. */
export const unscopedSession = (): boolean => !claimsOf(getAccessToken())?.tenant_id

export interface Registered {
  id: string
  name: string
}

export const registryKeys = {
  tenants: ['registry', 'tenants'] as const,
  workspaces: (tenant: string) => ['registry', 'workspaces', tenant] as const,
}

/** identity's registry (platform operators): the tenants, and a tenant's workspaces */
export const getTenants = (signal?: AbortSignal) =>
  api<Page<Registered>>('/api/security/tenants', { query: { page: 1, page_size: 100 }, signal })
export const getWorkspaces = (tenant: string, signal?: AbortSignal) =>
  api<Page<Registered>>(`/api/security/tenants/${encodeURIComponent(tenant)}/workspaces`, {
    query: { page: 1, page_size: 100 },
    signal,
  })

const named = (x: Registered) => (x.name && x.name !== x.id ? `${x.name} (${x.id})` : x.id)

/** The two selects' labels and their empty choices' names, in the screen's words. */
export interface PickerLabels {
  tenant: string
  workspace: string
  /** the empty tenant choice: every tenant, or none chosen yet */
  noTenant: string
  /** the empty workspace choice: every workspace, or the tenant itself */
  noWorkspace: string
}

export function ScopePicker(props: { scope: Scope; onChange: (s: Scope) => void; labels: PickerLabels }) {
  const { scope, onChange, labels } = props
  const tenants = useQuery({ queryKey: registryKeys.tenants, queryFn: ({ signal }) => getTenants(signal) })
  const workspaces = useQuery({
    queryKey: registryKeys.workspaces(scope.tenant_id),
    queryFn: ({ signal }) => getWorkspaces(scope.tenant_id, signal),
    enabled: Boolean(scope.tenant_id),
  })
  return (
    <>
      <label>
        <span>{labels.tenant}</span>
        <select
          value={scope.tenant_id}
          onChange={(e) => onChange(e.target.value ? { tenant_id: e.target.value, workspace_id: '' } : ALL)}
        >
          <option value="">{labels.noTenant}</option>
          {(tenants.data?.data ?? []).map((x) => (
            <option key={x.id} value={x.id}>
              {named(x)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>{labels.workspace}</span>
        <select
          value={scope.workspace_id}
          disabled={!scope.tenant_id}
          onChange={(e) => onChange({ ...scope, workspace_id: e.target.value })}
        >
          <option value="">{labels.noWorkspace}</option>
          {(scope.tenant_id ? (workspaces.data?.data ?? []) : []).map((x) => (
            <option key={x.id} value={x.id}>
              {named(x)}
            </option>
          ))}
        </select>
      </label>
    </>
  )
}
