import { ERASED_TEXT } from '@switchboard/contracts'
import type { Kysely, Transaction } from 'kysely'
import type { RealtimeDatabase } from './database.ts'

type Db = Kysely<RealtimeDatabase> | Transaction<RealtimeDatabase>

const n = (r: { numUpdatedRows?: bigint }) => Number(r.numUpdatedRows ?? 0)

/**
 * A tenant's erasure, realtime-voice's part: every call of the tenant — a customer's or an unknown caller's — keeps
 * its row, status and times; addresses, DTMF digits and metadata go, recordings lose their audio link (conversations
 * deletes the bytes with the tenant's uploads) and provider reference, transcripts their words.
 */
export async function eraseTenantCalls(db: Db, tenantId: string): Promise<Record<string, number>> {
  const calls = await db
    .updateTable('calls')
    .set({ from_addr: '', to_addr: '', dtmf_digits: '', metadata: '{}' })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  await db
    .updateTable('call_events')
    .set({ from_addr: '', to_addr: '', dtmf: null, metadata: '{}' })
    .where('tenant_id', '=', tenantId)
    .execute()
  await db.updateTable('media_events').set({ metadata: '{}' }).where('tenant_id', '=', tenantId).execute()
  const recordings = await db
    .updateTable('recordings')
    .set({ upload_id: null, provider_ref: '', audio_sha256: null })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  const transcripts = await db
    .updateTable('transcripts')
    .set({ content: ERASED_TEXT })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  return { calls_erased: n(calls), recordings_deleted: n(recordings), transcripts_tombstoned: n(transcripts) }
}
