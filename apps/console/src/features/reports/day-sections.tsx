/** The per-day sections of Reports (activity, satisfaction), agent performance and ratings by score. */
import { useMemo } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import type { AgentRow, DayRow, Range, RatingStats } from './api.ts'
import { BarChart, DayChart, type Series } from './chart.tsx'
import type { Cell } from './csv.ts'
import { CsvButton, Table } from './table.tsx'

export function DaySection({ range, days }: { range: Range; days: DayRow[] }) {
  const { t } = useI18n()
  const dates = useMemo(() => days.map((d) => d.date), [days])
  const activity = useMemo<Series[]>(
    () => [
      { label: t('reports.col.tickets'), values: days.map((d) => d.tickets), color: '--accent' },
      { label: t('reports.col.resolved'), values: days.map((d) => d.resolved_tickets), color: '--ok' },
      { label: t('reports.col.sessions'), values: days.map((d) => d.sessions), color: '--warn' },
    ],
    [days, t],
  )
  const csat = useMemo<Series[]>(
    () => [{ label: t('reports.col.csat'), values: days.map((d) => d.customer_satisfaction), color: '--accent' }],
    [days, t],
  )
  const activityHeader = [
    t('reports.col.date'),
    t('reports.col.tickets'),
    t('reports.col.resolved'),
    t('reports.col.sessions'),
    t('reports.col.messages'),
  ]
  const activityRows = days.map((d) => [d.date, d.tickets, d.resolved_tickets, d.sessions, d.messages])
  const csatHeader = [t('reports.col.date'), t('reports.col.csat')]
  const csatRows = days.map((d) => [d.date, d.customer_satisfaction])
  const suffix = `${range.start_date}_${range.end_date}.csv`
  return (
    <>
      <section className="reports-block" aria-labelledby="reports-activity">
        <h2 id="reports-activity">{t('reports.activity')}</h2>
        <div className="reports-pair">
          <DayChart days={dates} series={activity} label={t('reports.activity.chart')} />
          <Table label={t('reports.activity.table')} header={activityHeader} rows={activityRows} />
        </div>
        <CsvButton
          name={`activity_${suffix}`}
          what={t('reports.activity')}
          header={activityHeader}
          rows={activityRows}
        />
      </section>
      <section className="reports-block" aria-labelledby="reports-csat">
        <h2 id="reports-csat">{t('reports.csat')}</h2>
        <div className="reports-pair">
          <DayChart days={dates} series={csat} label={t('reports.csat.chart')} />
          <Table label={t('reports.csat.table')} header={csatHeader} rows={csatRows} />
        </div>
        <CsvButton name={`satisfaction_${suffix}`} what={t('reports.csat')} header={csatHeader} rows={csatRows} />
      </section>
    </>
  )
}

export function AgentSection({ range, agents }: { range: Range; agents: AgentRow[] }) {
  const { t } = useI18n()
  const header = [
    t('reports.col.agent'),
    t('reports.col.department'),
    t('reports.col.tickets'),
    t('reports.col.resolved'),
    t('reports.col.response'),
    t('reports.col.resolution'),
    t('reports.col.rating'),
  ]
  const rows = agents.map((a) => [
    a.agent_name || a.agent_id,
    a.department,
    a.total_tickets,
    a.resolved_tickets,
    a.avg_response_time,
    a.avg_resolution_time,
    a.rating,
  ])
  // the busiest first, as the API orders them; at most the first 12 in the chart (the table has them all)
  const names = useMemo(() => agents.slice(0, 12).map((a) => a.agent_name || a.agent_id), [agents])
  const totals = useMemo(() => agents.slice(0, 12).map((a) => a.total_tickets), [agents])
  return (
    <section className="reports-block" aria-labelledby="reports-agents">
      <h2 id="reports-agents">{t('reports.agents')}</h2>
      {rows.length ? (
        <div className="reports-pair">
          <BarChart keys={names} counts={totals} label={t('reports.agents.chart')} />
          <Table label={t('reports.agents')} header={header} rows={rows} />
        </div>
      ) : (
        <p>{t('reports.none')}</p>
      )}
      <CsvButton
        name={`agents_${range.start_date}_${range.end_date}.csv`}
        what={t('reports.agents')}
        header={header}
        rows={rows}
      />
    </section>
  )
}

export function RatingSection({ range, stats }: { range: Range; stats: RatingStats }) {
  const { t, formatNumber } = useI18n()
  const header = [t('reports.col.score'), t('reports.col.ratings'), t('reports.col.share')]
  const total = stats.total_ratings
  const rows = ['5', '4', '3', '2', '1'].map((score) => {
    const n = stats.rating_distribution[score] ?? 0
    return [score, n, total ? Math.round((n / total) * 1000) / 10 : 0] as Cell[]
  })
  return (
    <section className="reports-block" aria-labelledby="reports-ratings">
      <h2 id="reports-ratings">{t('reports.ratings')}</h2>
      <p>{t('reports.ratings.summary', { count: total, mean: formatNumber(stats.average_rating) })}</p>
      <table className="admin-table reports-ratings" aria-label={t('reports.ratings')}>
        <thead>
          <tr>
            {header.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([score = '', n = 0, share = 0]) => (
            <tr key={score}>
              <th scope="row">{score}</th>
              <td>{formatNumber(n as number)}</td>
              <td>
                <meter min={0} max={100} value={share as number} aria-label={t('reports.ratings.of', { score })} />{' '}
                {formatNumber(share as number)} %
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <CsvButton
        name={`ratings_${range.start_date}_${range.end_date}.csv`}
        what={t('reports.ratings')}
        header={header}
        rows={rows}
      />
    </section>
  )
}
