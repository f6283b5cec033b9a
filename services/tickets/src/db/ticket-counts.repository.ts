import { type Dialect, type Scope, whereScope } from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'
import type { TicketFilters } from './ticket-query.ts'

// The list's totals from counts (PostgreSQL; migration 0023): a scope's tickets per status and priority, the sum of
// the folded rows and the deltas appended since. `ticket_counts` is not in TicketsDatabase (SQLite has no such table), hence `Kysely<any>`.

/** True when a list's filters are only status and priority: its total is a sum of counters, not a count of rows. */
export function countableByTotals(dialect: Dialect, f: TicketFilters): boolean {
  const none = (v: readonly unknown[] | undefined) => v === undefined || v.length === 0
  return (
    dialect === 'postgres' &&
    none(f.category) &&
    none(f.source) &&
    none(f.tags) &&
    none(f.agent_ids) &&
    none(f.customer_ids) &&
    none(f.custom) &&
    !f.search &&
    Object.values(f.ranges ?? {}).every((r) => r === undefined)
  )
}

/** The number of tickets of `scope` with any of `status` and any of `priority` (absent: any). */
export async function totalFromCounts(db: Kysely<any>, scope: Scope, f: Pick<TicketFilters, 'status' | 'priority'>) {
  let q = whereScope(db.selectFrom('ticket_counts'), scope).select(sql<string>`coalesce(sum(n), 0)`.as('n'))
  if (f.status?.length) q = q.where('status', 'in', f.status)
  if (f.priority?.length) q = q.where('priority', 'in', f.priority)
  const row = await q.executeTakeFirst()
  return Number(row?.n ?? 0)
}

/**
 * Folds the appended deltas into one row per key (zero keys dropped), in one statement: what a concurrent writer
 * appends meanwhile is not in the statement's snapshot and stays for the next fold; a reader sees the table before
 * or after, never half. Returns the rows folded away. The `tickets-count-compaction` worker runs it.
 */
export async function compactTicketCounts(db: Kysely<any>): Promise<number> {
  // Only keys with more than one row (or a zero sum) are touched: a quiet table is not rewritten every pass.
  const r = await sql<{ folded: string }>`
    with gone as (
      delete from ticket_counts
      where (tenant_id, workspace_id, status, priority) in (
        select tenant_id, workspace_id, status, priority from ticket_counts
        group by tenant_id, workspace_id, status, priority
        having count(*) > 1 or sum(n) = 0
      )
      returning *
    ),
    kept as (
      insert into ticket_counts
      select tenant_id, workspace_id, status, priority, sum(n) from gone
      group by tenant_id, workspace_id, status, priority
      having sum(n) <> 0
      returning 1
    )
    select (select count(*) from gone) - (select count(*) from kept) as folded
  `.execute(db)
  return Number(r.rows[0]?.folded ?? 0)
}

/**
 * The counts again from the rows, in one transaction: after a bulk load with the triggers off, or to repair by hand.
 * Writers wait for it (a share lock on tickets), so nothing is counted twice or missed.
 */
export async function rebuildTicketCounts(db: Kysely<any>): Promise<void> {
  const rebuild = async (trx: Kysely<any>) => {
    await sql`lock table tickets in share mode`.execute(trx)
    await sql`delete from ticket_counts`.execute(trx)
    await sql`
      insert into ticket_counts (tenant_id, workspace_id, status, priority, n)
      select tenant_id, workspace_id, status, priority, count(*) from tickets
      group by tenant_id, workspace_id, status, priority
    `.execute(trx)
  }
  // a migration runs in the migrator's transaction already
  if (db.isTransaction) await rebuild(db)
  else await db.transaction().execute(rebuild)
}
