/** The workspace's SLA configs: the list, a new one, edit, and delete confirmed in place (its violations stay). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useAccess } from '../../lib/access.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { EmptyState, ErrorText, Loading } from '../../ui/status.tsx'
import { createSla, deleteSla, keys, listSla, type SlaConfig, updateSla } from './api.ts'
import { SlaForm } from './sla-form.tsx'

export function SlaConfigs() {
  const { t } = useI18n()
  const canWrite = useAccess().has('sla.write')
  const client = useQueryClient()
  const [editing, setEditing] = useState<SlaConfig | 'new' | null>(null)
  const [confirming, setConfirming] = useState<string | null>(null)
  const [note, setNote] = useState('')
  const list = useQuery({ queryKey: keys.sla, queryFn: ({ signal }) => listSla(signal) })
  const refresh = () => client.invalidateQueries({ queryKey: keys.sla })
  const remove = useMutation({
    mutationFn: (c: SlaConfig) => deleteSla(c.id).then(() => c),
    onSuccess: async (c) => {
      setConfirming(null)
      setNote(t('svc.sla.deleted', { name: c.name }))
      await refresh()
    },
  })
  const minutes = (n: number) => t('svc.minutes', { n })

  return (
    <section aria-labelledby="svc-sla" className="svc-section">
      <div className="svc-bar">
        <h2 id="svc-sla">{t('svc.sla')}</h2>
        {canWrite && editing === null && (
          <button type="button" onClick={() => setEditing('new')}>
            {t('svc.sla.new')}
          </button>
        )}
      </div>
      {editing !== null && (
        <SlaForm
          key={editing === 'new' ? 'new' : editing.id}
          config={editing === 'new' ? null : editing}
          onCancel={() => setEditing(null)}
          onSave={async (input) => {
            const saved = editing === 'new' ? await createSla(input) : await updateSla(editing.id, input)
            setEditing(null)
            setNote(t('svc.sla.saved', { name: saved.name }))
            await refresh()
          }}
        />
      )}
      {note && <p role="status">{note}</p>}
      {remove.error && <ErrorText error={remove.error} />}
      {list.isPending ? (
        <Loading label={t('svc.loading')} />
      ) : list.error ? (
        <ErrorText error={list.error} />
      ) : list.data.data.length === 0 ? (
        <EmptyState>{t('svc.sla.empty')}</EmptyState>
      ) : (
        <table className="admin-table" aria-label={t('svc.sla')}>
          <thead>
            <tr>
              <th scope="col">{t('svc.sla.name')}</th>
              <th scope="col">{t('svc.sla.priority')}</th>
              <th scope="col">{t('svc.sla.tier')}</th>
              <th scope="col">{t('svc.sla.firstResponse')}</th>
              <th scope="col">{t('svc.sla.resolution')}</th>
              <th scope="col">{t('svc.sla.escalation')}</th>
              <th scope="col">{t('svc.sla.warning')}</th>
              <th scope="col">{t('svc.sla.businessHoursOnly')}</th>
              <th scope="col">{t('svc.sla.active')}</th>
              {canWrite && <th scope="col">{t('svc.actions')}</th>}
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((c) => (
              <tr key={c.id}>
                <th scope="row">{c.name}</th>
                <td>{t(`svc.priority.${c.priority}`)}</td>
                <td>{c.customer_tier ? t(`svc.priority.${c.customer_tier}`) : t('svc.tier.any')}</td>
                <td>{minutes(c.first_response_time)}</td>
                <td>{minutes(c.resolution_time)}</td>
                <td>{minutes(c.escalation_time)}</td>
                <td>{c.warning_threshold}%</td>
                <td>{t(c.business_hours_only ? 'svc.yes' : 'svc.no')}</td>
                <td>{t(c.active ? 'svc.yes' : 'svc.no')}</td>
                {canWrite && (
                  <td className="svc-actions">
                    {confirming === c.id ? (
                      <>
                        <span>{t('svc.sla.deleteConfirm', { name: c.name })}</span>
                        <button type="button" className="danger" onClick={() => remove.mutate(c)}>
                          {t('svc.sla.deleteYes', { name: c.name })}
                        </button>
                        <button type="button" onClick={() => setConfirming(null)}>
                          {t('svc.cancel')}
                        </button>
                      </>
                    ) : (
                      <>
                        <button type="button" onClick={() => setEditing(c)}>
                          {t('svc.sla.edit', { name: c.name })}
                        </button>
                        <button type="button" onClick={() => setConfirming(c.id)}>
                          {t('svc.sla.delete', { name: c.name })}
                        </button>
                      </>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
