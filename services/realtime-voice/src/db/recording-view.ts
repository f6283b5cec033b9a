import type { Recording } from '../schemas/voice.schemas.ts'
import type { RecordingRow } from './recordings.repository.ts'

/** A recording as answered: its duration once stopped, and where its audio is read (conversations' uploads). */
export function recordingView(row: RecordingRow): Recording {
  return {
    id: row.id,
    call_id: row.call_id,
    conversation_id: row.conversation_id,
    provider: row.provider,
    status: row.status,
    started_at: row.started_at,
    stopped_at: row.stopped_at,
    duration_seconds: row.stopped_at
      ? Math.max(0, Date.parse(row.stopped_at) - Date.parse(row.started_at)) / 1000
      : null,
    upload_id: row.upload_id,
    audio_url: row.upload_id ? `/uploads/${row.upload_id}` : null,
    audio_content_type: row.audio_content_type,
    audio_size: row.audio_size,
    tenant_id: row.tenant_id,
    workspace_id: row.workspace_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** What the recording events carry (realtime.recording.*). */
export function recordingFacts(row: RecordingRow) {
  return {
    recording_id: row.id,
    call_id: row.call_id,
    conversation_id: row.conversation_id,
    provider: row.provider,
    status: row.status,
    started_at: row.started_at,
    stopped_at: row.stopped_at,
  }
}
