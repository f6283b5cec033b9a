/**
 * One tenant's workspaces: status (disable/enable), the public registration and widget switches (identity's scope
 * settings, each saved as it is flipped; a workspace's effective value is its own AND its tenant's) and the sites
 * that may embed the widget (governed portal configuration: shown here, changed on the Configuration screen).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { Link } from '../../lib/router.tsx'
import { EmptyState, ErrorText, Loading } from '../../ui/status.tsx'
import {
  createWorkspace,
  keys,
  listWorkspaces,
  type ScopeSettings,
  setWorkspaceSettings,
  setWorkspaceStatus,
  type Workspace,
  widgetOrigins,
} from './api.ts'
import { CreateScopeForm } from './create-form.tsx'
import { StatusAction } from './status-action.tsx'
import { Switch } from './switch.tsx'

function Origins({ tenant, workspace }: { tenant: string; workspace: string }) {
  const { t } = useI18n()
  const origins = useQuery({
    queryKey: keys.origins(tenant, workspace),
    queryFn: ({ signal }) => widgetOrigins(tenant, workspace, signal),
  })
  if (origins.isPending) return <span>{t('ws.loading')}</span>
  if (origins.error) return <ErrorText error={origins.error} />
  return <span>{origins.data.length === 0 ? t('ws.origins.any') : origins.data.join(', ')}</span>
}

export function WorkspaceList({ tenant, canWrite }: { tenant: string; canWrite: boolean }) {
  const { t } = useI18n()
  const client = useQueryClient()
  const [note, setNote] = useState('')
  const list = useQuery({ queryKey: keys.workspaces(tenant), queryFn: ({ signal }) => listWorkspaces(tenant, signal) })
  const refresh = () => client.invalidateQueries({ queryKey: keys.workspaces(tenant) })
  const settings = useMutation({
    mutationFn: ({ ws, patch }: { ws: Workspace; patch: Partial<ScopeSettings> }) =>
      setWorkspaceSettings(tenant, ws.id, patch),
    onSuccess: async (ws) => {
      setNote(t('ws.saved', { name: ws.id }))
      await refresh()
    },
  })
  const status = useMutation({
    mutationFn: ({ id, to }: { id: string; to: 'enable' | 'disable' }) => setWorkspaceStatus(tenant, id, to),
    onSuccess: async (ws) => {
      setNote(t(ws.status === 'active' ? 'ws.enabled' : 'ws.disabled', { name: ws.id }))
      await refresh()
    },
  })
  const busy = settings.isPending || status.isPending
  const title = t('ws.workspaces', { tenant })
  return (
    <section aria-labelledby="ws-workspaces">
      <h2 id="ws-workspaces">{title}</h2>
      {canWrite && (
        <CreateScopeForm
          title={t('ws.workspace.create')}
          submit={async (body) => {
            await createWorkspace(tenant, body)
            await refresh()
          }}
        />
      )}
      {note && <p role="status">{note}</p>}
      {settings.error && <ErrorText error={settings.error} />}
      {status.error && <ErrorText error={status.error} />}
      {list.isPending ? (
        <Loading label={t('ws.loading')} />
      ) : list.error ? (
        <ErrorText error={list.error} />
      ) : list.data.data.length === 0 ? (
        <EmptyState>{t('ws.workspaces.empty')}</EmptyState>
      ) : (
        <table className="admin-table" aria-label={title}>
          <thead>
            <tr>
              <th scope="col">{t('ws.col.id')}</th>
              <th scope="col">{t('ws.col.name')}</th>
              <th scope="col">{t('ws.col.status')}</th>
              <th scope="col">{t('ws.col.registration')}</th>
              <th scope="col">{t('ws.col.widget')}</th>
              <th scope="col">{t('ws.col.origins')}</th>
              {canWrite && <th scope="col">{t('ws.col.actions')}</th>}
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((ws) => (
              <tr key={ws.id}>
                <th scope="row">{ws.id}</th>
                <td>{ws.name}</td>
                <td>{t(`ws.status.${ws.status}`)}</td>
                <td>
                  {canWrite ? (
                    <Switch
                      label={t('ws.switch.registration', { name: ws.id })}
                      checked={ws.settings.public_registration}
                      disabled={busy}
                      onChange={(v) => settings.mutate({ ws, patch: { public_registration: v } })}
                    />
                  ) : (
                    t(ws.settings.public_registration ? 'ws.on' : 'ws.off')
                  )}
                </td>
                <td>
                  {canWrite ? (
                    <Switch
                      label={t('ws.switch.widget', { name: ws.id })}
                      checked={ws.settings.widget_enabled}
                      disabled={busy}
                      onChange={(v) => settings.mutate({ ws, patch: { widget_enabled: v } })}
                    />
                  ) : (
                    t(ws.settings.widget_enabled ? 'ws.on' : 'ws.off')
                  )}
                </td>
                <td>
                  <Origins tenant={tenant} workspace={ws.id} />
                </td>
                {canWrite && (
                  <td className="ws-actions">
                    <StatusAction
                      name={ws.id}
                      status={ws.status}
                      onChange={(to) => {
                        setNote('')
                        status.mutate({ id: ws.id, to })
                      }}
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="ws-note">
        {t('ws.origins.note')} <Link href="/admin/configuration">{t('ws.origins.link')}</Link>
      </p>
    </section>
  )
}
