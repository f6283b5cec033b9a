import type { Kysely } from 'kysely'
import { valueRows } from '../domain/custom-fields.ts'
import type { Ticket } from '../schemas/tickets.schemas.ts'
import type { TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

// A ticket's tags and custom values as rows beside its JSON, rewritten by whichever command changes them, in its
// transaction: the list's `tag=` and `cf.<key>=` filters read these rows, everything else reads the JSON.

export async function writeTagRows(db: Db, ticket: Ticket): Promise<void> {
  await db.deleteFrom('ticket_tags').where('ticket_id', '=', ticket.id).execute()
  if (ticket.tags.length === 0) return
  await db
    .insertInto('ticket_tags')
    .values(
      ticket.tags.map((tag) => ({
        ticket_id: ticket.id,
        tag,
        tenant_id: ticket.tenant_id,
        workspace_id: ticket.workspace_id,
      })),
    )
    .execute()
}

export async function writeCustomValueRows(db: Db, ticket: Ticket): Promise<void> {
  await db.deleteFrom('ticket_custom_values').where('ticket_id', '=', ticket.id).execute()
  const rows = valueRows(ticket.custom_fields)
  if (rows.length === 0) return
  await db
    .insertInto('ticket_custom_values')
    .values(
      rows.map((r) => ({ ...r, ticket_id: ticket.id, tenant_id: ticket.tenant_id, workspace_id: ticket.workspace_id })),
    )
    .execute()
}

/** A deleted field's index rows in its scope (tickets keep the value in their JSON). */
export async function deleteCustomValueRows(
  db: Db,
  key: string,
  scope: { tenant_id: string; workspace_id: string },
): Promise<void> {
  await db
    .deleteFrom('ticket_custom_values')
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .where('key', '=', key)
    .execute()
}
