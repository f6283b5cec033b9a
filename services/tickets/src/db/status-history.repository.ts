import { type PageWindow, selectPage } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { StatusChange } from '../schemas/ticket-views.schemas.ts'
import type { TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

/** One status a ticket took; carries the ticket's scope, like its comments. */
export async function insertStatusChange(
  db: Db,
  change: StatusChange,
  scope: { tenant_id: string; workspace_id: string },
): Promise<void> {
  await db
    .insertInto('ticket_status_history')
    .values({ ...change, tenant_id: scope.tenant_id, workspace_id: scope.workspace_id })
    .execute()
}

/** Oldest first; the ticket itself was already checked against the caller's scope. */
export async function listStatusChanges(
  db: Db,
  ticketId: string,
  window: PageWindow,
): Promise<{ rows: StatusChange[]; total: number }> {
  const q = db.selectFrom('ticket_status_history').where('ticket_id', '=', ticketId)
  const { rows, total } = await selectPage(q, window, (qb) =>
    qb
      .select(['id', 'ticket_id', 'from_status', 'to_status', 'actor_id', 'reason', 'created_at'])
      .orderBy('created_at')
      .orderBy('id'),
  )
  return { rows, total }
}
