import { SLA_PRIORITIES } from './sla-rules.ts'
import { TICKET_STATUSES } from './ticket-status.ts'

/**
 * When a custom field shows (and so, if it is required, must hold a value), pure. `show_when` takes two forms:
 * - one condition on one value: `{key, equals | in | not_equals}`, `key` another field's key or `ticket.<attr>`;
 * - the earlier system's conditions: `{all | any: [{field, op, value}]}`, `field` one of
 *   `ticket.category|priority|source|status` or `cf.<key>`, `op` one of CONDITION_OPS.
 * A multiselect value holds each of its choices: it "equals" a choice it contains.
 */
export type Scalar = string | number | boolean

/** Ticket attributes a `show_when` may look at besides other custom fields. */
export const TICKET_CONTEXT_KEYS = ['ticket.category', 'ticket.priority', 'ticket.source', 'ticket.status'] as const

/**
 * `ne` is the earlier server's spelling of `neq` (its admin page wrote `neq`, which that server never matched);
 * both are taken, with one meaning.
 */
export const CONDITION_OPS = ['eq', 'neq', 'ne', 'in', 'not_in', 'exists'] as const
export type ConditionOp = (typeof CONDITION_OPS)[number]
/** Conditions in one `all` or `any`: enough for any form, few enough to read on every ticket write. */
export const MAX_CLAUSES = 20

export interface Clause {
  field: string
  op: string
  value?: Scalar | Scalar[] | undefined
}

/** Either form, as stored; `showWhenProblems` says whether a given one is well made. */
export interface ShowWhen {
  key?: string | undefined
  equals?: Scalar | undefined
  in?: Scalar[] | undefined
  not_equals?: Scalar | undefined
  all?: Clause[] | undefined
  any?: Clause[] | undefined
}

/** The values a `show_when` compares: other custom fields, and the ticket's own attributes. */
export interface TicketContext {
  category: string
  priority: string
  source: string
  status: string
}

/** A custom field's key (the definition's schema holds the same pattern). */
export const CUSTOM_FIELD_KEY = /^[a-z][a-z0-9_]*$/
const isTicketKey = (k: string) => (TICKET_CONTEXT_KEYS as readonly string[]).includes(k)
/** Values a ticket attribute can take, where the set is closed: a condition on any other value never holds. */
const CLOSED_VALUES: Readonly<Record<string, readonly string[]>> = {
  'ticket.priority': SLA_PRIORITIES,
  'ticket.status': TICKET_STATUSES,
}

/** The custom field a `cf.<key>` (or, in the single form, a bare key) names; undefined for ticket attributes. */
export function referencedKey(field: string): string | undefined {
  if (isTicketKey(field)) return undefined
  return field.startsWith('cf.') ? field.slice(3) : field
}

/** Longest text a condition compares with: custom field strings are at most this long too. */
const VALUE_MAX = 500
/** Values of conditions reach the domain unchecked by the schema (see custom-fields.schemas.ts): their types are here. */
const isScalar = (v: unknown): v is Scalar =>
  (typeof v === 'string' && v.length <= VALUE_MAX) ||
  (typeof v === 'number' && Number.isFinite(v)) ||
  typeof v === 'boolean'
const isScalarList = (v: unknown): v is Scalar[] =>
  Array.isArray(v) && v.length >= 1 && v.length <= 100 && v.every(isScalar)
const ONE = `a string (at most ${VALUE_MAX} characters), number or boolean`
const LIST = 'a list of 1 to 100 strings, numbers or booleans'

const isGroup = (c: ShowWhen) => c.all !== undefined || c.any !== undefined
const listOf = (v: Scalar | Scalar[] | undefined): Scalar[] => (v === undefined ? [] : Array.isArray(v) ? v : [v])

/** What a condition looks at and compares with, each with the `body.` paths of the field and of its values. */
export interface Compared {
  field: string
  fieldPath: string
  path: string
  values: Scalar[]
}

export function comparedValues(cond: ShowWhen): Compared[] {
  if (!isGroup(cond)) {
    const values = [...listOf(cond.equals), ...listOf(cond.in), ...listOf(cond.not_equals)]
    const which = cond.equals !== undefined ? 'equals' : cond.in !== undefined ? 'in' : 'not_equals'
    return [{ field: cond.key ?? '', fieldPath: 'body.show_when.key', path: `body.show_when.${which}`, values }]
  }
  const [join, clauses] = cond.all !== undefined ? ['all', cond.all] : ['any', cond.any ?? []]
  return clauses.map((c, i) => ({
    field: c.field,
    fieldPath: `body.show_when.${join}.${i}.field`,
    path: `body.show_when.${join}.${i}.value`,
    values: listOf(c.value),
  }))
}

function clauseProblems(self: string, c: Clause, at: string): string[] {
  const problems: string[] = []
  const key = c.field.startsWith('cf.') ? c.field.slice(3) : undefined
  if (!isTicketKey(c.field) && !(key !== undefined && CUSTOM_FIELD_KEY.test(key))) {
    problems.push(`${at}.field: one of ${TICKET_CONTEXT_KEYS.join(', ')} or cf.<key>`)
  }
  if (key === self) problems.push(`${at}.field: a field cannot depend on itself`)
  if (!(CONDITION_OPS as readonly string[]).includes(c.op)) {
    problems.push(`${at}.op: one of ${CONDITION_OPS.join(', ')}`)
  } else if (c.op === 'exists') {
    if (c.value !== undefined) problems.push(`${at}.value: exists takes no value`)
  } else if (c.op === 'in' || c.op === 'not_in') {
    if (!isScalarList(c.value)) problems.push(`${at}.value: ${c.op} takes ${LIST}`)
  } else if (!isScalar(c.value)) {
    problems.push(`${at}.value: ${c.op} takes one value, ${ONE}`)
  }
  return problems
}

/** What is wrong with a `show_when` on its own (empty when nothing), each message naming its `body.` path. */
export function showWhenProblems(self: string, cond: ShowWhen): string[] {
  const single = cond.key !== undefined || cond.equals !== undefined || cond.in !== undefined
  if (isGroup(cond)) {
    if (single || cond.not_equals !== undefined) {
      return ['body.show_when: either {key, equals|in|not_equals} or {all|any: [{field, op, value}]}, not both']
    }
    if (cond.all !== undefined && cond.any !== undefined) return ['body.show_when: one of all, any']
    const [join, clauses] = cond.all !== undefined ? ['all', cond.all] : ['any', cond.any ?? []]
    if (clauses.length === 0 || clauses.length > MAX_CLAUSES) {
      return [`body.show_when.${join}: 1 to ${MAX_CLAUSES} conditions`]
    }
    const problems = clauses.flatMap((c, i) => clauseProblems(self, c, `body.show_when.${join}.${i}`))
    return problems.length > 0 ? problems : closedValueProblems(cond)
  }
  const problems: string[] = []
  const key = cond.key ?? ''
  if (!isTicketKey(key) && !CUSTOM_FIELD_KEY.test(key)) {
    problems.push(`body.show_when.key: another field's key or one of ${TICKET_CONTEXT_KEYS.join(', ')}`)
  }
  if (key === self) problems.push('body.show_when.key: a field cannot depend on itself')
  const given = [cond.equals, cond.in, cond.not_equals].filter((c) => c !== undefined).length
  if (given !== 1) problems.push('body.show_when: exactly one of equals, in, not_equals')
  for (const which of ['equals', 'not_equals'] as const) {
    if (cond[which] !== undefined && !isScalar(cond[which])) problems.push(`body.show_when.${which}: ${ONE}`)
  }
  if (cond.in !== undefined && !isScalarList(cond.in)) problems.push(`body.show_when.in: ${LIST}`)
  return problems.length > 0 ? problems : closedValueProblems(cond)
}

/** `ticket.priority eq "hgih"` would never hold: a value outside a closed set is refused. */
function closedValueProblems(cond: ShowWhen): string[] {
  const problems: string[] = []
  for (const { field, path, values } of comparedValues(cond)) {
    const allowed = CLOSED_VALUES[field]
    if (!allowed) continue
    for (const v of values) {
      if (!allowed.includes(String(v))) problems.push(`${path}: ${String(v)} is not a ${field} (${allowed.join(', ')})`)
    }
  }
  return problems
}

/**
 * The workspace's fields a condition names must exist, and a select's or multiselect's values be among its options:
 * a condition on a field or choice that isn't there would silently never hold.
 */
export function referenceProblems(
  cond: ShowWhen,
  fields: ReadonlyMap<string, { type: string; options: readonly string[] }>,
): string[] {
  const problems: string[] = []
  for (const { field, fieldPath, path, values } of comparedValues(cond)) {
    const key = referencedKey(field)
    if (key === undefined) continue
    const target = fields.get(key)
    if (!target) {
      problems.push(`${fieldPath}: no custom field ${key} in this workspace`)
      continue
    }
    if (target.type !== 'select' && target.type !== 'multiselect') continue
    for (const v of values) {
      if (!target.options.includes(String(v))) problems.push(`${path}: ${String(v)} is not an option of ${key}`)
    }
  }
  return problems
}

/** What one field or attribute holds, as a list: none, one value, or a multiselect's choices. */
function held(field: string, ticket: TicketContext, values: Record<string, unknown>): unknown[] {
  const actual = isTicketKey(field)
    ? ticket[field.slice('ticket.'.length) as keyof TicketContext]
    : values[referencedKey(field) ?? '']
  if (actual === undefined || actual === null) return []
  return Array.isArray(actual) ? actual : [actual]
}

/**
 * Values compare as text, as the reference's do: 5 and "5" are one value. (Single-form conditions stored before
 * their numbers and booleans were kept as sent hold "5" and "true": compared as text they match again.)
 */
const text = (v: unknown) => String(v)

function clauseHolds(c: Clause, ticket: TicketContext, values: Record<string, unknown>): boolean {
  const have = held(c.field, ticket, values).map(text)
  const want = listOf(c.value).map(text)
  switch (c.op as ConditionOp) {
    case 'exists':
      // as for a required field, an empty string is no value
      return have.some((h) => h !== '')
    case 'eq':
      return have.includes(want[0] ?? '')
    case 'ne':
    case 'neq':
      return !have.includes(want[0] ?? '')
    case 'in':
      return have.some((h) => want.includes(h))
    case 'not_in':
      return !have.some((h) => want.includes(h))
    default:
      // refused when defined; a stored condition of an unknown op never shows its field
      return false
  }
}

/** Does a field with this `show_when` show for this ticket, given the values as the write leaves them? */
export function conditionHolds(cond: ShowWhen | null, ticket: TicketContext, values: Record<string, unknown>) {
  if (!cond) return true
  if (cond.all !== undefined) return cond.all.every((c) => clauseHolds(c, ticket, values))
  if (cond.any !== undefined) return cond.any.some((c) => clauseHolds(c, ticket, values))
  const have = held(cond.key ?? '', ticket, values).map(text)
  if (cond.equals !== undefined) return have.includes(text(cond.equals))
  if (cond.in !== undefined) return have.some((h) => cond.in!.map(text).includes(h))
  return !have.includes(text(cond.not_equals))
}
