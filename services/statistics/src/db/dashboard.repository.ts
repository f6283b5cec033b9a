import { type Scope, whereScope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { StatisticsDatabase } from './database.ts'

type Db = Kysely<StatisticsDatabase>

const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v))

/**
 * total_customers: users with role customer (spec, User). Scoped, a user is reached through its customer records
 * of the scope (a user reaches a tenant only through its customer records), counted once however many it has: per workspace, the aggregate customer_counts;
 * a tenant without a workspace (a user may have records in several of its workspaces) counts the raw rows.
 */
export async function countCustomers(db: Db, scope: Scope): Promise<number> {
  if (!scope.tenant_id && !scope.workspace_id) {
    const row = await db
      .selectFrom('user_role_counts')
      .select('count')
      .where('role', '=', 'customer')
      .executeTakeFirst()
    return n(row?.count)
  }
  if (scope.tenant_id && scope.workspace_id) {
    const row = await whereScope(db.selectFrom('customer_counts'), scope).select('customers').executeTakeFirst()
    return n(row?.customers)
  }
  const q = db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('users.role', '=', 'customer')
    .where((eb) =>
      eb.exists(
        whereScope(
          eb
            .selectFrom('customers')
            .select('customers.customer_id')
            .whereRef('customers.user_id', '=', 'users.user_id'),
          scope,
          'customers',
        ),
      ),
    )
  return n((await q.executeTakeFirst())?.n)
}

/** Agents by status, and avg_response_time: the mean of agents.avg_response_time (seconds). */
export async function agentFigures(db: Db, scope: Scope) {
  const rows = await whereScope(db.selectFrom('agents'), scope)
    .select((eb) => [
      'status',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('avg_response_time').as('response_sum'),
    ])
    .groupBy('status')
    .execute()
  const total = rows.reduce((a, r) => a + n(r.n), 0)
  const responseSum = rows.reduce((a, r) => a + n(r.response_sum), 0)
  const byStatus = (s: string) => n(rows.find((r) => r.status === s)?.n)
  return {
    total_agents: total,
    online_agents: byStatus('online'),
    busy_agents: byStatus('busy'),
    avg_response_time: total === 0 ? 0 : responseSum / total,
  }
}

/**
 * Tickets: all and by status (ticket_status_counts), since `since` (the raw rows of today, by index),
 * avg_resolution_time over tickets with resolved_at set (seconds; the sums and counts of ticket_days).
 */
export async function ticketFigures(db: Db, scope: Scope, since: string) {
  const [byStatus, today, resolution] = await Promise.all([
    whereScope(db.selectFrom('ticket_status_counts'), scope)
      .select((eb) => ['status', eb.fn.sum<number>('count').as('n')])
      .groupBy('status')
      .execute(),
    whereScope(db.selectFrom('tickets'), scope)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('created_at', '>=', since)
      .executeTakeFirst(),
    whereScope(db.selectFrom('ticket_days'), scope)
      .select((eb) => [
        eb.fn.sum<number>('resolution_sum').as('sum'),
        eb.fn.sum<number>('resolution_count').as('count'),
      ])
      .executeTakeFirst(),
  ])
  const count = (s: string) => n(byStatus.find((r) => r.status === s)?.n)
  const resolved = n(resolution?.count)
  return {
    total_tickets: byStatus.reduce((a, r) => a + n(r.n), 0),
    today_tickets: n(today?.n),
    open_tickets: count('open'),
    assigned_tickets: count('assigned'),
    resolved_tickets: count('resolved'),
    closed_tickets: count('closed'),
    avg_resolution_time: resolved === 0 ? 0 : n(resolution?.sum) / resolved,
  }
}

/** Sessions: all and active (session_status_counts), since `since` (raw rows); messages since the bucket `sinceBucket`. */
export async function conversationFigures(db: Db, scope: Scope, since: string, sinceBucket: string) {
  const [byStatus, today, messages] = await Promise.all([
    whereScope(db.selectFrom('session_status_counts'), scope)
      .select((eb) => ['status', eb.fn.sum<number>('count').as('n')])
      .groupBy('status')
      .execute(),
    whereScope(db.selectFrom('sessions'), scope)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('created_at', '>=', since)
      .executeTakeFirst(),
    whereScope(db.selectFrom('message_counts'), scope)
      .select((eb) => eb.fn.sum<number>('count').as('n'))
      .where('bucket', '>=', sinceBucket)
      .executeTakeFirst(),
  ])
  return {
    total_sessions: byStatus.reduce((a, r) => a + n(r.n), 0),
    today_sessions: n(today?.n),
    today_messages: n(messages?.n),
    active_sessions: n(byStatus.find((r) => r.status === 'active')?.n),
  }
}

/** customer_satisfaction: the mean rating of the ratings kept (removed ones are not), 0 when there are none. */
export async function meanRating(db: Db, scope: Scope): Promise<number> {
  const row = await whereScope(db.selectFrom('ticket_days'), scope)
    .select((eb) => [eb.fn.sum<number>('rating_sum').as('sum'), eb.fn.sum<number>('rating_count').as('count')])
    .executeTakeFirst()
  const count = n(row?.count)
  return count === 0 ? 0 : n(row?.sum) / count
}
