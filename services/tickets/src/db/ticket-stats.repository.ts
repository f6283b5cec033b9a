import { type Scope, whereScope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { TicketStats } from '../schemas/ticket-views.schemas.ts'
import type { TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

type Grouped = 'status' | 'priority' | 'category'

/** GET /api/tickets/stats: counts over the scope (one agent's tickets when `agentIds` is given), grouped per index. */
export async function ticketStats(
  db: Db,
  scope: Scope,
  agentIds: string[] | undefined,
  now: Date,
): Promise<TicketStats> {
  const base = () => {
    const q = whereScope(db.selectFrom('tickets'), scope)
    return agentIds ? q.where('agent_id', 'in', agentIds) : q
  }
  const grouped = async (column: Grouped) => {
    const rows = await base()
      .select([column, (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(column)
      .execute()
    return rows
      .map((r) => ({ key: String(r[column as keyof typeof r]), count: Number(r.count) }))
      .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key))
  }
  const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString()
  const [byStatus, byPriority, byCategory, today] = await Promise.all([
    grouped('status'),
    grouped('priority'),
    grouped('category'),
    base()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('created_at', '>=', midnight)
      .executeTakeFirstOrThrow(),
  ])
  const count = (status: string) => byStatus.find((s) => s.key === status)?.count ?? 0
  return {
    total: byStatus.reduce((n, s) => n + s.count, 0),
    today_created: Number(today.n),
    pending: count('open') + count('assigned'),
    in_progress: count('in_progress'),
    resolved: count('resolved'),
    closed: count('closed'),
    by_status: byStatus.map((s) => ({ status: s.key, count: s.count })),
    by_priority: byPriority.map((s) => ({ priority: s.key, count: s.count })),
    by_category: byCategory.map((s) => ({ category: s.key, count: s.count })),
  }
}
