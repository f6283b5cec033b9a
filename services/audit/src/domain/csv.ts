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
] as const

// A spreadsheet runs a cell that starts with one of these as a formula (OWASP "CSV injection"); user agents
// and request bodies are caller-controlled, so such cells get a leading quote.
const FORMULA_START = /^[=+\-@\t\r]/
const neutral = (s: string) => (FORMULA_START.test(s) ? `'${s}` : s)

const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v))

/** One CSV row: JSON columns as compact JSON text, booleans as true/false. */
export function csvRow(r: AuditLog): string[] {
  return CSV_COLUMNS.map((c) => {
    const v = r[c]
    if (c === 'request_json' || c === 'before_json' || c === 'after_json') return neutral(json(v))
    if (typeof v === 'string') return neutral(v)
    return String(v)
  })
}
