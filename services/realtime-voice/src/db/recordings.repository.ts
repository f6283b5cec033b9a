import { type Scope, type Tx, whereScope } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { RealtimeDatabase, RecordingsTable } from './database.ts'

type Db = Kysely<RealtimeDatabase>

export type RecordingRow = Omit<Selectable<RecordingsTable>, 'audio_size'> & {
  status: 'recording' | 'stopped'
  audio_size: number | null
}

const toRow = (row: Selectable<RecordingsTable>): RecordingRow => ({
  ...row,
  status: row.status as RecordingRow['status'],
  // bigint comes back as a string from PostgreSQL
  audio_size: row.audio_size === null ? null : Number(row.audio_size),
})

export async function insertRecording(db: Db, row: RecordingRow): Promise<void> {
  await db.insertInto('recordings').values(row).execute()
}

const recordingById = (db: Db, id: string, scope: Scope) =>
  whereScope(db.selectFrom('recordings').selectAll().where('id', '=', id), scope)

/**
 * Scoped: another tenant's recording is not found, like a missing one (an unscoped admin's empty scope sees all).
 */
export async function findRecording(db: Db, id: string, scope: Scope): Promise<RecordingRow | undefined> {
  const row = await recordingById(db, id, scope).executeTakeFirst()
  return row ? toRow(row) : undefined
}

/** `findRecording`, its row locked until `tx` ends. */
export async function findRecordingForUpdate(
  tx: Tx<RealtimeDatabase>,
  id: string,
  scope: Scope,
): Promise<RecordingRow | undefined> {
  const row = await tx.forUpdate(recordingById(tx.db, id, scope)).executeTakeFirst()
  return row ? toRow(row) : undefined
}

/** Whether `id` is a recording of this call (its row id: the call's scope comes with it). */
export async function recordingOfCall(db: Db, id: string, callRef: string): Promise<boolean> {
  const row = await db
    .selectFrom('recordings')
    .select('id')
    .where('id', '=', id)
    .where('call_ref', '=', callRef)
    .executeTakeFirst()
  return row !== undefined
}

/** The call's recording in progress, if any (one at most: a partial unique index). */
export async function activeRecording(db: Db, callRef: string): Promise<RecordingRow | undefined> {
  const row = await db
    .selectFrom('recordings')
    .selectAll()
    .where('call_ref', '=', callRef)
    .where('status', '=', 'recording')
    .executeTakeFirst()
  return row ? toRow(row) : undefined
}

type Patch = Partial<
  Pick<
    RecordingRow,
    'status' | 'stopped_at' | 'upload_id' | 'audio_content_type' | 'audio_size' | 'audio_sha256' | 'updated_at'
  >
>

export async function updateRecording(db: Db, id: string, patch: Patch): Promise<void> {
  await db.updateTable('recordings').set(patch).where('id', '=', id).execute()
}
