/**
 * The AI providers section of the admin area (a lazy chunk, `/admin/ai-providers`, platform administrators): each
 * external knowledge provider and the LLM with its state — configured, switched on, healthy — and its circuit
 * breaker (state, consecutive failures, when it opened, half-open trials), re-read every 5 s while open; "Reset"
 * closes a breaker on every replica after a confirmation, a switch turns a knowledge provider off or on. Both act
 * for every tenant, so they are shown only to a session bound to no tenant (api.ts); the API checks again.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { EmptyState, ErrorText, Loading } from '../../ui/status.tsx'
import {
  type AiStatus,
  type Breaker,
  type BreakerName,
  platformSession,
  readStatus,
  resetBreaker,
  statusKey,
  switchProvider,
} from './api.ts'
import './messages.ts'
import './ai-providers.css'

interface Row {
  id: BreakerName
  configured: boolean
  enabled: boolean | null
  health: string
  breaker: Breaker
}

function rowsOf(status: AiStatus, t: (k: string, v?: Record<string, string | number>) => string): Row[] {
  const providers: Row[] = status.providers.map((p) => ({
    id: p.id,
    configured: p.configured,
    enabled: p.enabled,
    health: !p.configured
      ? '—'
      : p.healthy
        ? t('ai.healthy', { ms: p.health?.latency_ms ?? 0 })
        : t('ai.unhealthy', { error: p.health?.error ?? '' }),
    breaker: p.breaker,
  }))
  return [
    ...providers,
    {
      id: 'llm',
      configured: status.llm.configured,
      enabled: null,
      health: status.llm.model,
      breaker: status.llm.breaker,
    },
  ]
}

function ResetButton({ name, onReset }: { name: string; onReset(): void }) {
  const { t } = useI18n()
  const [confirming, setConfirming] = useState(false)
  if (!confirming) {
    return (
      <button type="button" onClick={() => setConfirming(true)}>
        {t('ai.reset', { name })}
      </button>
    )
  }
  return (
    <span className="ai-confirm">
      <span>{t('ai.reset.confirm', { name })}</span>
      <button
        type="button"
        className="danger"
        onClick={() => {
          setConfirming(false)
          onReset()
        }}
      >
        {t('ai.reset.yes', { name })}
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        {t('ai.cancel')}
      </button>
    </span>
  )
}

export function AiProvidersScreen(_props: { path: string }) {
  const { t, formatTime } = useI18n()
  const client = useQueryClient()
  const canReset = platformSession()
  const [note, setNote] = useState('')
  const status = useQuery({ queryKey: statusKey, queryFn: ({ signal }) => readStatus(signal), refetchInterval: 5000 })
  const reset = useMutation({
    mutationFn: resetBreaker,
    onSuccess: async (_answer, name) => {
      setNote(t('ai.reset.done', { name: t(`ai.name.${name}`) }))
      await client.invalidateQueries({ queryKey: statusKey })
    },
  })
  const toggle = useMutation({
    mutationFn: ({ id, on }: { id: 'primary' | 'compatibility'; on: boolean }) => switchProvider(id, on),
    onSuccess: async (_answer, { id, on }) => {
      setNote(t(on ? 'ai.switch.on' : 'ai.switch.off', { name: t(`ai.name.${id}`) }))
      await client.invalidateQueries({ queryKey: statusKey })
    },
  })
  const rows = status.data ? rowsOf(status.data, t) : []
  return (
    <div className="admin-page ai-screen">
      <h1>{t('ai.title')}</h1>
      {!canReset && <p className="ai-note">{t('ai.readOnly')}</p>}
      {note && <p role="status">{note}</p>}
      {reset.error && <ErrorText error={reset.error} />}
      {toggle.error && <ErrorText error={toggle.error} />}
      {status.isPending ? (
        <Loading label={t('ai.loading')} />
      ) : status.error ? (
        <ErrorText error={status.error} />
      ) : rows.length === 0 ? (
        <EmptyState>{t('ai.empty')}</EmptyState>
      ) : (
        <>
          <table className="admin-table" aria-label={t('ai.table')}>
            <thead>
              <tr>
                <th scope="col">{t('ai.col.name')}</th>
                <th scope="col">{t('ai.col.configured')}</th>
                <th scope="col">{t('ai.col.enabled')}</th>
                <th scope="col">{t('ai.col.health')}</th>
                <th scope="col">{t('ai.col.breaker')}</th>
                <th scope="col">{t('ai.col.failures')}</th>
                <th scope="col">{t('ai.col.opened')}</th>
                <th scope="col">{t('ai.col.trials')}</th>
                {canReset && <th scope="col">{t('ai.col.actions')}</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const name = t(`ai.name.${r.id}`)
                const state = r.breaker.error ? 'unknown' : r.breaker.state
                return (
                  <tr key={r.id} data-breaker={r.id}>
                    <th scope="row">{name}</th>
                    <td>{t(r.configured ? 'ai.yes' : 'ai.no')}</td>
                    <td>
                      {r.enabled === null ? (
                        '—'
                      ) : canReset && r.id !== 'llm' && r.configured ? (
                        <input
                          type="checkbox"
                          role="switch"
                          aria-label={t('ai.switch', { name })}
                          aria-checked={r.enabled}
                          checked={r.enabled}
                          disabled={toggle.isPending}
                          onChange={(e) =>
                            toggle.mutate({ id: r.id as 'primary' | 'compatibility', on: e.target.checked })
                          }
                        />
                      ) : (
                        t(r.enabled ? 'ai.yes' : 'ai.no')
                      )}
                    </td>
                    <td>{r.health}</td>
                    <td>
                      <span className={`ai-state ai-state-${state}`}>{t(`ai.state.${state}`)}</span>
                      {r.breaker.error && <span className="ai-note"> {r.breaker.error}</span>}
                    </td>
                    <td>{r.breaker.failure_count}</td>
                    <td>
                      {r.breaker.opened_at === null ? '—' : formatTime(new Date(r.breaker.opened_at).toISOString())}
                    </td>
                    <td>{r.breaker.half_open_requests}</td>
                    {canReset && (
                      <td>
                        <ResetButton name={name} onReset={() => reset.mutate(r.id)} />
                      </td>
                    )}
                  </tr>
                )
              })}
            </tbody>
          </table>
          <p className="ai-note">
            {t('ai.fallback', { order: status.data.fallback.order.map((o) => t(`ai.name.${o}`)).join(' → ') })}
          </p>
        </>
      )}
    </div>
  )
}
