/**
 * Two per-day series beside the activity: SLA violations of the scope (by violated_at, the zone's days) and AI usage
 * with its knowledge-provider and compatibility-provider counts (the scope's answers per UTC day, said under the
 * heading).
 */
import { useMemo } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import type { AiDay, Range, SlaDay } from './api.ts'
import { DayChart, type Series } from './chart.tsx'
import { CsvButton, Table } from './table.tsx'

export function SlaSection({ range, days }: { range: Range; days: SlaDay[] }) {
  const { t } = useI18n()
  const dates = useMemo(() => days.map((d) => d.date), [days])
  const series = useMemo<Series[]>(
    () => [{ label: t('reports.col.violations'), values: days.map((d) => d.sla_violations), color: '--danger' }],
    [days, t],
  )
  const header = [t('reports.col.date'), t('reports.col.violations')]
  const rows = days.map((d) => [d.date, d.sla_violations])
  return (
    <section className="reports-block" aria-labelledby="reports-sla">
      <h2 id="reports-sla">{t('reports.sla')}</h2>
      <div className="reports-pair">
        <DayChart days={dates} series={series} label={t('reports.chart.of', { what: t('reports.sla') })} />
        <Table label={t('reports.table.of', { what: t('reports.sla') })} header={header} rows={rows} />
      </div>
      <CsvButton
        name={`sla_violations_${range.start_date}_${range.end_date}.csv`}
        what={t('reports.sla')}
        header={header}
        rows={rows}
      />
    </section>
  )
}

export function AiSection({ range, days }: { range: Range; days: AiDay[] }) {
  const { t } = useI18n()
  const dates = useMemo(() => days.map((d) => d.date), [days])
  const series = useMemo<Series[]>(
    () => [
      { label: t('reports.col.ai'), values: days.map((d) => d.ai_usage_count), color: '--accent' },
      { label: t('reports.col.knowledge'), values: days.map((d) => d.knowledge_provider_usage_count), color: '--ok' },
      { label: t('reports.col.compat'), values: days.map((d) => d.compat_provider_usage_count), color: '--warn' },
    ],
    [days, t],
  )
  const header = [t('reports.col.date'), t('reports.col.ai'), t('reports.col.knowledge'), t('reports.col.compat')]
  const rows = days.map((d) => [
    d.date,
    d.ai_usage_count,
    d.knowledge_provider_usage_count,
    d.compat_provider_usage_count,
  ])
  return (
    <section className="reports-block" aria-labelledby="reports-ai">
      <h2 id="reports-ai">{t('reports.ai')}</h2>
      <p className="reports-note">{t('reports.ai.note')}</p>
      <div className="reports-pair">
        <DayChart days={dates} series={series} label={t('reports.chart.of', { what: t('reports.ai') })} />
        <Table label={t('reports.table.of', { what: t('reports.ai') })} header={header} rows={rows} />
      </div>
      <CsvButton
        name={`ai_usage_${range.start_date}_${range.end_date}.csv`}
        what={t('reports.ai')}
        header={header}
        rows={rows}
      />
    </section>
  )
}
