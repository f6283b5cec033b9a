import { ERASED_TEXT } from '@switchboard/contracts'
import type { Kysely, Transaction } from 'kysely'
import type { ConversationsDatabase } from './database.ts'

type Db = Kysely<ConversationsDatabase> | Transaction<ConversationsDatabase>

const n = (r: { numUpdatedRows?: bigint; numDeletedRows?: bigint }) => Number(r.numUpdatedRows ?? r.numDeletedRows ?? 0)

/**
 * A tenant's erasure, conversations' part: every message of every session of the tenant — a customer's, an anonymous
 * widget visitor's, an agent's or a note — tombstoned (rows, seq, counts and times stay for statistics and the
 * threads' shape), subjects, transfer and queue notes emptied, the projections of the tenant's agents, customers and
 * ticket titles forgotten (their version moved to `at`: an older event cannot bring a name back).
 */
export async function tombstoneTenant(db: Db, tenantId: string, at: string): Promise<Record<string, number>> {
  const messages = await db
    .updateTable('messages')
    .set({ content: ERASED_TEXT, metadata: '{}' })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  const sessions = await db
    .updateTable('sessions')
    .set({ subject: '' })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  const transfers = await db
    .updateTable('transfers')
    .set({ reason: '', notes: '', summary: '' })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  await db.updateTable('waiting').set({ reason: '', notes: '' }).where('tenant_id', '=', tenantId).execute()
  const agents = await db
    .updateTable('agents')
    .set({ name: '', department: '', updated_at: at })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  const customers = await db
    .updateTable('customers')
    .set({ name: '', updated_at: at })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  const titles = await db
    .updateTable('customer_tickets')
    .set({ title: ERASED_TEXT, version_at: at })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  return {
    sessions_tombstoned: n(sessions),
    messages_tombstoned: n(messages),
    transfers_tombstoned: n(transfers),
    agent_projections_emptied: n(agents),
    customer_projections_emptied: n(customers),
    ticket_titles_tombstoned: n(titles),
  }
}

/** The tenant's uploads (attachments, voice recordings' audio), by id. */
export async function tenantUploadIds(db: Db, tenantId: string): Promise<string[]> {
  const rows = await db.selectFrom('uploads').select('id').where('tenant_id', '=', tenantId).execute()
  return rows.map((r) => r.id)
}
