/**
 * Reports (a lazy chunk of the admin area, `/admin/reports`, statistics.read): the dashboard's key figures, then
 * over a date range activity, satisfaction, SLA violations and AI usage per day, tickets by category and priority,
 * customers by source (charts with their tables beside them), agent performance and ratings by score, each table
 * downloadable as CSV built here from the very data shown. Days are the browser's zone (`tz=`); live by polling
 * (live.tsx), statistics' lag shown when it is behind. The scope is the caller's token's; a platform operator (a
 * token bound to no tenant) narrows it to a tenant or workspace with the scope picker (scope.tsx: the gateway's
 * selectors). Statistics takes no agent parameter: agent performance lists each agent of the scope.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { type FormEvent, useMemo, useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { ALL, type Scope, unscopedSession } from '../../lib/scope-picker.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import {
  browserZone,
  dayIn,
  getAgents,
  getAi,
  getDashboard,
  getDays,
  getGrouped,
  getRatings,
  getSla,
  getSources,
  type Range,
  reportKeys,
} from './api.ts'
import { KeySection } from './breakdowns.tsx'
import { AgentSection, DaySection, RatingSection } from './day-sections.tsx'
import { LiveStatus, live, useReportsResync } from './live.tsx'
import './messages.ts'
import { ScopePicker } from './scope.tsx'
import { AiSection, SlaSection } from './series.tsx'
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
  'ai_usage_today',
] as const

/** The last 7 days, today included, in the zone. */
function defaultRange(tz: string): Range {
  const now = new Date()
  return { start_date: dayIn(tz, new Date(now.getTime() - 6 * 86_400_000)), end_date: dayIn(tz, now), tz }
}

export function ReportsScreen(_: { path: string }) {
  const { t, formatNumber } = useI18n()
  const tz = useMemo(browserZone, [])
  const [range, setRange] = useState<Range>(() => defaultRange(tz))
  const [draft, setDraft] = useState(range)
  // a token bound to no tenant sees every tenant and may narrow; a scoped one is its scope, with no picker
  const unscoped = unscopedSession()
  const [scope, setScope] = useState<Scope>(ALL)
  const ranged = { ...live, placeholderData: keepPreviousData }
  const dashboard = useQuery({
    queryKey: reportKeys.dashboard(tz, scope),
    queryFn: ({ signal }) => getDashboard(tz, scope, signal),
    ...live,
  })
  const days = useQuery({
    queryKey: reportKeys.days(range, scope),
    queryFn: ({ signal }) => getDays(range, scope, signal),
    ...ranged,
  })
  const agents = useQuery({
    queryKey: reportKeys.agents(range, scope),
    queryFn: ({ signal }) => getAgents(range, scope, signal),
    ...ranged,
  })
  const ratings = useQuery({
    queryKey: reportKeys.ratings(range, scope),
    queryFn: ({ signal }) => getRatings(range, scope, signal),
    ...ranged,
  })
  const sla = useQuery({
    queryKey: reportKeys.sla(range, scope),
    queryFn: ({ signal }) => getSla(range, scope, signal),
    ...ranged,
  })
  const ai = useQuery({
    queryKey: reportKeys.ai(range, scope),
    queryFn: ({ signal }) => getAi(range, scope, signal),
    ...ranged,
  })
  const categories = useQuery({
    queryKey: reportKeys.grouped('category', range, scope),
    queryFn: ({ signal }) => getGrouped('ticket-category', range, scope, signal),
    ...ranged,
  })
  const priorities = useQuery({
    queryKey: reportKeys.grouped('priority', range, scope),
    queryFn: ({ signal }) => getGrouped('ticket-priority', range, scope, signal),
    ...ranged,
  })
  const sources = useQuery({
    queryKey: reportKeys.grouped('source', null, scope),
    queryFn: ({ signal }) => getSources(scope, signal),
    ...live,
  })
  useReportsResync()
  const suffix = `${range.start_date}_${range.end_date}.csv`
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
      {unscoped ? (
        <form className="admin-toolbar" aria-label={t('reports.scope')} onSubmit={(e) => e.preventDefault()}>
          <ScopePicker scope={scope} onChange={setScope} />
        </form>
      ) : null}
      <LiveStatus updatedAt={dashboard.dataUpdatedAt} />

      <section className="reports-block" aria-labelledby="reports-figures">
        <h2 id="reports-figures">{t('reports.figures')}</h2>
        <ErrorText error={dashboard.error} />
        {dashboard.isPending ? (
          <Loading label={t('reports.loading')} />
        ) : dashboard.data ? (
          <ul className="admin-figures" aria-labelledby="reports-figures">
            {FIGURES.map((key) => (
              <li key={key} className="admin-figure" aria-labelledby={`fig-${key}`}>
                <span id={`fig-${key}`} className="admin-figure-label">
                  {t(`reports.fig.${key}`)}
                </span>
                <span className="admin-figure-value reports-card-value" data-figure={key}>
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
          <ErrorText error={categories.error ?? priorities.error ?? sources.error} />
          {categories.data ? (
            <KeySection
              id="reports-category"
              title={t('reports.category')}
              keyLabel={t('reports.col.category')}
              countLabel={t('reports.col.tickets')}
              counts={categories.data}
              file={`ticket_category_${suffix}`}
            />
          ) : null}
          {priorities.data ? (
            <KeySection
              id="reports-priority"
              title={t('reports.priority')}
              keyLabel={t('reports.col.priority')}
              countLabel={t('reports.col.tickets')}
              counts={priorities.data}
              file={`ticket_priority_${suffix}`}
            />
          ) : null}
          <ErrorText error={sla.error ?? ai.error} />
          {sla.data ? <SlaSection range={range} days={sla.data} /> : null}
          {sources.data ? (
            <KeySection
              id="reports-source"
              title={t('reports.source')}
              keyLabel={t('reports.col.source')}
              countLabel={t('reports.col.customers')}
              counts={sources.data}
              file="customer_source.csv"
            />
          ) : null}
          {ai.data ? <AiSection range={range} days={ai.data} /> : null}
          {agents.data ? <AgentSection range={range} agents={agents.data} /> : null}
        </>
      )}
      <ErrorText error={ratings.error} />
      {ratings.data ? <RatingSection range={range} stats={ratings.data} /> : null}
    </section>
  )
}
