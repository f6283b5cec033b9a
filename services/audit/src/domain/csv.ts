import { stringify } from 'csv-stringify/sync'
import type { AuditLog } from '../schemas/audit.schemas.ts'

/** Export columns, in order; the header row uses these names. */
export const CSV_COLUMNS = [
  'id',
  'created_at',
  'tenant_id',
  'workspace_id',
  'actor_user_id',
  'principal_kind',
  'action',
  'resource_type',
  'resource_id',
  'route',
  'method',
  'status_code',
  'success',
  'request_id',
  'client_ip',
  'user_agent',
  'request_json',
  'before_json',
  'after_json',
  'sanitised',
] as const

const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v))

/** One CSV row: JSON columns as compact JSON text, booleans as true/false; cells as stored (see `auditCsv`). */
export function csvRow(r: AuditLog): string[] {
  return CSV_COLUMNS.map((c) => {
    const v = r[c]
    if (c === 'request_json' || c === 'before_json' || c === 'after_json') return json(v)
    if (c === 'sanitised') return String(v === true)
    return String(v)
  })
}

/**
 * The export: a header row, then one row per record. A spreadsheet runs a cell that starts with `=`, `+`, `-`,
 * `@`, a tab or a carriage return as a formula (OWASP "CSV injection"); user agents and request bodies are
 * caller-controlled, so csv-stringify's `escape_formulas` gives such cells (and their full-width look-alikes)
 * a leading `'`.
 */
export function auditCsv(records: AuditLog[]): string {
  return stringify(records.map(csvRow), { header: true, columns: [...CSV_COLUMNS], escape_formulas: true })
}
