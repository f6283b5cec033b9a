/**
 * The reports' scope picker of a platform operator (a token bound to no tenant): every tenant, one tenant, or one of
 * its workspaces (the shared picker, lib/scope-picker.tsx, in the reports' words). A token with a tenant gets no
 * picker — its reports are its scope's, and the gateway would refuse another (403 SCOPE_CONFLICT).
 */
import { useI18n } from '../../lib/i18n.tsx'
import { ScopePicker as Picker, type Scope } from '../../lib/scope-picker.tsx'

export function ScopePicker({ scope, onChange }: { scope: Scope; onChange: (s: Scope) => void }) {
  const { t } = useI18n()
  const labels = {
    tenant: t('reports.scope.tenant'),
    workspace: t('reports.scope.workspace'),
    noTenant: t('reports.scope.allTenants'),
    noWorkspace: t('reports.scope.allWorkspaces'),
  }
  return <Picker scope={scope} onChange={onChange} labels={labels} />
}
