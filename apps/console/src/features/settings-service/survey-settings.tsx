/**
 * A workspace's satisfaction-survey settings (tickets' ticket settings, `tickets.settings`): whether closing a ticket
 * sends a survey, and how many days its link answers (a resend's too). Read-only for anyone else.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { useAccess } from '../../lib/access.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import { keys, readTicketSettings, type TicketSettings, writeTicketSettings } from './api.ts'

function Form({ settings, canWrite, onSaved }: { settings: TicketSettings; canWrite: boolean; onSaved(): void }) {
  const { t } = useI18n()
  const client = useQueryClient()
  const [enabled, setEnabled] = useState(settings.survey_enabled)
  const [days, setDays] = useState(String(settings.survey_expiry_days))
  const [error, setError] = useState<unknown>(null)
  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    try {
      const next = await writeTicketSettings({ survey_enabled: enabled, survey_expiry_days: Number(days) })
      // the form starts again from the answer (its key is updated_at): the note is the parent's
      client.setQueryData(keys.tickets, next)
      onSaved()
    } catch (err) {
      setError(err)
    }
  }
  return (
    <form aria-label={t('svc.surveys.settings')} onSubmit={submit} className="svc-form">
      <label className="svc-check">
        <input
          type="checkbox"
          role="switch"
          aria-checked={enabled}
          checked={enabled}
          disabled={!canWrite}
          onChange={(e) => setEnabled(e.target.checked)}
        />
        {t('svc.surveys.enabled')}
      </label>
      <label>
        {t('svc.surveys.days')}
        <input
          type="number"
          min={1}
          max={90}
          required
          value={days}
          disabled={!canWrite}
          onChange={(e) => setDays(e.target.value)}
        />
      </label>
      {canWrite && <button type="submit">{t('svc.surveys.settings.save')}</button>}
      {error !== null && <ErrorText error={error} />}
    </form>
  )
}

export function SurveySettings() {
  const { t } = useI18n()
  const canWrite = useAccess().has('tickets.settings')
  const settings = useQuery({ queryKey: keys.tickets, queryFn: ({ signal }) => readTicketSettings(signal) })
  const [saved, setSaved] = useState(false)
  if (settings.isPending) return <Loading label={t('svc.loading')} />
  if (settings.error) return <ErrorText error={settings.error} />
  return (
    <>
      <Form
        key={settings.data.updated_at ?? 'default'}
        settings={settings.data}
        canWrite={canWrite}
        onSaved={() => setSaved(true)}
      />
      {saved && <p role="status">{t('svc.surveys.settings.saved')}</p>}
    </>
  )
}
