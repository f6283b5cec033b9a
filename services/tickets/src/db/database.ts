import type { ColumnType } from 'kysely'

// Timestamps are RFC 3339 strings on both engines; JSON columns are written as text and read with fromJson.
type Timestamp = string
type Json = ColumnType<unknown, string, string>

export interface TicketsTable {
  id: string
  title: string
  description: string
  customer_id: string
  agent_id: string | null
  session_id: string | null
  category: string
  priority: string
  status: string
  source: string
  tags: Json
  custom_fields: Json
  tenant_id: string
  workspace_id: string
  created_at: Timestamp
  updated_at: Timestamp
  resolved_at: Timestamp | null
  closed_at: Timestamp | null
}

export interface TicketCommentsTable {
  id: string
  ticket_id: string
  tenant_id: string
  workspace_id: string
  author_id: string
  content: string
  type: string
  created_at: Timestamp
}

/** Only this service's tables (ARCHITECTURE.md rule 1); outbox and inbox belong to @switchboard/events. */
export interface TicketsDatabase {
  tickets: TicketsTable
  ticket_comments: TicketCommentsTable
}
