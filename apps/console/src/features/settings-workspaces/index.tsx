/**
 * The Workspaces section of the admin area (a lazy chunk, platform administrators): `/admin/workspaces` lists the
 * tenants of the registry (create, disable/enable, their registration and widget switches), `/admin/workspaces/:tenant` that tenant's workspaces with their
 * widget and registration switches. Writes are shown only to a platform session (see api.ts); a platform
 * administrator signed in to one tenant reads that tenant and is told why it cannot change it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { Link, matchPath } from '../../lib/router.tsx'
import { EmptyState, ErrorText, Loading } from '../../ui/status.tsx'
import {
  createTenant,
  keys,
  listTenants,
  platformSession,
  type ScopeSettings,
  setTenantSettings,
  setTenantStatus,
  type Tenant,
} from './api.ts'
import { CreateScopeForm } from './create-form.tsx'
import { StatusAction } from './status-action.tsx'
import { Switch } from './switch.tsx'
import { WorkspaceList } from './workspaces.tsx'
import './messages.ts'
import './workspaces.css'

const BASE = '/admin/workspaces'

function TenantList({ canWrite }: { canWrite: boolean }) {
  const { t } = useI18n()
  const client = useQueryClient()
  const [note, setNote] = useState('')
  const tenants = useQuery({ queryKey: keys.tenants, queryFn: ({ signal }) => listTenants(signal) })
  const status = useMutation({
    mutationFn: ({ id, to }: { id: string; to: 'enable' | 'disable' }) => setTenantStatus(id, to),
    onSuccess: async (tenant) => {
      setNote(t(tenant.status === 'active' ? 'ws.enabled' : 'ws.disabled', { name: tenant.id }))
      await client.invalidateQueries({ queryKey: keys.tenants })
    },
  })
  const settings = useMutation({
    mutationFn: ({ tenant, patch }: { tenant: Tenant; patch: Partial<ScopeSettings> }) =>
      setTenantSettings(tenant.id, patch),
    onSuccess: async (tenant) => {
      setNote(t('ws.saved', { name: tenant.id }))
      await client.invalidateQueries({ queryKey: keys.tenants })
    },
  })
  const busy = settings.isPending || status.isPending
  const setting = (tenant: Tenant, key: keyof ScopeSettings, label: string) =>
    canWrite ? (
      <Switch
        label={t(label, { name: tenant.id })}
        checked={tenant.settings[key]}
        disabled={busy}
        onChange={(v) => settings.mutate({ tenant, patch: { [key]: v } })}
      />
    ) : (
      t(tenant.settings[key] ? 'ws.on' : 'ws.off')
    )
  return (
    <section aria-labelledby="ws-tenants">
      <h2 id="ws-tenants">{t('ws.tenants')}</h2>
      {canWrite && (
        <CreateScopeForm
          title={t('ws.tenant.create')}
          submit={async (body) => {
            await createTenant(body)
            await client.invalidateQueries({ queryKey: keys.tenants })
          }}
        />
      )}
      {note && <p role="status">{note}</p>}
      {status.error && <ErrorText error={status.error} />}
      {settings.error && <ErrorText error={settings.error} />}
      {tenants.isPending ? (
        <Loading label={t('ws.loading')} />
      ) : tenants.error ? (
        <ErrorText error={tenants.error} />
      ) : tenants.data.data.length === 0 ? (
        <EmptyState>{t('ws.tenants.empty')}</EmptyState>
      ) : (
        <table className="admin-table" aria-label={t('ws.tenants')}>
          <thead>
            <tr>
              <th scope="col">{t('ws.col.id')}</th>
              <th scope="col">{t('ws.col.name')}</th>
              <th scope="col">{t('ws.col.status')}</th>
              <th scope="col">{t('ws.col.registration')}</th>
              <th scope="col">{t('ws.col.widget')}</th>
              <th scope="col">{t('ws.col.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {tenants.data.data.map((tenant) => (
              <tr key={tenant.id}>
                <th scope="row">{tenant.id}</th>
                <td>{tenant.name}</td>
                <td>{t(`ws.status.${tenant.status}`)}</td>
                <td>{setting(tenant, 'public_registration', 'ws.switch.registration')}</td>
                <td>{setting(tenant, 'widget_enabled', 'ws.switch.widget')}</td>
                <td className="ws-actions">
                  <Link href={`${BASE}/${encodeURIComponent(tenant.id)}`}>{t('ws.open', { name: tenant.id })}</Link>
                  {canWrite && (
                    <StatusAction
                      name={tenant.id}
                      status={tenant.status}
                      onChange={(to) => {
                        setNote('')
                        status.mutate({ id: tenant.id, to })
                      }}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

export function WorkspacesScreen({ path }: { path: string }) {
  const { t } = useI18n()
  const canWrite = platformSession()
  const tenant = matchPath(`${BASE}/:tenant`, path)?.tenant
  return (
    <div className="admin-page ws-screen">
      <h1>{t('ws.title')}</h1>
      {!canWrite && <p className="ws-note">{t('ws.readOnly')}</p>}
      {tenant ? (
        <>
          <Link href={BASE}>{t('ws.back')}</Link>
          <WorkspaceList tenant={tenant} canWrite={canWrite} />
        </>
      ) : (
        <TenantList canWrite={canWrite} />
      )}
    </div>
  )
}
