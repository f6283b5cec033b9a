import { type Scope, storedIsOlder, type Tx, type Version } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import { countViolation, moveRating, moveTicket, type TicketFacts } from './aggregates.repository.ts'
import type { SatisfactionsTable, SlaViolationsTable, StatisticsDatabase, TicketsTable } from './database.ts'
import type { BatchTickets, StatsTx, UnitOfWork } from './unit-of-work.ts'

type Db = Kysely<StatisticsDatabase>

// A row read to be changed is locked (tx.forUpdate: PostgreSQL) until the transaction ends, so that what the
// aggregates are moved by (before → after) is what another replica's transaction sees next. SQLite has one writer.

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

async function lockTicket(tx: StatsTx, ticket_id: string): Promise<TicketFacts | undefined> {
  return tx
    .forUpdate(tx.db.selectFrom('tickets').select(TICKET_FACTS).where('ticket_id', '=', ticket_id))
    .executeTakeFirst()
}

const inserted = (r: { numInsertedOrUpdatedRows?: bigint }) => Number(r.numInsertedOrUpdatedRows ?? 0n) > 0

/**
 * A ticket's facts (created or updated: the whole record). True when this made the row, so the caller counts
 * the ticket once whichever of its events arrived first. `ON CONFLICT DO NOTHING` waits for a concurrent insert of
 * the same ticket on PostgreSQL, so two replicas never both count it. The aggregates move with the row.
 */
export async function projectTicket(tx: StatsTx, row: Omit<TicketsTable, 'resolved_at'>): Promise<boolean> {
  const { db, work } = tx
  const cached = batchTicket(tx, row.ticket_id)
  if (cached) return projectTicketIn(tx, cached, row)
  const made = await db
    .insertInto('tickets')
    .values({ ...row, resolved_at: null })
    .onConflict((oc) => oc.column('ticket_id').doNothing())
    .executeTakeFirst()
  if (inserted(made)) {
    moveTicket(work, null, { ...row, resolved_at: null })
    return true
  }
  const before = await lockTicket(tx, row.ticket_id)
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
    moveTicket(work, before, { ...before, agent_id, category, priority, status })
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
  tx: StatsTx,
  ticket_id: string,
  status: string,
  v: Version,
  resolved_at: string | null,
): Promise<StatusChange> {
  const { db, work } = tx
  const cached = batchTicket(tx, ticket_id)
  if (cached) return changeTicketStatusIn(tx, cached, ticket_id, status, v, resolved_at)
  const before = await lockTicket(tx, ticket_id)
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
    moveTicket(work, before, {
      ...before,
      status: statusMoved ? status : before.status,
      resolved_at: resolved ? resolved_at : before.resolved_at,
    })
  }
  return { found: true, resolved }
}

// A batch's tickets (the unit of work's): the rows its events name are read in one statement, locked, before its
// handlers run; projectTicket and changeTicketStatus then read and change them in memory, by the same rules as the
// statements above, and the rows made or changed are written in a few statements at the batch's flush. A batch's
// transaction holds its projection's lock, so no other transaction changes these rows meanwhile.

/** The batch's tickets when they hold `ticket_id` (found or known missing); otherwise the statements run. */
function batchTicket(tx: StatsTx, ticket_id: string): BatchTickets | undefined {
  const tickets = tx.work.tickets
  return tickets?.rows.has(ticket_id) ? tickets : undefined
}

/** A timestamp as the ISO string both engines compare (PostgreSQL answers a Date). */
const iso = (at: string | Date) => new Date(at).toISOString()

/**
 * The stored row is older than `v` (storedIsOlder, in memory). Both timestamps are ISO strings already: the cached
 * rows' as preloadTickets normalised them, the events' as versionOf did.
 */
const olderThan = (row: TicketsTable, v: Version) =>
  row.version_at < v.version_at || (row.version_at === v.version_at && row.version_id < v.version_id)

/** The batch's row of a ticket, made or changed: written at the flush. */
function put(tickets: BatchTickets, row: TicketsTable): void {
  tickets.rows.set(row.ticket_id, row)
  tickets.changed.add(row.ticket_id)
}

/**
 * Reads the tickets `ids` names into the batch's cache (locked on PostgreSQL), those not projected yet as null. From
 * now on the batch's handlers change them in memory; writeBatchTickets writes them.
 */
export async function preloadTickets(
  tx: Tx<StatisticsDatabase>,
  work: UnitOfWork,
  ids: readonly string[],
): Promise<void> {
  const rows = new Map<string, TicketsTable | null>()
  const wanted = [...new Set(ids)].sort()
  for (let i = 0; i < wanted.length; i += 500) {
    const chunk = wanted.slice(i, i + 500)
    for (const id of chunk) rows.set(id, null)
    const found = await tx.forUpdate(tx.db.selectFrom('tickets').selectAll().where('ticket_id', 'in', chunk)).execute()
    for (const r of found) {
      rows.set(r.ticket_id, {
        ...r,
        created_at: iso(r.created_at),
        resolved_at: r.resolved_at === null ? null : iso(r.resolved_at),
        version_at: iso(r.version_at),
      })
    }
  }
  work.tickets = { rows, changed: new Set() }
}

async function projectTicketIn(
  tx: StatsTx,
  tickets: BatchTickets,
  row: Omit<TicketsTable, 'resolved_at'>,
): Promise<boolean> {
  const stored = tickets.rows.get(row.ticket_id)
  if (!stored) {
    const made = { ...row, created_at: iso(row.created_at), resolved_at: null }
    put(tickets, made)
    moveTicket(tx.work, null, made)
    return true
  }
  if (!olderThan(stored, row)) return false
  const { agent_id, category, priority, status, version_at, version_id } = row
  const after = { ...stored, agent_id, category, priority, status, version_at, version_id }
  put(tickets, after)
  moveTicket(tx.work, stored, after)
  return false
}

async function changeTicketStatusIn(
  tx: StatsTx,
  tickets: BatchTickets,
  ticket_id: string,
  status: string,
  v: Version,
  resolved_at: string | null,
): Promise<StatusChange> {
  const before = tickets.rows.get(ticket_id)
  if (!before) return { found: false, resolved: false }
  const statusMoved = olderThan(before, v)
  const resolved = resolved_at !== null && before.resolved_at === null
  if (!statusMoved && !resolved) return { found: true, resolved: false }
  const after: TicketsTable = {
    ...before,
    ...(statusMoved ? { status, ...v } : {}),
    ...(resolved ? { resolved_at: iso(resolved_at) } : {}),
  }
  put(tickets, after)
  moveTicket(tx.work, before, after)
  return { found: true, resolved }
}

/** The batch's tickets made or changed, written (a batch's flush): a few rows per statement, in id order. */
export async function writeBatchTickets(db: Db, tickets: BatchTickets | undefined): Promise<void> {
  if (!tickets?.changed.size) return
  const rows = [...tickets.changed].sort().map((id) => tickets.rows.get(id)!)
  for (let i = 0; i < rows.length; i += 80) {
    await db
      .insertInto('tickets')
      .values(rows.slice(i, i + 80))
      .onConflict((oc) =>
        oc.column('ticket_id').doUpdateSet((eb) => ({
          agent_id: eb.ref('excluded.agent_id'),
          category: eb.ref('excluded.category'),
          priority: eb.ref('excluded.priority'),
          status: eb.ref('excluded.status'),
          resolved_at: eb.ref('excluded.resolved_at'),
          version_at: eb.ref('excluded.version_at'),
          version_id: eb.ref('excluded.version_id'),
        })),
      )
      .execute()
  }
}

/**
 * A rating, whole; `removed` marks a removal. The first event to arrive sets created_at; later ones keep it, and
 * change the rest only if newer (newest wins). The day's rating sum and count move with the row.
 */
export async function projectSatisfaction(tx: StatsTx, row: SatisfactionsTable): Promise<void> {
  const { db, work } = tx
  const made = await db
    .insertInto('satisfactions')
    .values(row)
    .onConflict((oc) => oc.column('satisfaction_id').doNothing())
    .executeTakeFirst()
  if (inserted(made)) {
    moveRating(work, null, row)
    return
  }
  const before = await tx
    .forUpdate(
      db
        .selectFrom('satisfactions')
        .select(['tenant_id', 'workspace_id', 'rating', 'removed', 'created_at'])
        .where('satisfaction_id', '=', row.satisfaction_id),
    )
    .executeTakeFirst()
  const changed = await db
    .updateTable('satisfactions')
    .set({ rating: row.rating, removed: row.removed, version_at: row.version_at, version_id: row.version_id })
    .where('satisfaction_id', '=', row.satisfaction_id)
    .where(storedIsOlder('satisfactions', row))
    .executeTakeFirst()
  if (before && Number(changed.numUpdatedRows) > 0) {
    moveRating(work, before, { ...before, rating: row.rating, removed: row.removed })
  }
}

/** A violation, keyed by its id; true when new (counted in DailyStats and its scope's day then). */
export async function recordViolation(tx: StatsTx, row: SlaViolationsTable): Promise<boolean> {
  const r = await tx.db
    .insertInto('sla_violations')
    .values(row)
    .onConflict((oc) => oc.column('violation_id').doNothing())
    .executeTakeFirst()
  if (!inserted(r)) return false
  const scope: Scope = { tenant_id: row.tenant_id, workspace_id: row.workspace_id }
  countViolation(tx.work, scope, row.violated_at)
  return true
}
