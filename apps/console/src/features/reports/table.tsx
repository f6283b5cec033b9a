/** A report's table (the numbers a chart draws, readable and compared by tests) and its CSV download. */
import { useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { type Cell, saveCsv, toCsv } from './csv.ts'

export function CsvButton({
  name,
  what,
  header,
  rows,
}: {
  name: string
  what: string
  header: string[]
  rows: Cell[][]
}) {
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

export function Table({ label, header, rows }: { label: string; header: string[]; rows: Cell[][] }) {
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
