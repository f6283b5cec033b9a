import type { Scope } from '@switchboard/platform'
import { type ExpressionBuilder, type Kysely, sql } from 'kysely'
import type { TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

// Projections of other services' records, kept from their events (docs/architecture.md §1, rule 3). Each upsert
// keeps the newest event's facts: a redelivered older event does not undo a newer one.

export async function upsertCustomerTier(
  db: Db,
  scope: Scope,
  c: { user_id: string; tier: string; name: string },
  at: string,
): Promise<void> {
  await db
    .insertInto('sla_customer_tiers')
    .values({ ...scope, ...c, updated_at: at })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'workspace_id', 'user_id'])
        .doUpdateSet({ tier: c.tier, name: c.name, updated_at: at })
        .where('sla_customer_tiers.updated_at', '<=', at),
    )
    .execute()
}

export async function upsertAgentName(
  db: Db,
  scope: Scope,
  a: { user_id: string; name: string },
  at: string,
): Promise<void> {
  await db
    .insertInto('satisfaction_agents')
    .values({ ...scope, ...a, updated_at: at })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'workspace_id', 'user_id'])
        .doUpdateSet({ name: a.name, updated_at: at })
        .where('satisfaction_agents.updated_at', '<=', at),
    )
    .execute()
}

/** A customer's tier, `normal` when identity never said. */
export async function customerTier(db: Db, scope: Scope, userId: string): Promise<string> {
  const row = await db
    .selectFrom('sla_customer_tiers')
    .select('tier')
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row?.tier ?? 'normal'
}

/** Display names from identity's directory ('' when unknown), for surveys and macros. */
export async function displayNames(db: Db, scope: Scope, ids: { customer?: string | null; agent?: string | null }) {
  const [customer, agent] = await Promise.all([
    ids.customer
      ? db
          .selectFrom('sla_customer_tiers')
          .select('name')
          .where('tenant_id', '=', scope.tenant_id)
          .where('workspace_id', '=', scope.workspace_id)
          .where('user_id', '=', ids.customer)
          .executeTakeFirst()
      : undefined,
    ids.agent
      ? db
          .selectFrom('satisfaction_agents')
          .select('name')
          .where('tenant_id', '=', scope.tenant_id)
          .where('workspace_id', '=', scope.workspace_id)
          .where('user_id', '=', ids.agent)
          .executeTakeFirst()
      : undefined,
  ])
  return { customer: customer?.name ?? '', agent: agent?.name ?? '' }
}

export interface SessionLink {
  session_id: string
  customer_id: string | null
  ticket_id: string | null
}

/** A session's customer and ticket, as its newest event describes them (an unlinked session has no ticket). */
export async function upsertSessionLink(db: Db, scope: Scope, s: SessionLink, at: string): Promise<void> {
  await db
    .insertInto('sla_session_tickets')
    .values({ ...scope, ...s, updated_at: at })
    .onConflict((oc) =>
      oc
        .column('session_id')
        .doUpdateSet({ customer_id: s.customer_id, ticket_id: s.ticket_id, updated_at: at })
        .where('sla_session_tickets.updated_at', '<=', at),
    )
    .execute()
}

export async function findSessionLink(db: Db, scope: Scope, sessionId: string): Promise<SessionLink | undefined> {
  return db
    .selectFrom('sla_session_tickets')
    .select(['session_id', 'customer_id', 'ticket_id'])
    .where('session_id', '=', sessionId)
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .executeTakeFirst()
}

/**
 * The open tickets with no first response before `before` (a message's time) of each session in `sessionIds`: the
 * session's own, or the ticket the session continues (its link in sla_session_tickets), each row with `via`, the
 * session it answers to — one read for a batch of agent messages, a UNION of two index lookups (tickets_scope_session_idx;
 * the link's primary key, then tickets' primary key). Not `session_id = … OR id IN (…)`: PostgreSQL cannot split
 * that OR over two indexes and scans every open ticket of the workspace instead.
 */
export function awaitingFirstResponseIn(db: Db, scope: Scope, sessionIds: readonly string[], before: string) {
  return awaitingFirstResponseQuery(db, scope, sessionIds, before).execute()
}

const WAITING_COLUMNS = [
  'tickets.id',
  'tickets.tenant_id',
  'tickets.workspace_id',
  'tickets.priority',
  'tickets.customer_id',
  'tickets.status',
  'tickets.created_at',
  'tickets.resolved_at',
] as const

/** The statement of {@link awaitingFirstResponseIn}, unexecuted (its plan is tested). */
export function awaitingFirstResponseQuery(db: Db, scope: Scope, sessionIds: readonly string[], before: string) {
  const open = (eb: ExpressionBuilder<TicketsDatabase, 'tickets'>) =>
    eb.and([
      eb('tickets.tenant_id', '=', scope.tenant_id),
      eb('tickets.workspace_id', '=', scope.workspace_id),
      eb('tickets.first_response_at', 'is', null),
      eb('tickets.status', 'in', ['open', 'assigned', 'in_progress']),
      eb('tickets.created_at', '<=', before),
    ])
  const own = db
    .selectFrom('tickets')
    .select([...WAITING_COLUMNS, sql<string>`tickets.session_id`.as('via')])
    .where('tickets.session_id', 'in', sessionIds)
    .where(open)
  // session_id is the link's key: at most one row per session (its ticket_id null: no ticket)
  const linked = db
    .selectFrom('sla_session_tickets')
    .innerJoin('tickets', 'tickets.id', 'sla_session_tickets.ticket_id')
    .select([...WAITING_COLUMNS, 'sla_session_tickets.session_id as via'])
    .where('sla_session_tickets.session_id', 'in', sessionIds)
    .where('sla_session_tickets.tenant_id', '=', scope.tenant_id)
    .where('sla_session_tickets.workspace_id', '=', scope.workspace_id)
    .where(open)
  return own.union(linked)
}
