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
  /** the first agent comment or conversation reply (SLA first response; migration 0020) */
  first_response_at: Timestamp | null
  /** the SLA config under which a first-response / resolution breach is recorded (the monitor's skip marks) */
  sla_fr_recorded: string | null
  sla_res_recorded: string | null
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

/** Only this service's tables (docs/architecture.md §1, rule 1); outbox and inbox belong to @switchboard/events. */
export interface TicketsDatabase {
  tickets: TicketsTable
  ticket_comments: TicketCommentsTable
  sla_configs: SlaConfigsTable
  sla_violations: SlaViolationsTable
  sla_business_hours: SlaBusinessHoursTable
  ticket_settings: TicketSettingsTable
  sla_customer_tiers: SlaCustomerTiersTable
  sla_session_tickets: SlaSessionTicketsTable
  customer_satisfactions: CustomerSatisfactionsTable
  satisfaction_surveys: SatisfactionSurveysTable
  satisfaction_agents: SatisfactionAgentsTable
  macros: MacrosTable
  // references, lists, custom fields and conversations (migrations 0010–0014)
  directory_customers: DirectoryCustomersTable
  directory_agents: DirectoryAgentsTable
  ticket_tags: TicketTagsTable
  ticket_status_history: TicketStatusHistoryTable
  custom_fields: CustomFieldsTable
  ticket_custom_values: TicketCustomValuesTable
  ticket_sessions: TicketSessionsTable
}

// SLA, satisfaction and macros (migrations 0020–0022). Booleans are boolean on PostgreSQL, 0/1 on SQLite: read
// them with toBool.
type Bool = ColumnType<boolean | number, boolean, boolean>

export interface SlaConfigsTable {
  id: string
  name: string
  priority: string
  customer_tier: string
  tags: Json
  warning_threshold: number
  first_response_time: number
  resolution_time: number
  escalation_time: number
  business_hours_only: Bool
  active: Bool
  tenant_id: string
  workspace_id: string
  created_at: Timestamp
  updated_at: Timestamp
}

export interface SlaViolationsTable {
  id: string
  ticket_id: string
  sla_config_id: string
  violation_type: string
  priority: string
  customer_tier: string
  deadline: Timestamp
  violated_at: Timestamp
  resolved: Bool
  resolved_at: Timestamp | null
  tenant_id: string
  workspace_id: string
}

export interface TicketSettingsTable {
  tenant_id: string
  workspace_id: string
  auto_assign: Bool
  /** migration 0031: a survey on close, answerable for this many days */
  survey_enabled: Bool
  survey_expiry_days: number
  updated_at: Timestamp
}

export interface SlaBusinessHoursTable {
  tenant_id: string
  workspace_id: string
  time_zone: string
  weekly: Json
  updated_at: Timestamp
}

export interface SlaCustomerTiersTable {
  tenant_id: string
  workspace_id: string
  user_id: string
  tier: string
  name: string
  updated_at: Timestamp
}

export interface SlaSessionTicketsTable {
  session_id: string
  tenant_id: string
  workspace_id: string
  customer_id: string | null
  ticket_id: string | null
  updated_at: Timestamp
}

export interface CustomerSatisfactionsTable {
  id: string
  /** null: a conversation's rating without a ticket (migration 0030) */
  ticket_id: string | null
  /** null: an anonymous widget visitor's rating */
  customer_id: string | null
  /** the conversation a widget visitor rated (one rating per conversation) */
  session_id: string | null
  agent_id: string | null
  rating: number
  comment: string
  category: string
  source: string
  tenant_id: string
  workspace_id: string
  created_at: Timestamp
  updated_at: Timestamp
}

export interface SatisfactionSurveysTable {
  id: string
  ticket_id: string
  customer_id: string
  agent_id: string | null
  agent_name: string
  channel: string
  status: string
  token_hash: string
  sent_at: Timestamp
  expires_at: Timestamp
  completed_at: Timestamp | null
  satisfaction_id: string | null
  tenant_id: string
  workspace_id: string
  created_at: Timestamp
  updated_at: Timestamp
}

export interface SatisfactionAgentsTable {
  tenant_id: string
  workspace_id: string
  user_id: string
  name: string
  updated_at: Timestamp
}

export interface MacrosTable {
  id: string
  name: string
  description: string
  language: string
  content: string
  active: Bool
  tenant_id: string
  workspace_id: string
  created_at: Timestamp
  updated_at: Timestamp
}

// Identity's customers and agents (migration 0010): a projection of its events, read to check references.
export interface DirectoryCustomersTable {
  customer_id: string
  user_id: string
  name: string
  tenant_id: string
  workspace_id: string
  event_at: Timestamp
}

export interface DirectoryAgentsTable {
  agent_id: string
  user_id: string
  name: string
  status: string
  max_concurrent: number
  tenant_id: string
  workspace_id: string
  record_at: Timestamp
  status_at: Timestamp
}

/** A ticket's tags as rows (migration 0011), for the indexed `tag=` filter; `tickets.tags` stays what is read. */
export interface TicketTagsTable {
  ticket_id: string
  tag: string
  tenant_id: string
  workspace_id: string
}

export interface TicketStatusHistoryTable {
  id: string
  ticket_id: string
  from_status: string | null
  to_status: string
  actor_id: string
  reason: string
  tenant_id: string
  workspace_id: string
  created_at: Timestamp
}

export interface CustomFieldsTable {
  id: string
  resource: string
  key: string
  name: string
  type: string
  required: Bool
  active: Bool
  options: Json
  validation: Json
  show_when: ColumnType<unknown, string | null, string | null>
  tenant_id: string
  workspace_id: string
  created_at: Timestamp
  updated_at: Timestamp
}

/** One indexed custom value (one row per choice of a multiselect), for `cf.<key>=` filters. */
export interface TicketCustomValuesTable {
  ticket_id: string
  key: string
  value_text: string
  value_number: number | null
  tenant_id: string
  workspace_id: string
}

/** A conversation a ticket continues (migration 0014): a projection of conversations' session events. */
export interface TicketSessionsTable {
  session_id: string
  ticket_id: string
  status: string
  channel: string
  subject: string
  customer_id: string | null
  agent_id: string | null
  started_at: Timestamp
  last_message_at: Timestamp | null
  ended_at: Timestamp | null
  tenant_id: string
  workspace_id: string
  event_at: Timestamp
}
