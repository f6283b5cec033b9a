import { type Dialect, likeOperator, type PageWindow, type Scope, selectPage, whereScope } from '@switchboard/platform'
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely'
import type { FilterTerm } from '../domain/custom-fields.ts'
import type { TimeRange } from '../domain/date-range.ts'
import type { Ticket } from '../schemas/tickets.schemas.ts'
import type { TicketsDatabase } from './database.ts'
import { countableByTotals, totalFromCounts } from './ticket-counts.repository.ts'
import { toTicket } from './tickets.repository.ts'

type Db = Kysely<TicketsDatabase>
// biome-ignore lint/complexity/noBannedTypes: Kysely's own type for a query that selects nothing yet
type Filtered = SelectQueryBuilder<TicketsDatabase, 'tickets', {}>

export const TIME_COLUMNS = ['created_at', 'updated_at', 'resolved_at', 'closed_at'] as const
export type TimeColumn = (typeof TIME_COLUMNS)[number]

/** GET /api/tickets and its export, resolved: each list is "any of", except `tags` (every one). */
export interface TicketFilters {
  status?: string[]
  priority?: string[]
  category?: string[]
  source?: string[]
  tags?: string[]
  /** user ids (an agent record id given by the caller is resolved to its user id beside it) */
  agent_ids?: string[]
  customer_ids?: string[]
  search?: string
  ranges?: Partial<Record<TimeColumn, TimeRange>>
  custom?: FilterTerm[]
}

export interface TicketSort {
  by: 'created_at' | 'updated_at' | 'id' | 'priority' | 'status' | 'category' | 'resolved_at' | 'closed_at'
  order: 'asc' | 'desc'
}

export const DEFAULT_SORT: TicketSort = { by: 'created_at', order: 'desc' }

// LIKE wildcards in the caller's text are literals; `escape` is explicit because SQLite has no default.
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

const any = (values: string[] | undefined) => values !== undefined && values.length > 0

/** The scoped, filtered tickets; each filter is served by an index with the scope as its prefix (migration 0011). */
export function filteredTickets(db: Db, dialect: Dialect, scope: Scope, f: TicketFilters): Filtered {
  let q = whereScope(db.selectFrom('tickets'), scope)
  if (any(f.status)) q = q.where('status', 'in', f.status!)
  if (any(f.priority)) q = q.where('priority', 'in', f.priority!)
  if (any(f.category)) q = q.where('category', 'in', f.category!)
  if (any(f.source)) q = q.where('source', 'in', f.source!)
  if (any(f.agent_ids)) q = q.where('agent_id', 'in', f.agent_ids!)
  if (any(f.customer_ids)) q = q.where('customer_id', 'in', f.customer_ids!)
  for (const tag of f.tags ?? []) {
    q = q.where('id', 'in', whereScope(db.selectFrom('ticket_tags').select('ticket_id').where('tag', '=', tag), scope))
  }
  for (const term of f.custom ?? []) {
    q = q.where(
      'id',
      'in',
      whereScope(
        db
          .selectFrom('ticket_custom_values')
          .select('ticket_id')
          .where('key', '=', term.key)
          .where((eb) =>
            eb.or([
              ...(term.texts.length ? [eb('value_text', 'in', term.texts)] : []),
              ...(term.numbers.length ? [eb('value_number', 'in', term.numbers)] : []),
            ]),
          ),
        scope,
      ),
    )
  }
  for (const column of TIME_COLUMNS) {
    const range = f.ranges?.[column]
    if (range?.from) q = q.where(column, '>=', range.from)
    if (range?.to) q = q.where(column, range.to.exclusive ? '<' : '<=', range.to.at)
  }
  if (f.search) {
    const op = sql.raw(likeOperator(dialect))
    const pattern = likePattern(f.search)
    q = q.where(
      (eb) =>
        sql<boolean>`(${eb.ref('title')} ${op} ${pattern} escape '\\' or ${eb.ref('description')} ${op} ${pattern} escape '\\')`,
    )
  }
  return q
}

const PRIORITY_RANK = sql<number>`case priority when 'low' then 0 when 'normal' then 1 when 'high' then 2 when 'urgent' then 3 else 4 end`

/**
 * The list's order; ties broken by id (time-ordered), in the same direction. Priority sorts by rank (low → urgent),
 * not by name; tickets without a resolved_at/closed_at come last either way, on both engines.
 */
function ordered<O>(
  qb: SelectQueryBuilder<TicketsDatabase, 'tickets', O>,
  sort: TicketSort,
): SelectQueryBuilder<TicketsDatabase, 'tickets', O> {
  const dir = sort.order
  if (sort.by === 'id') return qb.orderBy('id', dir)
  if (sort.by === 'priority') return qb.orderBy(PRIORITY_RANK, dir).orderBy('id', dir)
  if (sort.by === 'resolved_at' || sort.by === 'closed_at') {
    return qb
      .orderBy(sql`${sql.ref(sort.by)} is null`)
      .orderBy(sort.by, dir)
      .orderBy('id', dir)
  }
  return qb.orderBy(sort.by, dir).orderBy('id', dir)
}

export async function listTickets(
  db: Db,
  dialect: Dialect,
  scope: Scope,
  filters: TicketFilters,
  sort: TicketSort,
  window: PageWindow,
): Promise<{ rows: Ticket[]; total: number }> {
  const base = filteredTickets(db, dialect, scope, filters)
  if (countableByTotals(dialect, filters)) {
    // status/priority only (the commonest lists): the total from counters instead of counting the scope's rows
    const [rows, total] = await Promise.all([
      ordered(base.selectAll(), sort).offset(window.offset).limit(window.limit).execute(),
      totalFromCounts(db, scope, filters),
    ])
    return { rows: rows.map(toTicket), total }
  }
  const { rows, total } = await selectPage(base, window, (qb) => ordered(qb.selectAll(), sort))
  return { rows: rows.map(toTicket), total }
}

/**
 * The export's ids, in the list's order, read in one statement (one consistent answer); the rows themselves are
 * then read in batches while the CSV streams out (ticketsByIds).
 */
export async function exportTicketIds(
  db: Db,
  dialect: Dialect,
  scope: Scope,
  filters: TicketFilters,
  sort: TicketSort,
  limit: number,
): Promise<string[]> {
  const rows = await ordered(filteredTickets(db, dialect, scope, filters).select('id'), sort)
    .limit(limit)
    .execute()
  return rows.map((r) => r.id)
}

/** Tickets by id, in the order of `ids` (a missing one is skipped). */
export async function ticketsByIds(db: Db, ids: readonly string[]): Promise<Ticket[]> {
  if (ids.length === 0) return []
  const rows = await db.selectFrom('tickets').selectAll().where('id', 'in', ids).execute()
  const byId = new Map(rows.map((r) => [r.id, toTicket(r)]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}
