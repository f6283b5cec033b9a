/**
 * The agent's own presence in the header — online / away / offline — as identity's agent record holds it (routing
 * assigns only to agents online). A user with no agent record in the workspace (404) gets no control.
 */
import { useMutation, useQuery } from '@tanstack/react-query'
import { ApiError } from '../../lib/http.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { queryClient } from '../../lib/query.ts'
import { ErrorText } from '../../ui/status.tsx'
import { fetchOwnAgent, PRESENCE_STATUSES, type Presence, presenceKey, setOwnStatus } from './api.ts'
import './messages.ts'
import './presence.css'

export function PresenceControl() {
  const { t } = useI18n()
  const agent = useQuery({
    queryKey: presenceKey,
    queryFn: ({ signal }) => fetchOwnAgent(signal),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  })
  const change = useMutation({
    mutationFn: setOwnStatus,
    onSuccess: (updated) => queryClient.setQueryData(presenceKey, updated),
  })
  if (!agent.data) return null
  const current = change.isPending ? change.variables : agent.data.status
  return (
    <fieldset className="presence-control">
      <legend className="visually-hidden">{t('presence.label')}</legend>
      {PRESENCE_STATUSES.map((status) => (
        <label key={status} data-status={status}>
          <input
            type="radio"
            name="presence"
            value={status}
            checked={current === status}
            disabled={change.isPending}
            onChange={() => change.mutate(status as Presence)}
          />
          {t(`presence.${status}`)}
        </label>
      ))}
      {change.error && <ErrorText error={change.error} />}
    </fieldset>
  )
}
