import type { ColumnType } from 'kysely'

// Timestamps are RFC 3339 strings on both engines; JSON columns are written as text and read with fromJson;
// booleans are boolean on PostgreSQL and 0/1 on SQLite (read them with toBool).
type Timestamp = string
type Json = ColumnType<unknown, string, string>
type Bool = ColumnType<boolean | number, boolean, boolean>

/**
 * A voice call, by the signalling side's id (`call_id`, unique in its tenant/workspace). `from`/`to` are SQL
 * words, so the columns are `from_addr`/`to_addr`.
 */
export interface CallsTable {
  id: string
  tenant_id: string
  workspace_id: string
  call_id: string
  protocol: string
  status: string
  from_addr: string
  to_addr: string
  /** the conversations session the call is linked to */
  conversation_id: string | null
  /** the call opened that conversation (and so closes it at hangup); false when the invite named one */
  conversation_opened: Bool
  /**
   * when hangup settled the conversation (closed the one the call opened, or told the one it joined that the call
   * ended): a replayed hangup settles it only while this is null
   */
  conversation_settled_at: Timestamp | null
  /** whom the caller's words are posted as in the conversation (its customer); null: posted as system messages */
  customer_id: string | null
  transferred_to: string | null
  /** every DTMF digit received, in order (bounded) */
  dtmf_digits: string
  metadata: Json
  started_at: Timestamp
  answered_at: Timestamp | null
  ended_at: Timestamp | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** A signalling event of a call, as stored (the answer of the call-events route, also to a replay). */
export interface CallEventsTable {
  id: string
  tenant_id: string
  workspace_id: string
  /** `<protocol>-<kind>-<call_id>`, `-<seq>` from the second event of a kind: the idempotency key */
  event_id: string
  call_ref: string
  call_id: string
  protocol: string
  kind: string
  seq: number
  /** the call's status after this event */
  call_status: string
  from_addr: string
  to_addr: string
  dtmf: string | null
  conversation_id: string | null
  occurred_at: Timestamp
  /** whether the client gave `occurred_at` (a repeated dtmf with the same instant is a replay) */
  occurred_at_given: Bool
  metadata: Json
  created_at: Timestamp
}

export interface MediaEventsTable {
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
  occurred_at: Timestamp
  occurred_at_given: Bool
  metadata: Json
  created_at: Timestamp
}

export interface RecordingsTable {
  id: string
  tenant_id: string
  workspace_id: string
  call_ref: string
  call_id: string
  conversation_id: string | null
  provider: string
  /** the provider's own reference to the recording */
  provider_ref: string
  status: string
  started_at: Timestamp
  stopped_at: Timestamp | null
  /** the audio kept through conversations' uploads */
  upload_id: string | null
  audio_content_type: string | null
  audio_size: number | null
  audio_sha256: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

export interface TranscriptsTable {
  id: string
  tenant_id: string
  workspace_id: string
  call_ref: string
  call_id: string
  conversation_id: string | null
  speaker: string
  content: string
  language: string
  finalized: Bool
  /** the conversation message a finalized transcript became */
  message_id: string | null
  created_at: Timestamp
}

/**
 * Only this service's tables (docs/architecture.md §1 rule 1): voice calls and what hangs off them. Sockets and
 * WebRTC connection state are not rows: sockets belong to one replica, connection state lives in the shared cache.
 */
export interface RealtimeDatabase {
  calls: CallsTable
  call_events: CallEventsTable
  media_events: MediaEventsTable
  recordings: RecordingsTable
  transcripts: TranscriptsTable
}
