/**
 * What a platform operator's session (a token bound to no tenant) works on: it has no document of its own, so the
 * screen first asks for a tenant (its tenant document) or a tenant and one of its workspaces (that workspace's), with
 * the shared picker (lib/scope-picker.tsx); every read and write then sends that scope's selectors.
 */
import { useI18n } from '../../lib/i18n.tsx'
import { type Scope, ScopePicker } from '../../lib/scope-picker.tsx'
import type { GovScope } from './api.ts'
import './messages.ts'

/** The document of a picked scope: none until a tenant is chosen. */
export const pickedScope = (s: Scope): GovScope | null =>
  s.tenant_id ? { kind: s.workspace_id ? 'workspace' : 'tenant', tenant: s.tenant_id, workspace: s.workspace_id } : null

export function GovScopePicker({ scope, onChange }: { scope: Scope; onChange: (s: Scope) => void }) {
  const { t } = useI18n()
  const labels = {
    tenant: t('gov.pick.tenant'),
    workspace: t('gov.pick.workspace'),
    noTenant: t('gov.pick.noTenant'),
    noWorkspace: t('gov.pick.tenantItself'),
  }
  return (
    <form className="admin-toolbar" aria-label={t('gov.pick')} onSubmit={(e) => e.preventDefault()}>
      <ScopePicker scope={scope} onChange={onChange} labels={labels} />
    </form>
  )
}
