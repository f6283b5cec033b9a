import { ERASED_TEXT } from '@switchboard/contracts'
import { type Scope, whereScope } from '@switchboard/platform'
import type { Kysely, Transaction } from 'kysely'
import type { TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase> | Transaction<TicketsDatabase>

/** The person erased: tickets name the customer by user id, some projections by record id. */
export interface ErasedPerson {
  ids: string[]
  scope: Scope
  /** the erasure event's time: projections keep it as their version, so an older event cannot undo it */
  at: string
}

const n = (r: { numUpdatedRows?: bigint; numDeletedRows?: bigint }) => Number(r.numUpdatedRows ?? r.numDeletedRows ?? 0)

export async function ticketIdsOf(db: Db, p: ErasedPerson): Promise<string[]> {
  const rows = await whereScope(
    db.selectFrom('tickets').select('id').where('customer_id', 'in', p.ids),
    p.scope,
  ).execute()
  return rows.map((r) => r.id)
}

/**
 * Tombstones the tickets' personal content: title, description and custom values, every comment's body, the status
 * changes' reasons; the rows, statuses, counts and times stay (statistics, SLA). Ratings of the person or their
 * tickets lose their comment and keep the rating. The directory projections forget the name.
 */
export async function tombstoneTickets(db: Db, p: ErasedPerson, tickets: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = { tickets_tombstoned: 0, comments_tombstoned: 0 }
  if (tickets.length > 0) {
    counts.tickets_tombstoned = n(
      await db
        .updateTable('tickets')
        .set({ title: ERASED_TEXT, description: ERASED_TEXT, custom_fields: '{}' })
        .where('id', 'in', tickets)
        .executeTakeFirst(),
    )
    await db.deleteFrom('ticket_custom_values').where('ticket_id', 'in', tickets).execute()
    counts.comments_tombstoned = n(
      await db
        .updateTable('ticket_comments')
        .set({ content: ERASED_TEXT })
        .where('ticket_id', 'in', tickets)
        .executeTakeFirst(),
    )
    await db.updateTable('ticket_status_history').set({ reason: '' }).where('ticket_id', 'in', tickets).execute()
  }
  counts.rating_comments_erased = n(
    await whereScope(db.updateTable('customer_satisfactions').set({ comment: '' }), p.scope)
      .where((eb) =>
        eb.or([eb('customer_id', 'in', p.ids), ...(tickets.length ? [eb('ticket_id', 'in', tickets)] : [])]),
      )
      .executeTakeFirst(),
  )
  counts.directory_names_erased = n(
    await db
      .updateTable('directory_customers')
      .set({ name: '', event_at: p.at })
      .where((eb) => eb.or([eb('customer_id', 'in', p.ids), eb('user_id', 'in', p.ids)]))
      .executeTakeFirst(),
  )
  await db.updateTable('sla_customer_tiers').set({ name: '', updated_at: p.at }).where('user_id', 'in', p.ids).execute()
  return counts
}
