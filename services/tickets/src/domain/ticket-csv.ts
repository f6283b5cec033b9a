import { cellOf } from './custom-fields.ts'

/** The export's fixed columns, in order; `cf.<key>` columns of the scope's active custom fields follow. */
export const TICKET_CSV_COLUMNS = [
  'id',
  'title',
  'status',
  'priority',
  'category',
  'source',
  'customer_id',
  'agent_id',
  'session_id',
  'tags',
  'created_at',
  'updated_at',
  'resolved_at',
  'closed_at',
] as const

export interface CsvTicket {
  id: string
  title: string
  status: string
  priority: string
  category: string
  source: string
  customer_id: string
  agent_id: string | null
  session_id: string | null
  tags: string[]
  custom_fields: Record<string, unknown>
  created_at: string
  updated_at: string
  resolved_at: string | null
  closed_at: string | null
}

export const csvHeader = (customKeys: readonly string[]): string[] => [
  ...TICKET_CSV_COLUMNS,
  ...customKeys.map((k) => `cf.${k}`),
]

/**
 * One row: tags joined with commas, absent values empty. Cells are as stored: formula-like text is neutralised by
 * the stringifier (`escape_formulas`), not here, so the file round-trips through csv-parse unchanged otherwise.
 */
export function csvRow(t: CsvTicket, customKeys: readonly string[]): string[] {
  const fixed = TICKET_CSV_COLUMNS.map((c) => (c === 'tags' ? t.tags.join(',') : cellOf(t[c])))
  return [...fixed, ...customKeys.map((k) => cellOf(t.custom_fields[k]))]
}

/** `tickets_YYYYMMDD_HHMMSS.csv` (UTC), the earlier system's file name. */
export function exportFileName(now: Date): string {
  const iso = now.toISOString()
  return `tickets_${iso.slice(0, 10).replaceAll('-', '')}_${iso.slice(11, 19).replaceAll(':', '')}.csv`
}
