import { fromJson, toBool, toJson } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { MediaEventsTable, RealtimeDatabase } from './database.ts'

type Db = Kysely<RealtimeDatabase>

export interface StoredMediaEvent {
  id: string
  tenant_id: string
  workspace_id: string
  event_id: string
  call_ref: string
  call_id: string
  protocol: string
  kind: string
  seq: number
  track_id: string | null
  recording_id: string | null
  conversation_id: string | null
  occurred_at: string
  occurred_at_given: boolean
  metadata: Record<string, unknown>
  created_at: string
}

function toMediaEvent(row: Selectable<MediaEventsTable>): StoredMediaEvent {
  return {
    ...row,
    seq: Number(row.seq),
    occurred_at_given: toBool(row.occurred_at_given),
    metadata: fromJson<Record<string, unknown>>(row.metadata, {}),
  }
}

export async function insertMediaEvent(db: Db, event: StoredMediaEvent): Promise<void> {
  await db
    .insertInto('media_events')
    .values({ ...event, metadata: toJson(event.metadata)! })
    .execute()
}

/** The latest media event of this kind of a call (written under the call's lock, in sequence). */
export async function lastMediaEvent(db: Db, callRef: string, kind: string): Promise<StoredMediaEvent | undefined> {
  const row = await db
    .selectFrom('media_events')
    .selectAll()
    .where('call_ref', '=', callRef)
    .where('kind', '=', kind)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row ? toMediaEvent(row) : undefined
}
