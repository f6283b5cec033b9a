import { ERASED_TEXT } from '@switchboard/contracts'
import type { Kysely, Transaction } from 'kysely'
import type { AiDatabase } from './database.ts'

type Db = Kysely<AiDatabase> | Transaction<AiDatabase>

const n = (r: { numUpdatedRows?: bigint; numDeletedRows?: bigint }) => Number(r.numUpdatedRows ?? r.numDeletedRows ?? 0)

/**
 * A tenant's erasure, ai-orchestrator's part: its knowledge docs deleted (their full-text rows follow through the
 * engine's own triggers), its ticket copies' titles tombstoned with their version moved to `at`/`id` (rows kept: an
 * older ticket event delivered late then changes nothing, where a deleted row would be inserted again).
 */
export async function eraseTenantAi(db: Db, tenantId: string, at: string, id: string): Promise<Record<string, number>> {
  const docs = await db.deleteFrom('knowledge_docs').where('tenant_id', '=', tenantId).executeTakeFirst()
  const tickets = await db
    .updateTable('ai_ticket_index')
    .set({ title: ERASED_TEXT, version_at: at, version_id: id })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  return { knowledge_docs_deleted: n(docs), ticket_index_tombstoned: n(tickets) }
}
