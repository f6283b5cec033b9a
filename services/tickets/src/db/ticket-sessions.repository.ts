import { type Scope, whereScope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { TicketConversation } from '../schemas/ticket-views.schemas.ts'
import type { TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

/** A session as the projection keeps it; `event_at` is the time of the event that wrote it. */
export type SessionRow = TicketConversation & Scope & { event_at: string }

/** Applies a session event, unless a newer one already did (a redelivered older event must not undo it). */
export async function upsertTicketSession(db: Db, row: SessionRow): Promise<void> {
  const { session_id: _id, ...rest } = row
  await db
    .insertInto('ticket_sessions')
    .values(row)
    .onConflict((oc) => oc.column('session_id').doUpdateSet(rest).where('ticket_sessions.event_at', '<=', row.event_at))
    .execute()
}

/** A session no longer linked to a ticket leaves the projection (if that event is the newest). */
export async function unlinkTicketSession(db: Db, sessionId: string, at: string): Promise<void> {
  await db.deleteFrom('ticket_sessions').where('session_id', '=', sessionId).where('event_at', '<=', at).execute()
}

/** The conversations a ticket continues, newest first; a short list by nature. */
export async function ticketConversations(db: Db, ticketId: string, scope: Scope): Promise<TicketConversation[]> {
  return whereScope(
    db
      .selectFrom('ticket_sessions')
      .select([
        'session_id',
        'ticket_id',
        'status',
        'channel',
        'subject',
        'customer_id',
        'agent_id',
        'started_at',
        'last_message_at',
        'ended_at',
      ])
      .where('ticket_id', '=', ticketId)
      .orderBy('started_at', 'desc')
      .orderBy('session_id', 'desc')
      .limit(200),
    scope,
  ).execute()
}
