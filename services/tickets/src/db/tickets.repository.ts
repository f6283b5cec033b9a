import { fromJson, type Scope, type Tx, toJson, whereScope } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { Ticket } from '../schemas/tickets.schemas.ts'
import type { TicketsDatabase, TicketsTable } from './database.ts'

type Db = Kysely<TicketsDatabase>

export function toTicket(row: Selectable<TicketsTable>): Ticket {
  return {
    ...row,
    tags: fromJson<string[]>(row.tags, []),
    custom_fields: fromJson<Record<string, unknown>>(row.custom_fields, {}),
  }
}

export async function insertTicket(db: Db, ticket: Ticket): Promise<void> {
  await db
    .insertInto('tickets')
    .values({ ...ticket, tags: toJson(ticket.tags)!, custom_fields: toJson(ticket.custom_fields)! })
    .execute()
}

const ticketById = (db: Db, id: string, scope: Scope) =>
  whereScope(db.selectFrom('tickets').selectAll().where('id', '=', id), scope)

/** Scoped: a ticket of another tenant or workspace is not found, like a missing one. */
export async function findTicket(db: Db, id: string, scope: Scope): Promise<Ticket | undefined> {
  const row = await ticketById(db, id, scope).executeTakeFirst()
  return row ? toTicket(row) : undefined
}

/** `findTicket`, its row locked until `tx` ends, so two concurrent transitions can't both pass the status check. */
export async function findTicketForUpdate(tx: Tx<TicketsDatabase>, id: string, scope: Scope) {
  const row = await tx.forUpdate(ticketById(tx.db, id, scope)).executeTakeFirst()
  return row ? toTicket(row) : undefined
}

/** Writes the fields that differ; the caller has already read and checked the ticket in the same transaction. */
export async function updateTicket(db: Db, id: string, patch: Partial<Ticket>): Promise<void> {
  const { tags, custom_fields, ...plain } = patch
  await db
    .updateTable('tickets')
    .set({
      ...plain,
      ...(tags !== undefined ? { tags: toJson(tags)! } : {}),
      ...(custom_fields !== undefined ? { custom_fields: toJson(custom_fields)! } : {}),
    })
    .where('id', '=', id)
    .execute()
}
