import { type Dialect, type Scope, storedIsOlder, type Version } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import { countViolation, moveRating, moveTicket, type TicketFacts } from './aggregates.repository.ts'
import type { SatisfactionsTable, SlaViolationsTable, StatisticsDatabase, TicketsTable } from './database.ts'

type Db = Kysely<StatisticsDatabase>

/**
 * A row read to be changed: locked on PostgreSQL until the transaction ends, so that what the aggregates are moved
 * by (before → after) is what another replica's transaction sees next. SQLite has one writer at a time already.
 */
function locked<Q extends { forUpdate(): Q }>(q: Q, dialect: Dialect): Q {
  return dialect === 'postgres' ? q.forUpdate() : q
}

const TICKET_FACTS = [
  'tenant_id',
  'workspace_id',
  'agent_id',
  'category',
  'priority',
  'status',
  'created_at',
  'resolved_at',
] as const

async function lockTicket(db: Db, dialect: Dialect, ticket_id: string): Promise<TicketFacts | undefined> {
  return locked(
    db.selectFrom('tickets').select(TICKET_FACTS).where('ticket_id', '=', ticket_id),
    dialect,
  ).executeTakeFirst()
}

const inserted = (r: { numInsertedOrUpdatedRows?: bigint }) => Number(r.numInsertedOrUpdatedRows ?? 0n) > 0

/**
 * A ticket's facts (created or updated: the whole record). True when this made the row, so the caller counts
 * the ticket once whichever of its events arrived first. `ON CONFLICT DO NOTHING` waits for a concurrent insert of
 * the same ticket on PostgreSQL, so two replicas never both count it. The aggregates move with the row.
 */
export async function projectTicket(
  db: Db,
  dialect: Dialect,
  row: Omit<TicketsTable, 'resolved_at'>,
): Promise<boolean> {
  const made = await db
    .insertInto('tickets')
    .values({ ...row, resolved_at: null })
    .onConflict((oc) => oc.column('ticket_id').doNothing())
    .executeTakeFirst()
  if (inserted(made)) {
    await moveTicket(db, null, { ...row, resolved_at: null })
    return true
  }
  const before = await lockTicket(db, dialect, row.ticket_id)
  const changed = await db
    .updateTable('tickets')
    .set({
      agent_id: row.agent_id,
      category: row.category,
      priority: row.priority,
      status: row.status,
      version_at: row.version_at,
      version_id: row.version_id,
    })
    .where('ticket_id', '=', row.ticket_id)
    .where(storedIsOlder('tickets', row))
    .executeTakeFirst()
  if (before && Number(changed.numUpdatedRows) > 0) {
    const { agent_id, category, priority, status } = row
    await moveTicket(db, before, { ...before, agent_id, category, priority, status })
  }
  return false
}

export interface StatusChange {
  /** false: the ticket is not projected yet (the change comes before its creation) */
  found: boolean
  /** this change set resolved_at (the resolution is counted in DailyStats then, and only then) */
  resolved: boolean
}

/**
 * A status change: the status if newer than what the row holds; resolved_at the first time only (a resolved ticket
 * never goes back to open, so it is resolved once). The aggregates move with the row.
 */
export async function changeTicketStatus(
  db: Db,
  dialect: Dialect,
  ticket_id: string,
  status: string,
  v: Version,
  resolved_at: string | null,
): Promise<StatusChange> {
  const before = await lockTicket(db, dialect, ticket_id)
  if (!before) return { found: false, resolved: false }
  const newer = await db
    .updateTable('tickets')
    .set({ status, ...v })
    .where('ticket_id', '=', ticket_id)
    .where(storedIsOlder('tickets', v))
    .executeTakeFirst()
  let resolved = false
  if (resolved_at && before.resolved_at === null) {
    const r = await db
      .updateTable('tickets')
      .set({ resolved_at })
      .where('ticket_id', '=', ticket_id)
      .where('resolved_at', 'is', null)
      .executeTakeFirst()
    resolved = Number(r.numUpdatedRows) > 0
  }
  const statusMoved = Number(newer.numUpdatedRows) > 0
  if (statusMoved || resolved) {
    await moveTicket(db, before, {
      ...before,
      status: statusMoved ? status : before.status,
      resolved_at: resolved ? resolved_at : before.resolved_at,
    })
  }
  return { found: true, resolved }
}

/**
 * A rating, whole; `removed` marks a removal. The first event to arrive sets created_at; later ones keep it, and
 * change the rest only if newer (newest wins). The day's rating sum and count move with the row.
 */
export async function projectSatisfaction(db: Db, dialect: Dialect, row: SatisfactionsTable): Promise<void> {
  const made = await db
    .insertInto('satisfactions')
    .values(row)
    .onConflict((oc) => oc.column('satisfaction_id').doNothing())
    .executeTakeFirst()
  if (inserted(made)) {
    await moveRating(db, null, row)
    return
  }
  const before = await locked(
    db
      .selectFrom('satisfactions')
      .select(['tenant_id', 'workspace_id', 'rating', 'removed', 'created_at'])
      .where('satisfaction_id', '=', row.satisfaction_id),
    dialect,
  ).executeTakeFirst()
  const changed = await db
    .updateTable('satisfactions')
    .set({ rating: row.rating, removed: row.removed, version_at: row.version_at, version_id: row.version_id })
    .where('satisfaction_id', '=', row.satisfaction_id)
    .where(storedIsOlder('satisfactions', row))
    .executeTakeFirst()
  if (before && Number(changed.numUpdatedRows) > 0) {
    await moveRating(db, before, { ...before, rating: row.rating, removed: row.removed })
  }
}

/** A violation, keyed by its id; true when new (counted in DailyStats and its scope's day then). */
export async function recordViolation(db: Db, row: SlaViolationsTable): Promise<boolean> {
  const r = await db
    .insertInto('sla_violations')
    .values(row)
    .onConflict((oc) => oc.column('violation_id').doNothing())
    .executeTakeFirst()
  if (!inserted(r)) return false
  const scope: Scope = { tenant_id: row.tenant_id, workspace_id: row.workspace_id }
  await countViolation(db, scope, row.violated_at)
  return true
}
