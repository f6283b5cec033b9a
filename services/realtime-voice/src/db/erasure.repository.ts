import { ERASED_TEXT } from '@switchboard/contracts'
import { type Scope, whereScope } from '@switchboard/platform'
import type { Kysely, Transaction } from 'kysely'
import type { RealtimeDatabase } from './database.ts'

type Db = Kysely<RealtimeDatabase> | Transaction<RealtimeDatabase>

const n = (r: { numUpdatedRows?: bigint }) => Number(r.numUpdatedRows ?? 0)

/**
 * The person's calls keep their rows, statuses and times; their addresses (phone numbers), DTMF digits and metadata
 * go, recordings lose the link to their audio (whose bytes conversations deletes with the session's uploads) and
 * the provider's reference, transcripts their words.
 */
export async function eraseCalls(db: Db, ids: string[], scope: Scope): Promise<Record<string, number>> {
  const calls = await whereScope(db.selectFrom('calls').select('id').where('customer_id', 'in', ids), scope).execute()
  const refs = calls.map((c) => c.id)
  if (refs.length === 0) return { calls_erased: 0, recordings_deleted: 0, transcripts_tombstoned: 0 }
  await db
    .updateTable('calls')
    .set({ from_addr: '', to_addr: '', dtmf_digits: '', metadata: '{}' })
    .where('id', 'in', refs)
    .execute()
  await db
    .updateTable('call_events')
    .set({ from_addr: '', to_addr: '', dtmf: null, metadata: '{}' })
    .where('call_ref', 'in', refs)
    .execute()
  const recordings = await db
    .updateTable('recordings')
    .set({ upload_id: null, provider_ref: '', audio_sha256: null })
    .where('call_ref', 'in', refs)
    .executeTakeFirst()
  const transcripts = await db
    .updateTable('transcripts')
    .set({ content: ERASED_TEXT })
    .where('call_ref', 'in', refs)
    .executeTakeFirst()
  return { calls_erased: refs.length, recordings_deleted: n(recordings), transcripts_tombstoned: n(transcripts) }
}
