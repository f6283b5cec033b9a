/**
 * Satisfaction surveys: the workspace's survey settings, then the surveys sent when tickets closed, filtered by
 * status, and a fresh link for one that went astray — shown once, as the service hands it out only in the resend's
 * answer.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useAccess } from '../../lib/access.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { EmptyState, ErrorText, Loading } from '../../ui/status.tsx'
import { keys, listSurveys, resendSurvey } from './api.ts'
import { SurveySettings } from './survey-settings.tsx'

const STATUSES = ['', 'sent', 'completed', 'expired', 'queued'] as const

export function Surveys() {
  const { t, formatTime } = useI18n()
  const canWrite = useAccess().has('satisfaction.write')
  const client = useQueryClient()
  const [status, setStatus] = useState('')
  const [link, setLink] = useState<string | null>(null)
  const list = useQuery({ queryKey: keys.surveys(status), queryFn: ({ signal }) => listSurveys(status, signal) })
  const resend = useMutation({
    mutationFn: resendSurvey,
    onSuccess: async (s) => {
      setLink(new URL(s.link, window.location.origin).toString())
      await client.invalidateQueries({ queryKey: ['settings-service', 'surveys'] })
    },
  })
  return (
    <section aria-labelledby="svc-surveys" className="svc-section">
      <h2 id="svc-surveys">{t('svc.surveys')}</h2>
      <p className="svc-note">{t('svc.surveys.rules')}</p>
      <SurveySettings />
      <div className="admin-toolbar">
        <label>
          {t('svc.surveys.status')}
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`svc.surveys.status.${s || 'all'}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {link && (
        <section className="svc-form" aria-label={t('svc.surveys.link')}>
          <label>
            {t('svc.surveys.link')}
            <input readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <button type="button" onClick={() => setLink(null)}>
            {t('svc.surveys.done')}
          </button>
        </section>
      )}
      {resend.error && <ErrorText error={resend.error} />}
      {list.isPending ? (
        <Loading label={t('svc.loading')} />
      ) : list.error ? (
        <ErrorText error={list.error} />
      ) : list.data.data.length === 0 ? (
        <EmptyState>{t('svc.surveys.empty')}</EmptyState>
      ) : (
        <table className="admin-table" aria-label={t('svc.surveys')}>
          <thead>
            <tr>
              <th scope="col">{t('svc.surveys.ticket')}</th>
              <th scope="col">{t('svc.surveys.agent')}</th>
              <th scope="col">{t('svc.surveys.channel')}</th>
              <th scope="col">{t('svc.surveys.status')}</th>
              <th scope="col">{t('svc.surveys.sent')}</th>
              <th scope="col">{t('svc.surveys.expires')}</th>
              {canWrite && <th scope="col">{t('svc.actions')}</th>}
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((s) => (
              <tr key={s.id}>
                <th scope="row">
                  <code>{s.ticket_id}</code>
                </th>
                <td>{s.agent_name}</td>
                <td>{s.channel}</td>
                <td>{t(`svc.surveys.status.${s.status}`)}</td>
                <td>{formatTime(s.sent_at)}</td>
                <td>{formatTime(s.expires_at)}</td>
                {canWrite && (
                  <td>
                    {s.status !== 'completed' && (
                      <button type="button" onClick={() => resend.mutate(s.id)}>
                        {t('svc.surveys.resend', { ticket: s.ticket_id })}
                      </button>
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
