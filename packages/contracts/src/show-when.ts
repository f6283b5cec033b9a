/**
 * When a ticket's custom field shows (and so, if it is required, must hold a value): the one rule the tickets service
 * enforces on every write and the console's ticket form follows, so the form asks for exactly the fields the service
 * will. Pure, no imports. `show_when` takes two forms:
 * - one condition on one value: `{key, equals | in | not_equals}`, `key` another field's key or `ticket.<attr>`;
 * - the earlier system's conditions: `{all | any: [{field, op, value}]}`, `field` one of
 *   `ticket.category|priority|source|status` or `cf.<key>`, `op` one of CONDITION_OPS.
 * A multiselect value holds each of its choices: it "equals" a choice it contains. Values compare as text (5 and "5"
 * are one value); `neq`/`not_in` hold for a field with no value; `exists` wants a non-empty value. Whether a stored
 * condition is well made is the service's (services/tickets/src/domain/show-when.ts).
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

export interface Clause {
  field: string
  op: string
  value?: Scalar | Scalar[] | undefined
}

/** Either form, as stored. */
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

export const isTicketKey = (k: string) => (TICKET_CONTEXT_KEYS as readonly string[]).includes(k)

/** The custom field a `cf.<key>` (or, in the single form, a bare key) names; undefined for ticket attributes. */
export function referencedKey(field: string): string | undefined {
  if (isTicketKey(field)) return undefined
  return field.startsWith('cf.') ? field.slice(3) : field
}

export const listOf = (v: Scalar | Scalar[] | undefined): Scalar[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v]

/** What one field or attribute holds, as text: none, one value, or a multiselect's choices. */
function held(field: string, ticket: TicketContext, values: Record<string, unknown>): string[] {
  const actual = isTicketKey(field)
    ? ticket[field.slice('ticket.'.length) as keyof TicketContext]
    : values[referencedKey(field) ?? '']
  if (actual === undefined || actual === null) return []
  return (Array.isArray(actual) ? actual : [actual]).map(String)
}

function clauseHolds(c: Clause, ticket: TicketContext, values: Record<string, unknown>): boolean {
  const have = held(c.field, ticket, values)
  const want = listOf(c.value).map(String)
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
export function conditionHolds(
  cond: ShowWhen | null | undefined,
  ticket: TicketContext,
  values: Record<string, unknown>,
): boolean {
  if (!cond) return true
  if (cond.all !== undefined) return cond.all.every((c) => clauseHolds(c, ticket, values))
  if (cond.any !== undefined) return cond.any.some((c) => clauseHolds(c, ticket, values))
  const have = held(cond.key ?? '', ticket, values)
  if (cond.equals !== undefined) return have.includes(String(cond.equals))
  if (cond.in !== undefined) return have.some((h) => cond.in!.map(String).includes(h))
  return !have.includes(String(cond.not_equals))
}
