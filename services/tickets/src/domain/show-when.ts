import {
  type Clause,
  CONDITION_OPS,
  isTicketKey,
  listOf,
  referencedKey,
  type Scalar,
  type ShowWhen,
  TICKET_CONTEXT_KEYS,
} from '@switchboard/contracts'
import { SLA_PRIORITIES } from './sla-rules.ts'
import { TICKET_STATUSES } from './ticket-status.ts'

/**
 * Whether a custom field's `show_when` is well made, pure. The rule of when a field shows — its forms, operators and
 * evaluation — is one for the service and the console's form: `packages/contracts/src/show-when.ts` (re-exported here).
 */
export {
  type Clause,
  CONDITION_OPS,
  type ConditionOp,
  conditionHolds,
  referencedKey,
  type Scalar,
  type ShowWhen,
  TICKET_CONTEXT_KEYS,
  type TicketContext,
} from '@switchboard/contracts'

/** Conditions in one `all` or `any`: enough for any form, few enough to read on every ticket write. */
export const MAX_CLAUSES = 20

/** A custom field's key (the definition's schema holds the same pattern). */
export const CUSTOM_FIELD_KEY = /^[a-z][a-z0-9_]*$/
/** Values a ticket attribute can take, where the set is closed: a condition on any other value never holds. */
const CLOSED_VALUES: Readonly<Record<string, readonly string[]>> = {
  'ticket.priority': SLA_PRIORITIES,
  'ticket.status': TICKET_STATUSES,
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
