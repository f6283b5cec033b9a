/** How new tickets are handled: auto-assignment (tickets' `tickets.settings`, which agents' tickets.write lacks). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useAccess } from '../../lib/access.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import { keys, readTicketSettings, writeTicketSettings } from './api.ts'

export function TicketHandling() {
  const { t } = useI18n()
  const canWrite = useAccess().has('tickets.settings')
  const client = useQueryClient()
  const settings = useQuery({ queryKey: keys.tickets, queryFn: ({ signal }) => readTicketSettings(signal) })
  const save = useMutation({
    mutationFn: writeTicketSettings,
    onSuccess: (next) => client.setQueryData(keys.tickets, next),
  })
  return (
    <section aria-labelledby="svc-tickets" className="svc-section">
      <h2 id="svc-tickets">{t('svc.tickets')}</h2>
      {settings.isPending ? (
        <Loading label={t('svc.loading')} />
      ) : settings.error ? (
        <ErrorText error={settings.error} />
      ) : (
        <>
          <label className="svc-check">
            <input
              type="checkbox"
              role="switch"
              aria-checked={settings.data.auto_assign}
              checked={settings.data.auto_assign}
              disabled={!canWrite || save.isPending}
              onChange={(e) => save.mutate({ auto_assign: e.target.checked })}
            />
            {t('svc.tickets.autoAssign')}
          </label>
          <p className="svc-note">{settings.data.is_default ? t('svc.tickets.default') : t('svc.tickets.hint')}</p>
          {save.isSuccess && <p role="status">{t('svc.tickets.saved')}</p>}
          {save.error && <ErrorText error={save.error} />}
        </>
      )}
    </section>
  )
}
