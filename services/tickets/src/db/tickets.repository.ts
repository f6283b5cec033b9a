import { type Dialect, fromJson, likeOperator, toJson, whereScope } from '@switchboard/platform'
import { type Kysely, type Selectable, sql } from 'kysely'
import type { Ticket } from '../schemas/tickets.schemas.ts'
import type { TicketsDatabase, TicketsTable } from './database.ts'

type Db = Kysely<TicketsDatabase>
export type Scope = { tenant_id: string; workspace_id: string }

export interface TicketFilters {
  status?: string
  priority?: string
  category?: string
  agent_id?: string
  customer_id?: string
  search?: string
}

export function toTicket(row: Selectable<TicketsTable>): Ticket {
  return {
    ...row,
    tags: fromJson<string[]>(row.tags, []),
    custom_fields: fromJson<Record<string, unknown>>(row.custom_fields, {}),
  }
}

export async function insertTicket(db: Db, ticket: Ticket): Promise<void> {
  await db
    .insertInto('tickets')
    .values({ ...ticket, tags: toJson(ticket.tags)!, custom_fields: toJson(ticket.custom_fields)! })
    .execute()
}

/**
 * Scoped: a ticket of another tenant or workspace is not found, like a missing one. `forUpdate` locks the
 * row until the transaction ends (PostgreSQL only; SQLite's single writer already serialises), so two
 * concurrent transitions can't both pass the status check.
 */
export async function findTicket(
  db: Db,
  id: string,
  scope: Scope,
  opts: { forUpdate?: boolean } = {},
): Promise<Ticket | undefined> {
  let q = whereScope(db.selectFrom('tickets').selectAll().where('id', '=', id), scope)
  if (opts.forUpdate) q = q.forUpdate()
  const row = await q.executeTakeFirst()
  return row ? toTicket(row) : undefined
}

/** Writes the fields that differ; the caller has already read and checked the ticket in the same transaction. */
export async function updateTicket(db: Db, id: string, patch: Partial<Ticket>): Promise<void> {
  const { tags, custom_fields, ...plain } = patch
  await db
    .updateTable('tickets')
    .set({
      ...plain,
      ...(tags !== undefined ? { tags: toJson(tags)! } : {}),
      ...(custom_fields !== undefined ? { custom_fields: toJson(custom_fields)! } : {}),
    })
    .where('id', '=', id)
    .execute()
}

// LIKE wildcards in the caller's text are literals; `escape` is explicit because SQLite has no default.
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export async function listTickets(
  db: Db,
  dialect: Dialect,
  scope: Scope,
  filters: TicketFilters,
  page: { offset: number; limit: number },
): Promise<{ rows: Ticket[]; total: number }> {
  let q = whereScope(db.selectFrom('tickets'), scope)
  if (filters.status) q = q.where('status', '=', filters.status)
  if (filters.priority) q = q.where('priority', '=', filters.priority)
  if (filters.category) q = q.where('category', '=', filters.category)
  if (filters.agent_id) q = q.where('agent_id', '=', filters.agent_id)
  if (filters.customer_id) q = q.where('customer_id', '=', filters.customer_id)
  if (filters.search) {
    const op = sql.raw(likeOperator(dialect))
    const pattern = likePattern(filters.search)
    q = q.where(
      (eb) =>
        sql<boolean>`(${eb.ref('title')} ${op} ${pattern} escape '\\' or ${eb.ref('description')} ${op} ${pattern} escape '\\')`,
    )
  }
  const [count, rows] = await Promise.all([
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute(),
  ])
  return { rows: rows.map(toTicket), total: Number(count.n) }
}
