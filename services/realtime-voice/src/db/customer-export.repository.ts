import type { CustomerExportPart } from '@switchboard/contracts'
import { fromJson, type Scope, whereScope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { RealtimeDatabase } from './database.ts'

/** What realtime-voice holds of a person: their voice calls, their recordings' records and transcripts. */
export async function customerExport(
  db: Kysely<RealtimeDatabase>,
  ids: string[],
  scope: Scope,
): Promise<CustomerExportPart> {
  const calls = await whereScope(db.selectFrom('calls').selectAll().where('customer_id', 'in', ids), scope).execute()
  const refs = calls.length ? calls.map((c) => c.id) : ['']
  return {
    calls: calls.map((c) => ({ ...c, metadata: fromJson(c.metadata, {}) })),
    recordings: await db.selectFrom('recordings').selectAll().where('call_ref', 'in', refs).execute(),
    transcripts: await db.selectFrom('transcripts').selectAll().where('call_ref', 'in', refs).execute(),
  }
}
