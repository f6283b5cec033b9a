import { type PageWindow, type Scope, selectPage, toBool, whereScope } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { Transcript } from '../schemas/voice.schemas.ts'
import type { RealtimeDatabase, TranscriptsTable } from './database.ts'

type Db = Kysely<RealtimeDatabase>

export type TranscriptRow = Transcript & { call_ref: string }

function toTranscript(row: Selectable<TranscriptsTable>): Transcript {
  return {
    id: row.id,
    call_id: row.call_id,
    conversation_id: row.conversation_id,
    speaker: row.speaker as Transcript['speaker'],
    content: row.content,
    language: row.language,
    finalized: toBool(row.finalized),
    message_id: row.message_id,
    tenant_id: row.tenant_id,
    workspace_id: row.workspace_id,
    created_at: row.created_at,
  }
}

export async function insertTranscript(db: Db, row: TranscriptRow): Promise<void> {
  await db.insertInto('transcripts').values(row).execute()
}

/** A scope's transcripts (one call's when `callId` is given), in the order they were said. */
export async function listTranscripts(
  db: Db,
  scope: Scope,
  filter: { callId?: string | undefined },
  window: PageWindow,
): Promise<{ rows: Transcript[]; total: number }> {
  let base = whereScope(db.selectFrom('transcripts'), scope)
  if (filter.callId) base = base.where('call_id', '=', filter.callId)
  const { rows, total } = await selectPage(base, window, (qb) => qb.selectAll().orderBy('created_at').orderBy('id'))
  return { rows: rows.map(toTranscript), total }
}
