/**
 * When a custom field shows on the ticket form: the console's copy of the tickets service's rule
 * (services/tickets/src/domain/show-when.ts, README "Custom fields"), so the form shows exactly the fields the
 * service will ask for. Values compare as text; a multiselect holds each of its choices; `neq`/`not_in` hold for a
 * field with no value; `exists` wants a non-empty value.
 */
export type Scalar = string | number | boolean

export interface Clause {
  field: string
  op: string
  value?: Scalar | Scalar[]
}

export interface ShowWhen {
  key?: string
  equals?: Scalar
  in?: Scalar[]
  not_equals?: Scalar
  all?: Clause[]
  any?: Clause[]
}

/** The ticket's own attributes a condition may look at. */
export interface TicketContext {
  category: string
  priority: string
  source: string
  status: string
}

export const TICKET_CONTEXT_KEYS = ['ticket.category', 'ticket.priority', 'ticket.source', 'ticket.status'] as const
export const CONDITION_OPS = ['eq', 'neq', 'in', 'not_in', 'exists'] as const

const listOf = (v: Scalar | Scalar[] | undefined): Scalar[] => (v === undefined ? [] : Array.isArray(v) ? v : [v])

function held(field: string, ticket: TicketContext, values: Record<string, unknown>): string[] {
  const actual = (TICKET_CONTEXT_KEYS as readonly string[]).includes(field)
    ? ticket[field.slice('ticket.'.length) as keyof TicketContext]
    : values[field.startsWith('cf.') ? field.slice(3) : field]
  if (actual === undefined || actual === null) return []
  return (Array.isArray(actual) ? actual : [actual]).map(String)
}

function clauseHolds(c: Clause, ticket: TicketContext, values: Record<string, unknown>): boolean {
  const have = held(c.field, ticket, values)
  const want = listOf(c.value).map(String)
  switch (c.op) {
    case 'exists':
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
      return false
  }
}

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
  if (cond.in !== undefined) return have.some((h) => (cond.in ?? []).map(String).includes(h))
  return !have.includes(String(cond.not_equals))
}
