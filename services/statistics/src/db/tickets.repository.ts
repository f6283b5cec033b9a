import type { Kysely } from 'kysely'
import type { SatisfactionsTable, SlaViolationsTable, StatisticsDatabase, TicketsTable } from './database.ts'
import { incomingIsNewer, storedIsOlder, type Version } from './versions.ts'

type Db = Kysely<StatisticsDatabase>

const inserted = (r: { numInsertedOrUpdatedRows?: bigint }) => Number(r.numInsertedOrUpdatedRows ?? 0n) > 0

/**
 * A ticket's facts (created or updated: the whole record). True when this made the row, so the caller counts
 * the ticket once whichever of its events arrived first. `ON CONFLICT DO NOTHING` waits for a concurrent insert of
 * the same ticket on PostgreSQL, so two replicas never both count it.
 */
export async function projectTicket(db: Db, row: Omit<TicketsTable, 'resolved_at'>): Promise<boolean> {
  const made = await db
    .insertInto('tickets')
    .values({ ...row, resolved_at: null })
    .onConflict((oc) => oc.column('ticket_id').doNothing())
    .executeTakeFirst()
  if (inserted(made)) return true
  await db
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
    .execute()
  return false
}

export async function ticketExists(db: Db, ticket_id: string): Promise<boolean> {
  const row = await db.selectFrom('tickets').select('ticket_id').where('ticket_id', '=', ticket_id).executeTakeFirst()
  return row !== undefined
}

/** A status change, if newer than what the row holds. */
export async function applyTicketStatus(db: Db, ticket_id: string, status: string, v: Version): Promise<void> {
  await db
    .updateTable('tickets')
    .set({ status, ...v })
    .where('ticket_id', '=', ticket_id)
    .where(storedIsOlder('tickets', v))
    .execute()
}

/**
 * Sets resolved_at the first time only (a resolved ticket never goes back to open, so it is resolved once).
 * True when this set it: the resolution is counted in DailyStats then, and only then.
 */
export async function markResolved(db: Db, ticket_id: string, resolved_at: string): Promise<boolean> {
  const r = await db
    .updateTable('tickets')
    .set({ resolved_at })
    .where('ticket_id', '=', ticket_id)
    .where('resolved_at', 'is', null)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) > 0
}

/** A rating, whole; `removed` marks a removal. The first event to arrive sets created_at; later ones keep it. */
export async function projectSatisfaction(db: Db, row: SatisfactionsTable): Promise<void> {
  await db
    .insertInto('satisfactions')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('satisfaction_id')
        .doUpdateSet((eb) => ({
          rating: eb.ref('excluded.rating'),
          removed: eb.ref('excluded.removed'),
          version_at: eb.ref('excluded.version_at'),
          version_id: eb.ref('excluded.version_id'),
        }))
        .where(incomingIsNewer('satisfactions')),
    )
    .execute()
}

/** A violation, keyed by its id; true when new (counted in DailyStats then). */
export async function recordViolation(db: Db, row: SlaViolationsTable): Promise<boolean> {
  const r = await db
    .insertInto('sla_violations')
    .values(row)
    .onConflict((oc) => oc.column('violation_id').doNothing())
    .executeTakeFirst()
  return inserted(r)
}
