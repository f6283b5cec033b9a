import { type Dialect, type PageWindow, type Scope, selectPage, whereScope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { Satisfaction } from '../schemas/satisfaction.schemas.ts'
import type { TicketsDatabase } from './database.ts'
import { utcDay } from './sla-stats.repository.ts'

type Db = Kysely<TicketsDatabase>

export async function insertSatisfaction(db: Db, s: Satisfaction): Promise<void> {
  await db.insertInto('customer_satisfactions').values(s).execute()
}

export async function findSatisfaction(db: Db, id: string, scope: Scope): Promise<Satisfaction | undefined> {
  return whereScope(db.selectFrom('customer_satisfactions').selectAll().where('id', '=', id), scope).executeTakeFirst()
}

/** The rating of a ticket (one at most: unique by ticket); with `scope`, only within it. */
export async function satisfactionOfTicket(
  db: Db,
  ticketId: string,
  scope: Scope = { tenant_id: '', workspace_id: '' },
): Promise<Satisfaction | undefined> {
  const q = db.selectFrom('customer_satisfactions').selectAll().where('ticket_id', '=', ticketId)
  return whereScope(q, scope).executeTakeFirst()
}

/** The rating of a conversation (one at most: unique by session). */
export async function satisfactionOfSession(db: Db, sessionId: string): Promise<Satisfaction | undefined> {
  return db.selectFrom('customer_satisfactions').selectAll().where('session_id', '=', sessionId).executeTakeFirst()
}

export async function writeSatisfaction(db: Db, id: string, patch: Partial<Satisfaction>): Promise<void> {
  await db.updateTable('customer_satisfactions').set(patch).where('id', '=', id).execute()
}

export async function deleteSatisfaction(db: Db, id: string): Promise<void> {
  await db.deleteFrom('customer_satisfactions').where('id', '=', id).execute()
}

export interface SatisfactionFilters {
  ticket_id?: string
  customer_id?: string
  session_id?: string
  agent_id?: string
  rating?: number
  category?: string
  /** created_at ≥ from and < to */
  from?: string
  to?: string
}

function filtered(db: Db, scope: Scope, f: SatisfactionFilters) {
  let q = whereScope(db.selectFrom('customer_satisfactions'), scope)
  if (f.ticket_id) q = q.where('ticket_id', '=', f.ticket_id)
  if (f.customer_id) q = q.where('customer_id', '=', f.customer_id)
  if (f.session_id) q = q.where('session_id', '=', f.session_id)
  if (f.agent_id) q = q.where('agent_id', '=', f.agent_id)
  if (f.rating !== undefined) q = q.where('rating', '=', f.rating)
  if (f.category) q = q.where('category', '=', f.category)
  if (f.from) q = q.where('created_at', '>=', f.from)
  if (f.to) q = q.where('created_at', '<', f.to)
  return q
}

export async function listSatisfactions(db: Db, scope: Scope, f: SatisfactionFilters, window: PageWindow) {
  return selectPage(filtered(db, scope, f), window, (qb) =>
    qb.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
  )
}

const avg = (sum: number, n: number) => (n === 0 ? 0 : Math.round((sum / n) * 100) / 100)

/** Counts and sums per rating, per category and per UTC day, in three grouped reads of the same filter. */
export async function satisfactionStats(db: Db, dialect: Dialect, scope: Scope, f: SatisfactionFilters) {
  const base = () => filtered(db, scope, f)
  const [byRating, byCategory, byDay] = await Promise.all([
    base()
      .select(['rating', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('rating')
      .execute(),
    base()
      .select(['category', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>('rating').as('sum')])
      .groupBy('category')
      .execute(),
    base()
      .select([
        utcDay(dialect, 'created_at').as('date'),
        (eb) => eb.fn.countAll<number>().as('n'),
        (eb) => eb.fn.sum<number>('rating').as('sum'),
      ])
      .groupBy(utcDay(dialect, 'created_at'))
      .execute(),
  ])
  const distribution: Record<string, number> = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 }
  let total = 0
  let sum = 0
  for (const r of byRating) {
    distribution[String(r.rating)] = Number(r.n)
    total += Number(r.n)
    sum += Number(r.n) * r.rating
  }
  return {
    total_ratings: total,
    average_rating: avg(sum, total),
    rating_distribution: distribution,
    category_stats: Object.fromEntries(
      byCategory.map((r) => [r.category, { count: Number(r.n), average_rating: avg(Number(r.sum), Number(r.n)) }]),
    ),
    byDay: new Map(byDay.map((r) => [r.date, { count: Number(r.n), average_rating: avg(Number(r.sum), Number(r.n)) }])),
  }
}
