/**
 * Reports (a lazy chunk of the admin area, `/admin/reports`, statistics.read): the dashboard's key figures, activity
 * and satisfaction per day over a date range (charts with their tables beside them) and agent performance, each
 * table downloadable as CSV built here from the very data shown. Days are the browser's zone (`tz=`).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { type FormEvent, useMemo, useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import {
  type AgentRow,
  browserZone,
  type DayRow,
  dayIn,
  getAgents,
  getDashboard,
  getDays,
  getRatings,
  type Range,
  type RatingStats,
  reportKeys,
} from './api.ts'
import { DayChart, type Series } from './chart.tsx'
import { type Cell, saveCsv, toCsv } from './csv.ts'
import './messages.ts'
import './reports.css'

const FIGURES = [
  'total_tickets',
  'open_tickets',
  'resolved_tickets',
  'today_tickets',
  'total_sessions',
  'active_sessions',
  'today_messages',
  'online_agents',
  'total_customers',
  'avg_resolution_time',
  'customer_satisfaction',
] as const

/** The last 7 days, today included, in the zone. */
function defaultRange(tz: string): Range {
  const now = new Date()
  return { start_date: dayIn(tz, new Date(now.getTime() - 6 * 86_400_000)), end_date: dayIn(tz, now), tz }
}

function CsvButton({ name, what, header, rows }: { name: string; what: string; header: string[]; rows: Cell[][] }) {
  const { t } = useI18n()
  const [done, setDone] = useState(false)
  return (
    <span className="reports-csv">
      <button
        type="button"
        onClick={() => {
          saveCsv(name, toCsv(header, rows))
          setDone(true)
        }}
      >
        {t('reports.csv', { what })}
      </button>
      <span role="status" aria-live="polite">
        {done ? t('reports.csv.done') : ''}
      </span>
    </span>
  )
}

function Table({ label, header, rows }: { label: string; header: string[]; rows: Cell[][] }) {
  const { formatNumber } = useI18n()
  return (
    <table className="admin-table" aria-label={label}>
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
        {rows.map((r) => (
          <tr key={String(r[0]) + String(r[1])}>
            {r.map((c, i) =>
              i === 0 ? (
                <th key={header[i]} scope="row">
                  {c}
                </th>
              ) : (
                <td key={header[i]}>{typeof c === 'number' ? formatNumber(c) : c}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function DaySection({ range, days }: { range: Range; days: DayRow[] }) {
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

function AgentSection({ range, agents }: { range: Range; agents: AgentRow[] }) {
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
  return (
    <section className="reports-block" aria-labelledby="reports-agents">
      <h2 id="reports-agents">{t('reports.agents')}</h2>
      {rows.length ? <Table label={t('reports.agents')} header={header} rows={rows} /> : <p>{t('reports.none')}</p>}
      <CsvButton
        name={`agents_${range.start_date}_${range.end_date}.csv`}
        what={t('reports.agents')}
        header={header}
        rows={rows}
      />
    </section>
  )
}

function RatingSection({ range, stats }: { range: Range; stats: RatingStats }) {
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
      <p>{t('reports.ratings.summary', { count: formatNumber(total), mean: formatNumber(stats.average_rating) })}</p>
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

export function ReportsScreen(_: { path: string }) {
  const { t, formatNumber } = useI18n()
  const tz = useMemo(browserZone, [])
  const [range, setRange] = useState<Range>(() => defaultRange(tz))
  const [draft, setDraft] = useState(range)
  const dashboard = useQuery({ queryKey: reportKeys.dashboard(tz), queryFn: ({ signal }) => getDashboard(tz, signal) })
  const days = useQuery({
    queryKey: reportKeys.days(range),
    queryFn: ({ signal }) => getDays(range, signal),
    placeholderData: keepPreviousData,
  })
  const agents = useQuery({
    queryKey: reportKeys.agents(range),
    queryFn: ({ signal }) => getAgents(range, signal),
    placeholderData: keepPreviousData,
  })
  const ratings = useQuery({
    queryKey: reportKeys.ratings(range),
    queryFn: ({ signal }) => getRatings(range, signal),
    placeholderData: keepPreviousData,
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setRange({ ...draft, tz })
  }
  return (
    <section className="admin-page reports" aria-labelledby="reports-title">
      <h1 id="reports-title">{t('reports.title')}</h1>
      <form className="admin-toolbar" aria-label={t('reports.range')} onSubmit={submit}>
        <label>
          <span>{t('reports.from')}</span>
          <input
            type="date"
            required
            value={draft.start_date}
            max={draft.end_date}
            onChange={(e) => setDraft((d) => ({ ...d, start_date: e.target.value }))}
          />
        </label>
        <label>
          <span>{t('reports.to')}</span>
          <input
            type="date"
            required
            value={draft.end_date}
            min={draft.start_date}
            onChange={(e) => setDraft((d) => ({ ...d, end_date: e.target.value }))}
          />
        </label>
        <button type="submit" className="primary">
          {t('reports.apply')}
        </button>
        <span className="reports-zone">{t('reports.zone', { zone: tz })}</span>
      </form>

      <section className="reports-block" aria-labelledby="reports-figures">
        <h2 id="reports-figures">{t('reports.figures')}</h2>
        <ErrorText error={dashboard.error} />
        {dashboard.isPending ? (
          <Loading label={t('reports.loading')} />
        ) : dashboard.data ? (
          <ul className="reports-cards" aria-labelledby="reports-figures">
            {FIGURES.map((key) => (
              <li key={key} className="reports-card" aria-labelledby={`fig-${key}`}>
                <span id={`fig-${key}`} className="reports-card-label">
                  {t(`reports.fig.${key}`)}
                </span>
                <span className="reports-card-value" data-figure={key}>
                  {formatNumber(dashboard.data[key] ?? 0)}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </section>

      <ErrorText error={days.error ?? agents.error} />
      {days.isPending || agents.isPending ? (
        <Loading label={t('reports.loading')} />
      ) : (
        <>
          {days.data ? <DaySection range={range} days={days.data} /> : null}
          {agents.data ? <AgentSection range={range} agents={agents.data} /> : null}
        </>
      )}
      <ErrorText error={ratings.error} />
      {ratings.data ? <RatingSection range={range} stats={ratings.data} /> : null}
    </section>
  )
}
