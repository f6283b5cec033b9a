import {
  type Dialect,
  incomingIsNewer,
  likeOperator,
  type Scope,
  storedIsOlder,
  type Version,
  whereScope,
} from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'
import { likePattern } from '../domain/search-terms.ts'
import type { AiDatabase, AiTicketIndexTable } from './database.ts'

type Db = Kysely<AiDatabase>

export type TicketFactsRow = Omit<AiTicketIndexTable, 'title' | 'version_at' | 'version_id'> & {
  /** absent from events of producers older than the contract's `title`: the stored title is kept */
  title: string | undefined
}

/** A ticket's facts from its created/updated event: inserted, or replacing an older event's (newest wins). */
export async function projectTicket(db: Db, row: TicketFactsRow, v: Version): Promise<void> {
  const { title, ...facts } = row
  await db
    .insertInto('ai_ticket_index')
    .values({ ...facts, title: title ?? '', ...v })
    .onConflict((oc) =>
      oc
        .column('ticket_id')
        .doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          category: eb.ref('excluded.category'),
          priority: eb.ref('excluded.priority'),
          created_at: eb.ref('excluded.created_at'),
          version_at: eb.ref('excluded.version_at'),
          version_id: eb.ref('excluded.version_id'),
          ...(title !== undefined ? { title: eb.ref('excluded.title') } : {}),
        }))
        .where(incomingIsNewer('ai_ticket_index')),
    )
    .execute()
}

/** A status change: applied when newer than what is stored; false when the ticket is not projected yet. */
export async function changeTicketStatus(db: Db, ticket_id: string, status: string, v: Version): Promise<boolean> {
  const known = await db
    .selectFrom('ai_ticket_index')
    .select('ticket_id')
    .where('ticket_id', '=', ticket_id)
    .executeTakeFirst()
  if (!known) return false
  await db
    .updateTable('ai_ticket_index')
    .set({ status, ...v })
    .where('ticket_id', '=', ticket_id)
    .where(storedIsOlder('ai_ticket_index', v))
    .execute()
  return true
}

/** Tickets of the scope whose title holds any of the tokens, newest first, at most `max` (assist's candidates). */
export async function ticketCandidates(db: Db, dialect: Dialect, scope: Scope, tokens: string[], max: number) {
  if (tokens.length === 0) return []
  const op = sql.raw(likeOperator(dialect))
  return whereScope(db.selectFrom('ai_ticket_index'), scope)
    .select(['ticket_id', 'title', 'status', 'category', 'priority', 'created_at'])
    .where((eb) => eb.or(tokens.map((tok) => sql<boolean>`${eb.ref('title')} ${op} ${likePattern(tok)} escape '\\'`)))
    .orderBy('created_at', 'desc')
    .orderBy('ticket_id', 'desc')
    .limit(max)
    .execute()
}
