import { checkPattern, matchWithinBudget } from './safe-regex.ts'
import { conditionHolds, type ShowWhen, showWhenProblems, type TicketContext } from './show-when.ts'

export type { ShowWhen, TicketContext } from './show-when.ts'

/**
 * Custom fields, pure: what a definition may say, whether a ticket's values satisfy the definitions of its
 * scope, and the rows that index those values. Messages name the field as the request does
 * (`body.custom_fields.plan: …`), so one 400 can list every bad value.
 */
export const CUSTOM_FIELD_TYPES = ['string', 'number', 'boolean', 'date', 'select', 'multiselect'] as const
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number]
export const CUSTOM_FIELD_RESOURCES = ['ticket'] as const

/** String values are indexed for `cf.<key>` filters: 500 characters stay under PostgreSQL's btree entry limit. */
export const STRING_VALUE_MAX = 500
/** Custom fields per scope: the whole set is read on every ticket write and export. */
export const CUSTOM_FIELDS_PER_SCOPE = 100

export interface Validation {
  min?: number | undefined
  max?: number | undefined
  min_length?: number | undefined
  max_length?: number | undefined
  regex?: string | undefined
}

export interface FieldDefinition {
  key: string
  name: string
  type: CustomFieldType
  required: boolean
  active: boolean
  options: string[]
  validation: Validation
  show_when: ShowWhen | null
}

/** Which validation rules each type takes; for multiselect the lengths count choices. */
const RULES_BY_TYPE: Record<CustomFieldType, ReadonlyArray<keyof Validation>> = {
  string: ['min_length', 'max_length', 'regex'],
  number: ['min', 'max'],
  boolean: [],
  date: [],
  select: [],
  multiselect: ['min_length', 'max_length'],
}

const hasOptions = (type: CustomFieldType) => type === 'select' || type === 'multiselect'

/** What is wrong with a definition (empty when nothing), each message naming its `body.` path. */
export function definitionProblems(def: FieldDefinition): string[] {
  const problems: string[] = []
  if (hasOptions(def.type)) {
    if (def.options.length === 0) problems.push(`body.options: a ${def.type} field needs at least one option`)
    if (new Set(def.options).size !== def.options.length) problems.push('body.options: options must be unique')
  } else if (def.options.length > 0) {
    problems.push(`body.options: a ${def.type} field takes no options`)
  }
  const allowed = RULES_BY_TYPE[def.type]
  for (const [rule, value] of Object.entries(def.validation)) {
    if (value === undefined) continue
    if (!allowed.includes(rule as keyof Validation)) {
      problems.push(`body.validation.${rule}: does not apply to a ${def.type} field`)
    }
  }
  const v = def.validation
  if (v.min !== undefined && v.max !== undefined && v.min > v.max) problems.push('body.validation: min is above max')
  if (v.min_length !== undefined && v.max_length !== undefined && v.min_length > v.max_length) {
    problems.push('body.validation: min_length is above max_length')
  }
  if (def.type === 'string' && v.max_length !== undefined && v.max_length > STRING_VALUE_MAX) {
    problems.push(`body.validation.max_length: at most ${STRING_VALUE_MAX}`)
  }
  if (v.regex !== undefined) {
    const check = checkPattern(v.regex)
    if (!check.ok) problems.push(`body.validation.regex: ${check.reason}`)
  }
  if (def.show_when) problems.push(...showWhenProblems(def.key, def.show_when))
  return problems
}

/** Does `def` show for this ticket (its `show_when` met by the values as the write leaves them)? */
export function isShown(def: FieldDefinition, ticket: TicketContext, values: Record<string, unknown>): boolean {
  return conditionHolds(def.show_when, ticket, values)
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** `YYYY-MM-DD` naming a day that exists (2026-02-30 doesn't). */
export function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const t = new Date(Date.UTC(y, mo - 1, d))
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d
}

/** The problem with one present value of `def`, or undefined. */
export function valueProblem(def: FieldDefinition, value: unknown): string | undefined {
  const v = def.validation
  switch (def.type) {
    case 'string': {
      if (typeof value !== 'string') return 'must be a string'
      const max = v.max_length ?? STRING_VALUE_MAX
      if (value.length > max) return `must be at most ${max} characters`
      if (v.min_length !== undefined && value.length < v.min_length) {
        return `must be at least ${v.min_length} characters`
      }
      if (v.regex !== undefined) {
        const check = checkPattern(v.regex)
        if (!check.ok) return 'its pattern is no longer accepted; fix the field definition'
        const matched = matchWithinBudget(check.regex, value)
        if (matched === 'timeout') return 'could not be checked against its pattern in time'
        if (matched !== true) return `must match ${v.regex}`
      }
      return undefined
    }
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number'
      if (v.min !== undefined && value < v.min) return `must be at least ${v.min}`
      if (v.max !== undefined && value > v.max) return `must be at most ${v.max}`
      return undefined
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false'
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? undefined : 'must be a date (YYYY-MM-DD)'
    case 'select':
      return typeof value === 'string' && def.options.includes(value)
        ? undefined
        : `must be one of ${def.options.join(', ')}`
    case 'multiselect': {
      if (!Array.isArray(value) || value.some((x) => typeof x !== 'string')) return 'must be an array of options'
      if (new Set(value).size !== value.length) return 'must not repeat an option'
      const unknown = value.filter((x) => !def.options.includes(x))
      if (unknown.length > 0) return `${unknown.join(', ')}: not among ${def.options.join(', ')}`
      if (v.min_length !== undefined && value.length < v.min_length) return `choose at least ${v.min_length}`
      if (v.max_length !== undefined && value.length > v.max_length) return `choose at most ${v.max_length}`
      return undefined
    }
  }
}

/**
 * Checks a write's custom values against the active definitions of the ticket's scope. Every key given must name
 * an active field and its value fit the field's type and rules; `null` removes a value (any key, so a value of a
 * field since deleted can be dropped). Values already stored and not given are kept as they are. With
 * `checkRequired`, every required field that shows (its `show_when` met) must hold a value in `merged`, the values
 * as the write leaves them. Returns every problem, in key order.
 */
export function valuesProblems(
  defs: readonly FieldDefinition[],
  given: Record<string, unknown>,
  merged: Record<string, unknown>,
  ticket: TicketContext,
  opts: { checkRequired: boolean },
): string[] {
  const active = new Map(defs.filter((d) => d.active).map((d) => [d.key, d]))
  const problems: string[] = []
  for (const key of Object.keys(given).sort()) {
    const value = given[key]
    if (value === null || value === undefined) continue
    const def = active.get(key)
    if (!def) {
      problems.push(`body.custom_fields.${key}: no active custom field ${key} in this workspace`)
      continue
    }
    const problem = valueProblem(def, value)
    if (problem) problems.push(`body.custom_fields.${key}: ${problem}`)
  }
  if (opts.checkRequired) {
    for (const def of [...active.values()].sort((a, b) => a.key.localeCompare(b.key))) {
      if (!def.required || !isShown(def, ticket, merged)) continue
      const value = merged[def.key]
      const empty = value === undefined || value === null || value === '' || (Array.isArray(value) && !value.length)
      if (empty) problems.push(`body.custom_fields.${def.key}: required`)
    }
  }
  return problems
}

/**
 * An update's custom fields merged into the ticket's: a given key replaces its value, `null` removes it
 * (JSON merge patch), keys not given are kept.
 */
export function mergeValues(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current }
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key]
    else merged[key] = value
  }
  return merged
}

/** One indexed value: the text every type has, and the number of a number field. */
export interface ValueRow {
  key: string
  value_text: string
  value_number: number | null
}

/** The index rows of a ticket's values: one per value, one per choice of a multiselect. */
export function valueRows(values: Record<string, unknown>): ValueRow[] {
  const rows: ValueRow[] = []
  for (const [key, value] of Object.entries(values)) {
    if (value === null || value === undefined) continue
    const items = Array.isArray(value) ? value : [value]
    for (const item of items) {
      if (typeof item === 'number') rows.push({ key, value_text: String(item), value_number: item })
      else if (typeof item === 'string' || typeof item === 'boolean') {
        rows.push({ key, value_text: String(item), value_number: null })
      }
    }
  }
  return rows
}

/** A value as one CSV cell: choices joined with commas, absent as empty. */
export function cellOf(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.map(String).join(',')
  return String(value)
}

/** What a `cf.<key>=` filter compares: numbers for a number field, text otherwise. */
export type FilterTerm = { key: string; texts: string[]; numbers: number[] }

/**
 * The terms of a `cf.<key>` filter with its query values, given the types that key has in the filter's scope
 * (one, unless an unscoped admin lists several tenants). An unusable value is a problem naming the parameter.
 */
export function filterTerm(
  key: string,
  raw: readonly string[],
  types: readonly CustomFieldType[],
): { ok: true; term: FilterTerm } | { ok: false; problem: string } {
  if (types.length === 0) return { ok: false, problem: `querystring.cf.${key}: no custom field ${key}` }
  const numeric = types.includes('number')
  const textual = types.some((t) => t !== 'number')
  const numbers: number[] = []
  const texts: string[] = []
  for (const value of raw) {
    if (numeric) {
      const n = value.trim() === '' ? Number.NaN : Number(value)
      if (Number.isFinite(n)) numbers.push(n)
      else if (!textual) return { ok: false, problem: `querystring.cf.${key}: must be a number` }
    }
    if (textual) texts.push(value)
  }
  return { ok: true, term: { key, texts, numbers } }
}
