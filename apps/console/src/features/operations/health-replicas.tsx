/**
 * One row per replica of every unit: its readiness and the figures the gateway read from its `/metrics` (uptime,
 * memory, event-loop lag, requests and 5xx with their rates, the bus counters, the unit's own gauges). A replica
 * whose `/metrics` could not be read says why in its row. Each figure cell carries `data-figure` for the tests.
 */
import { useI18n } from '../../lib/i18n.tsx'
import type { ReplicaFigures, ReplicaHealth, UnitHealth } from './api.ts'
import { countWithRate, mebibytes, millis, uptime } from './health-format.ts'
import './health.css'
import './health-messages.ts'

/** the columns after Replica and Ready: a failed scrape's message spans them */
const METRIC_COLUMNS = 9

function UnitFigures({ m }: { m: ReplicaFigures }) {
  const { t, formatNumber } = useI18n()
  const items: Array<[string, string]> = []
  if (m.waiting_sessions !== undefined)
    items.push(['waiting_sessions', t('ops.fig.waiting', { n: formatNumber(m.waiting_sessions) })])
  for (const [name, lag] of Object.entries(m.projection_lag_seconds ?? {}))
    items.push([`projection_lag:${name}`, t('ops.fig.projection', { name, n: formatNumber(lag) })])
  for (const [kind, n] of Object.entries(m.hub_sockets ?? {}))
    items.push([`hub_sockets:${kind}`, t('ops.fig.sockets', { kind, n: formatNumber(n) })])
  for (const [name, state] of Object.entries(m.breakers ?? {}))
    items.push([`breaker:${name}`, t('ops.fig.breaker', { name, state: t(`ops.breaker.${state}`) })])
  if (!items.length) return <>—</>
  return (
    <ul className="ops-unit-figures">
      {items.map(([key, text]) => (
        <li key={key} data-figure={key}>
          {text}
        </li>
      ))}
    </ul>
  )
}

function ReplicaRow({ unit, r }: { unit: string; r: ReplicaHealth }) {
  const i18n = useI18n()
  const { t, formatNumber, formatTime } = i18n
  const m = r.metrics
  return (
    <tr>
      <th scope="row">{t('ops.replicaName', { unit, n: r.replica })}</th>
      <td data-figure="ready" className={r.ready ? 'admin-status-ok' : 'admin-status-bad'}>
        {r.ready ? t('ops.yes') : t('ops.no')}
      </td>
      {m ? (
        <>
          <td
            data-figure="uptime"
            title={m.started_at ? t('ops.up.since', { time: formatTime(m.started_at) }) : undefined}
          >
            {uptime(i18n, m.uptime_seconds)}
          </td>
          <td data-figure="memory">{mebibytes(i18n, m.resident_memory_bytes)}</td>
          <td data-figure="lag">{millis(i18n, m.event_loop_lag_p99_seconds)}</td>
          <td data-figure="requests">{countWithRate(i18n, m.http_requests_total, m.http_requests_per_second)}</td>
          <td data-figure="errors">{countWithRate(i18n, m.http_5xx_total, m.http_5xx_per_second)}</td>
          <td data-figure="published">{formatNumber(m.events_published_total)}</td>
          <td data-figure="failed">{formatNumber(m.events_failed_total)}</td>
          <td data-figure="dead_lettered">{formatNumber(m.events_dead_lettered_total)}</td>
          <td>
            <UnitFigures m={m} />
          </td>
        </>
      ) : (
        <td colSpan={METRIC_COLUMNS} data-figure="metrics_error" className="admin-status-bad">
          {t('ops.metricsFailed', { error: r.metrics_error ?? '?' })}
        </td>
      )}
    </tr>
  )
}

export function ReplicaTable({ units }: { units: UnitHealth[] }) {
  const { t } = useI18n()
  return (
    <div className="ops-replicas">
      <table className="admin-table" aria-label={t('ops.replicaTable')} aria-describedby="ops-replicas-note">
        <thead>
          <tr>
            <th scope="col">{t('ops.col.replica')}</th>
            <th scope="col">{t('ops.col.ready')}</th>
            <th scope="col">{t('ops.col.uptime')}</th>
            <th scope="col">{t('ops.col.memory')}</th>
            <th scope="col">{t('ops.col.lag')}</th>
            <th scope="col">{t('ops.col.requests')}</th>
            <th scope="col">{t('ops.col.errors')}</th>
            <th scope="col">{t('ops.col.published')}</th>
            <th scope="col">{t('ops.col.eventsFailed')}</th>
            <th scope="col">{t('ops.col.deadLettered')}</th>
            <th scope="col">{t('ops.col.unitFigures')}</th>
          </tr>
        </thead>
        <tbody>
          {units.flatMap((u) =>
            u.instances.map((r) => <ReplicaRow key={`${u.unit}#${r.replica}`} unit={u.unit} r={r} />),
          )}
        </tbody>
      </table>
      <p id="ops-replicas-note" className="ops-replicas-note">
        {t('ops.replicaTable.note')}
      </p>
    </div>
  )
}
