import { ERASED_TEXT } from '@switchboard/contracts'
import { type Scope, whereScope } from '@switchboard/platform'
import type { Kysely, Transaction } from 'kysely'
import type { ConversationsDatabase } from './database.ts'

type Db = Kysely<ConversationsDatabase> | Transaction<ConversationsDatabase>

/** The person erased, as this service names them: sessions and tickets carry the user id, some rows the record id. */
export interface ErasedPerson {
  ids: string[]
  scope: Scope
  /** the erasure event's time and id: projections keep them as their version, so an older event cannot undo it */
  at: string
  version_id: string
}

const n = (r: { numUpdatedRows?: bigint; numDeletedRows?: bigint }) => Number(r.numUpdatedRows ?? r.numDeletedRows ?? 0)

export function sessionIdsOf(db: Db, p: ErasedPerson): Promise<string[]> {
  return whereScope(db.selectFrom('sessions').select('id').where('customer_id', 'in', p.ids), p.scope)
    .execute()
    .then((rows) => rows.map((r) => r.id))
}

export function ticketIdsOf(db: Db, p: ErasedPerson): Promise<string[]> {
  return whereScope(db.selectFrom('customer_tickets').select('ticket_id').where('customer_id', 'in', p.ids), p.scope)
    .execute()
    .then((rows) => rows.map((r) => r.ticket_id))
}

/** The person's uploads: in their sessions, on their tickets, or sent by them. */
export async function uploadIdsOf(db: Db, p: ErasedPerson, sessions: string[], tickets: string[]): Promise<string[]> {
  const rows = await whereScope(db.selectFrom('uploads').select('id'), p.scope)
    .where((eb) =>
      eb.or([
        eb('owner_id', 'in', p.ids),
        ...(sessions.length ? [eb('session_id', 'in', sessions)] : []),
        ...(tickets.length ? [eb('ticket_id', 'in', tickets)] : []),
      ]),
    )
    .execute()
  return rows.map((r) => r.id)
}

/**
 * Tombstones the sessions' personal content: every message body becomes ERASED_TEXT and loses its metadata (file
 * names, links), subjects and transfer notes go; the rows, their seq, counts and times stay for statistics and the
 * threads' shape. Returns what changed, by name.
 */
export async function tombstoneSessions(db: Db, sessions: string[]): Promise<Record<string, number>> {
  if (sessions.length === 0) return { sessions_tombstoned: 0, messages_tombstoned: 0, transfers_tombstoned: 0 }
  const messages = await db
    .updateTable('messages')
    .set({ content: ERASED_TEXT, metadata: '{}' })
    .where('session_id', 'in', sessions)
    .executeTakeFirst()
  const subjects = await db.updateTable('sessions').set({ subject: '' }).where('id', 'in', sessions).executeTakeFirst()
  const transfers = await db
    .updateTable('transfers')
    .set({ reason: '', notes: '', summary: '' })
    .where('session_id', 'in', sessions)
    .executeTakeFirst()
  await db.updateTable('waiting').set({ reason: '', notes: '' }).where('session_id', 'in', sessions).execute()
  return { sessions_tombstoned: n(subjects), messages_tombstoned: n(messages), transfers_tombstoned: n(transfers) }
}

/** The projections of identity's customer and tickets' tickets forget the name and titles, newest-wins kept. */
export async function forgetProjections(db: Db, p: ErasedPerson): Promise<Record<string, number>> {
  const customers = await db
    .updateTable('customers')
    .set({ name: '', updated_at: p.at })
    .where((eb) => eb.or([eb('customer_id', 'in', p.ids), eb('user_id', 'in', p.ids)]))
    .executeTakeFirst()
  const tickets = await whereScope(
    db
      .updateTable('customer_tickets')
      .set({ title: ERASED_TEXT, version_at: p.at, version_id: p.version_id })
      .where('customer_id', 'in', p.ids),
    p.scope,
  ).executeTakeFirst()
  return { customer_projections_emptied: n(customers), ticket_titles_tombstoned: n(tickets) }
}

/** The uploads' rows and, in the database store, their bytes (the file store's bytes go through the port). */
export async function deleteUploadRows(db: Db, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0
  await db.deleteFrom('upload_blobs').where('upload_id', 'in', ids).execute()
  return n(await db.deleteFrom('uploads').where('id', 'in', ids).executeTakeFirst())
}
