import type { ColumnType } from 'kysely'

// Timestamps are RFC 3339 strings on both engines; JSON columns are written as text and read with fromJson.
type Timestamp = string
type Json = ColumnType<unknown, string, string>

export interface SessionsTable {
  id: string
  tenant_id: string
  workspace_id: string
  status: string
  channel: string
  subject: string
  customer_id: string | null
  visitor_id: string | null
  visitor_secret_hash: string | null
  agent_id: string | null
  ticket_id: string | null
  priority: string
  message_count: number
  started_at: Timestamp
  last_message_at: Timestamp | null
  ended_at: Timestamp | null
  updated_at: Timestamp
}

export interface MessagesTable {
  id: string
  session_id: string
  /** the message's position in its session (1, 2, …): its order and the cursors' key (migration 0002) */
  seq: number
  tenant_id: string
  workspace_id: string
  /** `public` or `internal` (a staff-only note; migration 0030, whose default makes every older row public) */
  visibility: ColumnType<string, string | undefined, string>
  sender: string
  sender_id: string | null
  kind: string
  content: string
  metadata: Json
  created_at: Timestamp
}

export interface TransfersTable {
  id: string
  session_id: string
  tenant_id: string
  workspace_id: string
  /** to_human (from the queue or straight to an agent), to_agent, assign, transfer */
  kind: string
  from_agent_id: string | null
  to_agent_id: string | null
  reason: string
  notes: string
  summary: string
  actor_id: string
  transferred_at: Timestamp
}

export interface WaitingTable {
  id: string
  session_id: string
  tenant_id: string
  workspace_id: string
  /** waiting | transferred | cancelled */
  status: string
  priority: string
  /** urgent 3, high 2, normal 1, low 0: the queue's order key */
  priority_rank: number
  reason: string
  notes: string
  target_skills: Json
  queued_at: Timestamp
  assigned_at: Timestamp | null
  assigned_to: string | null
  cancelled_at: Timestamp | null
  cancel_reason: string | null
}

export interface AgentsTable {
  agent_id: string
  user_id: string
  tenant_id: string
  workspace_id: string
  name: string
  department: string
  skills: Json
  max_concurrent: number
  status: string
  rating: number
  avg_response_time: number
  updated_at: Timestamp
}

/** identity's customers (a projection of `identity.customer.upserted`): a session's customer must be one of its scope */
export interface CustomersTable {
  customer_id: string
  user_id: string
  tenant_id: string
  workspace_id: string
  /** the display name the inbox shows ('' until an event with it arrives; migration 0040) */
  name: ColumnType<string, string | undefined, string>
  updated_at: Timestamp
}

/** How far a staff member has read a session (the inbox's unread count; migration 0040) */
export interface SessionReadsTable {
  session_id: string
  user_id: string
  tenant_id: string
  workspace_id: string
  /** the `seq` of the last message read */
  last_read_seq: number
  updated_at: Timestamp
}

/** tickets' tickets as a customer's activity lists them (a projection of `tickets.ticket.*`); `customer_id` a user id */
export interface CustomerTicketsTable {
  ticket_id: string
  tenant_id: string
  workspace_id: string
  customer_id: string
  agent_id: string | null
  title: string
  category: string
  priority: string
  status: string
  source: string
  created_at: Timestamp
  version_at: Timestamp
  version_id: string
}

export interface ShiftsTable {
  id: string
  tenant_id: string
  workspace_id: string
  /** the agent's user id */
  agent_id: string
  shift_type: string
  start_time: Timestamp
  end_time: Timestamp
  status: string
  created_at: Timestamp
  updated_at: Timestamp
}

export interface UploadsTable {
  id: string
  tenant_id: string
  workspace_id: string
  session_id: string | null
  ticket_id: string | null
  owner_id: string
  filename: string
  content_type: string
  size: number
  sha256: string
  created_at: Timestamp
}

export interface UploadBlobsTable {
  upload_id: string
  data: Uint8Array
}

/** Only this service's tables (docs/architecture.md §1 rule 1); outbox and inbox belong to @switchboard/events. */
export interface ConversationsDatabase {
  sessions: SessionsTable
  messages: MessagesTable
  transfers: TransfersTable
  waiting: WaitingTable
  agents: AgentsTable
  customers: CustomersTable
  session_reads: SessionReadsTable
  customer_tickets: CustomerTicketsTable
  shifts: ShiftsTable
  uploads: UploadsTable
  upload_blobs: UploadBlobsTable
}
