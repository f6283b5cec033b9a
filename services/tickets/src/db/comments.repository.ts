import { type PageWindow, type Scope, selectPage } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { TicketComment } from '../schemas/comments.schemas.ts'
import type { TicketCommentsTable, TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

const toComment = (row: Selectable<TicketCommentsTable>): TicketComment => ({
  id: row.id,
  ticket_id: row.ticket_id,
  author_id: row.author_id,
  content: row.content,
  type: row.type as TicketComment['type'],
  created_at: row.created_at,
})

/** Comments carry the ticket's scope too, so that they can be filtered without a join. */
export async function insertComment(db: Db, comment: TicketComment, scope: Scope): Promise<void> {
  await db
    .insertInto('ticket_comments')
    .values({ ...comment, tenant_id: scope.tenant_id, workspace_id: scope.workspace_id })
    .execute()
}

/** Oldest first: a ticket's thread reads top to bottom. The ticket itself was already checked against the scope. */
export async function listComments(
  db: Db,
  ticketId: string,
  window: PageWindow,
): Promise<{ rows: TicketComment[]; total: number }> {
  const q = db.selectFrom('ticket_comments').where('ticket_id', '=', ticketId)
  const { rows, total } = await selectPage(q, window, (qb) => qb.selectAll().orderBy('created_at').orderBy('id'))
  return { rows: rows.map(toComment), total }
}
