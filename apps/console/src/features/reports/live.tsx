/**
 * Reports stay live by polling while the page is open and visible: every REFRESH_MS each report is asked again
 * (TanStack Query's refetchInterval, paused when the tab is hidden), and all of them after the hub reconnects.
 * Not the hub's frames: statistics' figures move when its projections apply events, which no hub frame announces
 * (the hub carries conversation, queue and presence frames of the caller's scope — refetching on each would ask
 * the whole dashboard again per message), so a bounded interval is both cheaper and complete. How far statistics'
 * read models are behind their streams (`GET /api/statistics/lag`) is asked with them and shown when not caught up.
 */
import { useQuery } from '@tanstack/react-query'
import { useHubResync } from '../../lib/hub-hooks.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { invalidate } from '../../lib/query.ts'
import { getLag, reportKeys } from './api.ts'

export const REFRESH_MS = 15_000

/** Options for every report query: refetched on the interval while the page is visible. */
export const live = { refetchInterval: REFRESH_MS, refetchIntervalInBackground: false } as const

/** After a reconnect or a wake the hub says so: everything shown is asked again. */
export function useReportsResync(): void {
  useHubResync(() => {
    void invalidate(reportKeys.all)
  })
}

/** "Updated hh:mm:ss", and statistics' lag when a projection is behind (nothing when caught up). */
export function LiveStatus({ updatedAt }: { updatedAt: number }) {
  const { t, formatNumber, formatTime } = useI18n()
  const lag = useQuery({ queryKey: reportKeys.lag, queryFn: ({ signal }) => getLag(signal), ...live, retry: false })
  const behind = lag.data && !lag.data.caught_up
  const seconds = lag.data ? Math.max(0, ...lag.data.projections.map((p) => p.lag_seconds)) : 0
  const rebuilding = lag.data?.projections.some((p) => p.rebuilding) ?? false
  return (
    <p className="reports-live">
      {/* not a live region: re-read every 15 s, it would be announced as often */}
      <span>{updatedAt ? t('reports.updated', { time: formatTime(new Date(updatedAt).toISOString()) }) : ''}</span>{' '}
      {behind ? (
        <span className="reports-lag" role="alert" data-figure="statistics_lag">
          {rebuilding
            ? t('reports.lag.rebuilding')
            : t('reports.lag.behind', { seconds: formatNumber(Math.round(seconds)) })}
        </span>
      ) : null}
    </p>
  )
}
