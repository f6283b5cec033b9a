/**
 * The scope picker of a platform operator (a token bound to no tenant): every tenant, one tenant, or one of its
 * workspaces, from identity's registry. A token with a tenant gets no picker — its reports are its scope's, and the
 * gateway would refuse another (403 SCOPE_CONFLICT).
 */
import { useQuery } from '@tanstack/react-query'
import { useI18n } from '../../lib/i18n.tsx'
import { ALL, getTenants, getWorkspaces, reportKeys, type Scope } from './api.ts'

export function ScopePicker({ scope, onChange }: { scope: Scope; onChange: (s: Scope) => void }) {
  const { t } = useI18n()
  const tenants = useQuery({ queryKey: reportKeys.tenants, queryFn: ({ signal }) => getTenants(signal) })
  const workspaces = useQuery({
    queryKey: reportKeys.workspaces(scope.tenant_id),
    queryFn: ({ signal }) => getWorkspaces(scope.tenant_id, signal),
    enabled: Boolean(scope.tenant_id),
  })
  return (
    <>
      <label>
        <span>{t('reports.scope.tenant')}</span>
        <select
          value={scope.tenant_id}
          onChange={(e) => onChange(e.target.value ? { tenant_id: e.target.value, workspace_id: '' } : ALL)}
        >
          <option value="">{t('reports.scope.allTenants')}</option>
          {(tenants.data?.data ?? []).map((x) => (
            <option key={x.id} value={x.id}>
              {x.name && x.name !== x.id ? `${x.name} (${x.id})` : x.id}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>{t('reports.scope.workspace')}</span>
        <select
          value={scope.workspace_id}
          disabled={!scope.tenant_id}
          onChange={(e) => onChange({ ...scope, workspace_id: e.target.value })}
        >
          <option value="">{t('reports.scope.allWorkspaces')}</option>
          {(scope.tenant_id ? (workspaces.data?.data ?? []) : []).map((x) => (
            <option key={x.id} value={x.id}>
              {x.name && x.name !== x.id ? `${x.name} (${x.id})` : x.id}
            </option>
          ))}
        </select>
      </label>
    </>
  )
}
