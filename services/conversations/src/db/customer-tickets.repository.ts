import { incomingIsNewer, type Scope, storedIsOlder, type Version } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { ConversationsDatabase, CustomerTicketsTable } from './database.ts'

type Db = Kysely<ConversationsDatabase>
export type CustomerTicketRow = Selectable<CustomerTicketsTable>

/** A ticket as its created/updated event describes it whole; an event older than the row's changes nothing. */
export async function projectCustomerTicket(db: Db, row: CustomerTicketRow): Promise<void> {
  const { ticket_id: _id, ...changes } = row
  await db
    .insertInto('customer_tickets')
    .values(row)
    .onConflict((oc) => oc.column('ticket_id').doUpdateSet(changes).where(incomingIsNewer('customer_tickets')))
    .execute()
}

/** A status change, unless the row is newer; `found` false when the ticket is not projected (yet). */
export async function changeCustomerTicketStatus(
  db: Db,
  ticketId: string,
  status: string,
  v: Version,
): Promise<{ found: boolean }> {
  await db
    .updateTable('customer_tickets')
    .set({ status, ...v })
    .where('ticket_id', '=', ticketId)
    .where(storedIsOlder('customer_tickets', v))
    .execute()
  const row = await db
    .selectFrom('customer_tickets')
    .select('ticket_id')
    .where('ticket_id', '=', ticketId)
    .executeTakeFirst()
  return { found: row !== undefined }
}

/** A customer's newest tickets in its scope (`customerUserId`: the customer's user id). */
export function recentCustomerTickets(db: Db, scope: Scope, customerUserId: string, limit: number) {
  return db
    .selectFrom('customer_tickets')
    .selectAll()
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .where('customer_id', '=', customerUserId)
    .orderBy('created_at', 'desc')
    .orderBy('ticket_id', 'desc')
    .limit(limit)
    .execute()
}
