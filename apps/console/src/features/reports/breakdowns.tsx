/**
 * Counts per key — tickets by category and by priority (created in the range, its days in the zone) and customer
 * records by source (a count of now: sources have no day) — each a bar chart with its table beside it and a CSV of
 * the table.
 */
import { useMemo } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import type { KeyCount } from './api.ts'
import { BarChart } from './chart.tsx'
import { CsvButton, Table } from './table.tsx'

export function KeySection({
  id,
  title,
  keyLabel,
  countLabel,
  counts,
  file,
}: {
  /** the heading's id, and the CSV's name before its suffix */
  id: string
  title: string
  keyLabel: string
  countLabel: string
  counts: KeyCount[]
  file: string
}) {
  const { t } = useI18n()
  const keys = useMemo(() => counts.map((c) => c.key || t('reports.key.none')), [counts, t])
  const values = useMemo(() => counts.map((c) => c.count), [counts])
  const header = [keyLabel, countLabel]
  const rows = counts.map((c, i) => [keys[i] ?? c.key, c.count])
  return (
    <section className="reports-block" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {rows.length ? (
        <div className="reports-pair">
          <BarChart keys={keys} counts={values} label={t('reports.chart.of', { what: title })} />
          <Table label={t('reports.table.of', { what: title })} header={header} rows={rows} />
        </div>
      ) : (
        <p>{t('reports.none')}</p>
      )}
      <CsvButton name={file} what={title} header={header} rows={rows} />
    </section>
  )
}
