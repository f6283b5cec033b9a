/**
 * The condition editor's rows and the service's `show_when`, both ways. The editor writes the `{all|any: [{field,
 * op, value}]}` form; a field saved in the single form (`{key, equals|in|not_equals}`) opens as one `all` row.
 * Values are typed as text ("in"/"not in" take a comma-separated list): the service compares as text anyway.
 */
import type { Clause, ShowWhen } from '../tickets/show-when.ts'

export type Join = 'always' | 'all' | 'any'
export interface Row {
  field: string
  op: string
  value: string
}
export interface ConditionDraft {
  join: Join
  rows: Row[]
}

export const LIST_OPS = new Set(['in', 'not_in'])
const split = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

function clauseOf(r: Row): Clause {
  if (r.op === 'exists') return { field: r.field, op: r.op }
  return { field: r.field, op: r.op, value: LIST_OPS.has(r.op) ? split(r.value) : r.value }
}

export function toShowWhen(d: ConditionDraft): ShowWhen | null {
  if (d.join === 'always' || d.rows.length === 0) return null
  const clauses = d.rows.map(clauseOf)
  return d.join === 'all' ? { all: clauses } : { any: clauses }
}

const text = (v: unknown) => (Array.isArray(v) ? v.map(String).join(', ') : v === undefined ? '' : String(v))
const asField = (key: string) => (key.startsWith('ticket.') ? key : `cf.${key}`)

export function fromShowWhen(c: ShowWhen | null | undefined): ConditionDraft {
  if (!c) return { join: 'always', rows: [] }
  const rows = (cs: Clause[]) =>
    cs.map((x) => ({ field: x.field, op: x.op === 'ne' ? 'neq' : x.op, value: text(x.value) }))
  if (c.all) return { join: 'all', rows: rows(c.all) }
  if (c.any) return { join: 'any', rows: rows(c.any) }
  const field = asField(c.key ?? '')
  if (c.equals !== undefined) return { join: 'all', rows: [{ field, op: 'eq', value: text(c.equals) }] }
  if (c.in !== undefined) return { join: 'all', rows: [{ field, op: 'in', value: text(c.in) }] }
  return { join: 'all', rows: [{ field, op: 'neq', value: text(c.not_equals) }] }
}

/** One line for the list: `all of: ticket.category eq billing; cf.plan neq free`. */
export function summary(c: ShowWhen | null | undefined): string {
  const d = fromShowWhen(c)
  if (d.join === 'always') return ''
  const parts = d.rows.map((r) => (r.op === 'exists' ? `${r.field} exists` : `${r.field} ${r.op} ${r.value}`))
  return `${d.join}: ${parts.join('; ')}`
}
