/**
 * Supervision (a lazy chunk of the admin area, `/admin/supervision`; supervisors and admins): the workspace's agents
 * with their status and load against capacity, the waiting queue's length and oldest wait, the hub's sockets in the
 * caller's scope (`/api/v1/ws/stats?scope=cluster`) and statistics' projection lag. Live from the hub: `presence`
 * frames (identity's agent events) move an agent's row in place with no request (presence.ts); queue and hand-over
 * frames refetch the queue and the agents; a resync refetches everything. What no frame announces is asked again on
 * a timer: the sockets and the lag every few seconds, the agents and the queue every AGENTS_REFETCH_MS as a safety
 * net (an assignment the supervisor's console gets no frame of moves an agent's load).
 */
import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { useAccess } from '../../lib/access.ts'
import { ApiError } from '../../lib/http.ts'
import type { HubFrame } from '../../lib/hub.ts'
import { useHubFrames, useHubResync } from '../../lib/hub-hooks.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { invalidate } from '../../lib/query.ts'
import { ErrorText, Loading } from '../../ui/status.tsx'
import {
  formatWait,
  getAgents,
  getLag,
  getSockets,
  getWaiting,
  oldestQueuedAt,
  type SupervisedAgent,
  supervisionKeys,
} from './api.ts'
import './messages.ts'
import { onPresenceFrame } from './presence.ts'
import './supervision.css'

/** how often the sockets and the lag are asked again: no frame tells of them (ms) */
export const REFETCH_MS = 5_000
/** the agents and the queue: their frames keep them current, this only catches what no frame told (ms) */
export const AGENTS_REFETCH_MS = 60_000
const STATUSES = ['online', 'busy', 'away', 'offline'] as const
/** frames after which the queue or an agent's load may have changed */
const LIVE_FRAMES = new Set(['waiting_notification', 'transfer_notification', 'session'])

function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), everyMs)
    return () => clearInterval(id)
  }, [everyMs])
  return now
}

function Figure({ id, label, value, since }: { id: string; label: string; value: string; since?: string }) {
  return (
    <li className="admin-figure" aria-labelledby={`sv-${id}`}>
      <span id={`sv-${id}`} className="admin-figure-label">
        {label}
      </span>
      <span className="admin-figure-value supervision-card-value" data-figure={id} data-since={since}>
        {value}
      </span>
    </li>
  )
}

function AgentTable({ agents }: { agents: SupervisedAgent[] }) {
  const { t, formatNumber } = useI18n()
  const sorted = useMemo(
    () =>
      [...agents].sort(
        (a, b) =>
          STATUSES.indexOf(a.status as never) - STATUSES.indexOf(b.status as never) || a.name.localeCompare(b.name),
      ),
    [agents],
  )
  if (!agents.length) return <p className="placeholder">{t('supervision.agents.empty')}</p>
  return (
    <table className="admin-table" aria-label={t('supervision.agents')}>
      <thead>
        <tr>
          <th scope="col">{t('supervision.col.agent')}</th>
          <th scope="col">{t('supervision.col.status')}</th>
          <th scope="col">{t('supervision.col.load')}</th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((a) => {
          const full = a.max_concurrent > 0 && a.current_load >= a.max_concurrent
          return (
            <tr key={a.id} data-agent={a.id}>
              <th scope="row">{a.name}</th>
              <td>
                <span className="supervision-status" data-status={a.status}>
                  {t(`supervision.status.${a.status}`)}
                </span>
              </td>
              <td data-full={full || undefined}>
                {t('supervision.load', {
                  load: formatNumber(a.current_load),
                  capacity: formatNumber(a.max_concurrent),
                })}
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

export function SupervisionScreen(_: { path: string }) {
  const { t, formatNumber, formatTime } = useI18n()
  const access = useAccess()
  const now = useNow(1_000)
  const live = { refetchInterval: REFETCH_MS, refetchIntervalInBackground: false, retry: false } as const
  const framed = { ...live, refetchInterval: AGENTS_REFETCH_MS }
  const agents = useQuery({ queryKey: supervisionKeys.agents, queryFn: ({ signal }) => getAgents(signal), ...framed })
  const waiting = useQuery({
    queryKey: supervisionKeys.waiting,
    queryFn: ({ signal }) => getWaiting(signal),
    ...framed,
  })
  // the hub's counts in the caller's scope (staff); should a deployment refuse them (403), the block is left out
  const sockets = useQuery({ queryKey: supervisionKeys.sockets, queryFn: ({ signal }) => getSockets(signal), ...live })
  const socketsRefused = sockets.error instanceof ApiError && sockets.error.status === 403
  const lag = useQuery({
    queryKey: supervisionKeys.lag,
    queryFn: ({ signal }) => getLag(signal),
    enabled: access.has('statistics.read'),
    ...live,
    refetchInterval: 3 * REFETCH_MS,
  })

  useHubFrames((frame: HubFrame) => {
    if (frame.type === 'presence') return onPresenceFrame(frame)
    if (!LIVE_FRAMES.has(frame.type)) return
    void invalidate(supervisionKeys.waiting)
    void invalidate(supervisionKeys.agents)
  })
  useHubResync(() => {
    void invalidate(supervisionKeys.all)
  })

  const counts = useMemo(() => {
    const c: Record<string, number> = { online: 0, busy: 0, away: 0, offline: 0 }
    for (const a of agents.data ?? []) c[a.status] = (c[a.status] ?? 0) + 1
    return c
  }, [agents.data])
  const oldest = waiting.data ? oldestQueuedAt(waiting.data.items) : null
  const updated = Math.max(agents.dataUpdatedAt, waiting.dataUpdatedAt)
  const maxLag = lag.data ? Math.max(0, ...lag.data.projections.map((p) => p.lag_seconds)) : 0

  return (
    <section className="admin-page supervision" aria-labelledby="supervision-title">
      <h1 id="supervision-title">{t('supervision.title')}</h1>
      {updated ? (
        <p className="supervision-updated">
          {t('supervision.live', { time: formatTime(new Date(updated).toISOString()) })}
        </p>
      ) : null}

      <section className="supervision-block" aria-labelledby="sv-queue-title">
        <h2 id="sv-queue-title">{t('supervision.queue')}</h2>
        <ErrorText error={waiting.error} />
        {waiting.isPending ? (
          <Loading label={t('supervision.loading')} />
        ) : waiting.data ? (
          <ul className="admin-figures" aria-labelledby="sv-queue-title">
            <Figure id="queue_length" label={t('supervision.queue.length')} value={formatNumber(waiting.data.count)} />
            <Figure
              id="oldest_wait"
              label={t('supervision.queue.oldest')}
              value={oldest ? formatWait((now - Date.parse(oldest)) / 1000) : t('supervision.queue.none')}
              since={oldest ?? undefined}
            />
          </ul>
        ) : null}
      </section>

      <section className="supervision-block" aria-labelledby="sv-agents-title">
        <h2 id="sv-agents-title">{t('supervision.agents')}</h2>
        <ErrorText error={agents.error} />
        {agents.isPending ? (
          <Loading label={t('supervision.loading')} />
        ) : agents.data ? (
          <>
            <p className="supervision-summary" data-figure="agents_summary">
              {t('supervision.agents.summary', {
                online: formatNumber(counts.online ?? 0),
                busy: formatNumber(counts.busy ?? 0),
                away: formatNumber(counts.away ?? 0),
                offline: formatNumber(counts.offline ?? 0),
              })}
            </p>
            <AgentTable agents={agents.data} />
          </>
        ) : null}
      </section>

      {!socketsRefused ? (
        <section className="supervision-block" aria-labelledby="sv-sockets-title">
          <h2 id="sv-sockets-title">{t('supervision.sockets')}</h2>
          <ErrorText error={sockets.error} />
          {sockets.data ? (
            <ul className="admin-figures" aria-labelledby="sv-sockets-title">
              <Figure
                id="sockets_total"
                label={t('supervision.sockets.total')}
                value={formatNumber(sockets.data.connected_clients)}
              />
              <Figure
                id="sockets_console"
                label={t('supervision.sockets.console')}
                value={formatNumber(sockets.data.by_kind.console)}
              />
              <Figure
                id="sockets_customer"
                label={t('supervision.sockets.customer')}
                value={formatNumber(sockets.data.by_kind.customer)}
              />
              <Figure
                id="sockets_visitor"
                label={t('supervision.sockets.visitor')}
                value={formatNumber(sockets.data.by_kind.visitor)}
              />
              <Figure
                id="sessions_with_sockets"
                label={t('supervision.sockets.sessions')}
                value={formatNumber(sockets.data.sessions_with_sockets)}
              />
            </ul>
          ) : null}
        </section>
      ) : null}

      {lag.data ? (
        <p className="supervision-lag" data-figure="statistics_lag">
          {t('supervision.lag')}:{' '}
          {lag.data.caught_up
            ? t('supervision.lag.caught_up')
            : t('supervision.lag.behind', { seconds: formatNumber(Math.round(maxLag)) })}
        </p>
      ) : null}
    </section>
  )
}
