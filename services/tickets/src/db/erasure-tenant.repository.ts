import { ERASED_TEXT } from '@switchboard/contracts'
import type { Kysely, Transaction } from 'kysely'
import type { TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase> | Transaction<TicketsDatabase>

const n = (r: { numUpdatedRows?: bigint; numDeletedRows?: bigint }) => Number(r.numUpdatedRows ?? r.numDeletedRows ?? 0)

/**
 * A tenant's erasure, tickets' part: every ticket of the tenant — a customer's or a widget visitor's — keeps its row,
 * status, counts and times (statistics, SLA) with title, description and custom values tombstoned; every comment,
 * status reason and rating comment emptied; the staff-written macros deleted; the projections of the tenant's
 * agents, customers and conversations forget names and subjects (their version moved to `at`).
 */
export async function tombstoneTenantTickets(db: Db, tenantId: string, at: string): Promise<Record<string, number>> {
  const tickets = await db
    .updateTable('tickets')
    .set({ title: ERASED_TEXT, description: ERASED_TEXT, custom_fields: '{}' })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  await db.deleteFrom('ticket_custom_values').where('tenant_id', '=', tenantId).execute()
  const comments = await db
    .updateTable('ticket_comments')
    .set({ content: ERASED_TEXT })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  await db.updateTable('ticket_status_history').set({ reason: '' }).where('tenant_id', '=', tenantId).execute()
  const ratings = await db
    .updateTable('customer_satisfactions')
    .set({ comment: '' })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  await db.updateTable('satisfaction_surveys').set({ agent_name: '' }).where('tenant_id', '=', tenantId).execute()
  const macros = await db.deleteFrom('macros').where('tenant_id', '=', tenantId).executeTakeFirst()
  const directory = await db
    .updateTable('directory_customers')
    .set({ name: '', event_at: at })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  const agents = await db
    .updateTable('directory_agents')
    .set({ name: '', record_at: at })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  await db
    .updateTable('satisfaction_agents')
    .set({ name: '', updated_at: at })
    .where('tenant_id', '=', tenantId)
    .execute()
  await db
    .updateTable('sla_customer_tiers')
    .set({ name: '', updated_at: at })
    .where('tenant_id', '=', tenantId)
    .execute()
  await db.updateTable('ticket_sessions').set({ subject: '', event_at: at }).where('tenant_id', '=', tenantId).execute()
  return {
    tickets_tombstoned: n(tickets),
    comments_tombstoned: n(comments),
    rating_comments_erased: n(ratings),
    macros_deleted: n(macros),
    directory_names_erased: n(directory) + n(agents),
  }
}
