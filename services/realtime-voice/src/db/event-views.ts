import type { StoredCallEvent } from '../domain/call-record.ts'
import type { CallEvent, MediaEvent } from '../schemas/voice.schemas.ts'
import type { StoredMediaEvent } from './media-events.repository.ts'

/** A stored call event as answered (the same for the first request and every replay of it). */
export const callEventView = (e: StoredCallEvent): CallEvent => ({
  event_id: e.event_id,
  protocol: e.protocol,
  kind: e.kind,
  call_id: e.call_id,
  conversation_id: e.conversation_id,
  call_status: e.call_status,
  from: e.from,
  to: e.to,
  dtmf: e.dtmf,
  occurred_at: e.occurred_at,
  metadata: e.metadata,
})

export const mediaEventView = (e: StoredMediaEvent): MediaEvent => ({
  event_id: e.event_id,
  protocol: e.protocol,
  kind: e.kind,
  call_id: e.call_id,
  conversation_id: e.conversation_id,
  track_id: e.track_id,
  recording_id: e.recording_id,
  occurred_at: e.occurred_at,
  metadata: e.metadata,
})
