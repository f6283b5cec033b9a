import type { CustomerExportPart } from '@switchboard/contracts'
import { fromJson, type Scope, whereScope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { TicketsDatabase } from './database.ts'
import { ticketIdsOf } from './erasure.repository.ts'

/** What tickets holds of a person: their tickets with comments and status changes, and their ratings. */
export async function customerExport(
  db: Kysely<TicketsDatabase>,
  ids: string[],
  scope: Scope,
): Promise<CustomerExportPart> {
  const tickets = await ticketIdsOf(db, { ids, scope, at: '' })
  const of = tickets.length ? tickets : ['']
  const rows = await db.selectFrom('tickets').selectAll().where('id', 'in', of).orderBy('created_at').execute()
  return {
    tickets: rows.map((t) => ({
      id: t.id,
      title: t.title,
      description: t.description,
      status: t.status,
      category: t.category,
      priority: t.priority,
      source: t.source,
      tags: fromJson(t.tags, []),
      custom_fields: fromJson(t.custom_fields, {}),
      created_at: t.created_at,
      updated_at: t.updated_at,
      resolved_at: t.resolved_at,
      closed_at: t.closed_at,
    })),
    ticket_comments: await db
      .selectFrom('ticket_comments')
      .select(['id', 'ticket_id', 'author_id', 'type', 'content', 'created_at'])
      .where('ticket_id', 'in', of)
      .orderBy('created_at')
      .execute(),
    satisfactions: await whereScope(
      db
        .selectFrom('customer_satisfactions')
        .select(['id', 'ticket_id', 'session_id', 'rating', 'comment', 'category', 'source', 'created_at'])
        .where((eb) => eb.or([eb('customer_id', 'in', ids), eb('ticket_id', 'in', of)])),
      scope,
    ).execute(),
  }
}
