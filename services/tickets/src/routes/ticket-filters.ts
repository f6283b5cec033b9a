import type { Scope } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { fieldTypes } from '../db/custom-fields.repository.ts'
import { findAgent, findCustomer } from '../db/directory.repository.ts'
import { DEFAULT_SORT, TIME_COLUMNS, type TicketFilters, type TicketSort } from '../db/ticket-query.ts'
import { type FilterTerm, filterTerm } from '../domain/custom-fields.ts'
import { parseTimeRange } from '../domain/date-range.ts'
import { TicketErrors } from '../errors.ts'
import { CUSTOM_FILTER_PARAM, type ExportTicketsQuery } from '../schemas/tickets.schemas.ts'

type FilterQuery = Omit<ExportTicketsQuery, 'limit'>

const RANGE_NAMES = { created_at: 'created', updated_at: 'updated', resolved_at: 'resolved', closed_at: 'closed' }

/** A reference as given and, when it is a record id of the scope's directory, the user id tickets store. */
async function userIds(given: string | undefined, resolve: () => Promise<{ user_id: string } | undefined>) {
  if (given === undefined) return undefined
  const found = await resolve()
  return [...new Set([given, ...(found ? [found.user_id] : [])])]
}

/** `cf.<key>` / `cf_<key>` parameters as filter terms, typed by the fields of that key in the scope. */
async function customTerms(svc: TicketsService, scope: Scope, query: Record<string, unknown>): Promise<FilterTerm[]> {
  const wanted = new Map<string, string[]>()
  for (const [param, value] of Object.entries(query)) {
    const key = CUSTOM_FILTER_PARAM.exec(param)?.[1]
    if (!key || value === undefined) continue
    const values = (Array.isArray(value) ? value : [value]).map(String)
    wanted.set(key, [...(wanted.get(key) ?? []), ...values])
  }
  if (wanted.size === 0) return []
  const types = await fieldTypes(svc.db, scope, [...wanted.keys()])
  const terms: FilterTerm[] = []
  for (const [key, values] of wanted) {
    const made = filterTerm(key, values, types.get(key) ?? [])
    if (!made.ok) throw new TicketErrors.InvalidFilter(made.problem)
    terms.push(made.term)
  }
  return terms
}

/**
 * The list's (and export's) query as repository filters: date ranges parsed, `cf.<key>` parameters typed by the
 * scope's fields (an unknown key is a 400, not an empty list), and agent or customer record ids resolved to the
 * user ids tickets store.
 */
export async function ticketFiltersOf(
  svc: TicketsService,
  scope: Scope,
  query: FilterQuery,
): Promise<{ filters: TicketFilters; sort: TicketSort }> {
  const ranges: TicketFilters['ranges'] = {}
  for (const column of TIME_COLUMNS) {
    const name = RANGE_NAMES[column]
    const q = query as Record<string, string | undefined>
    const parsed = parseTimeRange(name, q[`${name}_from`], q[`${name}_to`])
    if (!parsed.ok) throw new TicketErrors.InvalidFilter(parsed.message)
    if (parsed.range.from || parsed.range.to) ranges[column] = parsed.range
  }
  const filters: TicketFilters = {
    status: query.status,
    priority: query.priority,
    category: query.category,
    source: query.source,
    tags: query.tag,
    search: query.search,
    ranges,
    agent_ids: await userIds(query.agent_id, () => findAgent(svc.db, query.agent_id!, scope)),
    customer_ids: await userIds(query.customer_id, () => findCustomer(svc.db, query.customer_id!, scope)),
    custom: await customTerms(svc, scope, query as Record<string, unknown>),
  }
  const sort: TicketSort = { by: query.sort_by ?? DEFAULT_SORT.by, order: query.sort_order ?? DEFAULT_SORT.order }
  return { filters, sort }
}
