import type { ColumnType } from 'kysely'

// Timestamps are RFC 3339 strings on both engines; JSON columns are written as text and read with fromJson;
// booleans are boolean on PostgreSQL and 0/1 on SQLite (read with toBool).
type Timestamp = string
type Json = ColumnType<unknown, string | null, string | null>

export interface AuditLogsTable {
  id: string
  created_at: Timestamp
  actor_user_id: string
  principal_kind: string
  action: string
  resource_type: string
  resource_id: string
  route: string
  method: string
  status_code: number
  success: ColumnType<boolean | number, boolean, boolean>
  request_id: string
  client_ip: string
  user_agent: string
  tenant_id: string
  workspace_id: string
  request_json: Json
  before_json: Json
  after_json: Json
  /** text of the request had to be made storable (NUL → ␀, lone surrogate → �) */
  sanitised: ColumnType<boolean | number, boolean | undefined, boolean>
  /** the event that carried the record; unique, so a redelivery inserts nothing */
  event_id: string
}

/** A hash of an erased person's id, identifier or resource (domain/erased-subjects.ts); no clear personal data. */
export interface AuditErasedSubjectsTable {
  tenant_id: string
  /** SHA-256 (hex) of the tenant and the subject's lower-cased words */
  digest: string
  kind: 'id' | 'identifier' | 'resource'
  /** how many words: the window the recorder hashes a record's text by */
  tokens: number
  /** 16 bits of a fast hash of the first word: the recorder's pre-filter */
  lead: number
  erasure_id: string
  erased_at: Timestamp
}

/** Raised whenever a tenant's erased subjects change: a replica's cache read at an older epoch is stale. */
export interface AuditErasureEpochsTable {
  tenant_id: string
  epoch: number
}

/** Only this service's tables (docs/architecture.md §1, rule 1); outbox and inbox belong to @switchboard/events. */
export interface AuditDatabase {
  audit_logs: AuditLogsTable
  audit_erased_subjects: AuditErasedSubjectsTable
  audit_erasure_epochs: AuditErasureEpochsTable
}
