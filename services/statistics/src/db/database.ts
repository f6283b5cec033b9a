// Timestamps are RFC 3339 strings on both engines (timestamptz on PostgreSQL, text on SQLite).
type Timestamp = string

/**
 * Every projected row remembers the event that last wrote it (`version_at` = its occurred_at, `version_id` = its
 * UUIDv7 id, which breaks ties in emission order): a late or replayed older event changes nothing (newest wins).
 */
interface Versioned {
  version_at: Timestamp
  version_id: string
}

/** identity's users, for the role only: total_customers counts users with role customer (spec, User). */
export interface UsersTable extends Versioned {
  user_id: string
  role: string
}

/** identity's customer records: the user ↔ tenant/workspace binding (the only way statistics reach a user's tenant) and the source. */
export interface CustomersTable extends Versioned {
  customer_id: string
  user_id: string
  tenant_id: string
  workspace_id: string
  source: string
}

export interface AgentsTable extends Versioned {
  agent_id: string
  user_id: string
  tenant_id: string
  workspace_id: string
  name: string
  department: string
  status: string
  /** seconds, identity's global cumulative value */
  avg_response_time: number
  rating: number
}

export interface TicketsTable extends Versioned {
  ticket_id: string
  tenant_id: string
  workspace_id: string
  /** the agent's user id (agents.user_id) */
  agent_id: string | null
  category: string
  priority: string
  status: string
  created_at: Timestamp
  /** set once, by the status change that resolved (or closed) the ticket; tickets never reopen a resolved one */
  resolved_at: Timestamp | null
}

export interface SessionsTable extends Versioned {
  session_id: string
  tenant_id: string
  workspace_id: string
  status: string
  /** the session's started_at */
  created_at: Timestamp
}

/**
 * Messages are only ever counted, so they are kept as counts per scope and quarter hour (`bucket`, the UTC start as
 * `YYYY-MM-DDTHH:MM`): a day in UTC is a prefix, and every time zone's day is a whole number of buckets.
 */
export interface MessageCountsTable {
  tenant_id: string
  workspace_id: string
  bucket: string
  count: number
}

export interface SatisfactionsTable extends Versioned {
  satisfaction_id: string
  ticket_id: string
  tenant_id: string
  workspace_id: string
  rating: number
  /** when first rated; a changed rating keeps its day */
  created_at: Timestamp
  /** a removed rating stays as a tombstone (0/1), so an older event arriving late cannot bring it back */
  removed: number
}

export interface SlaViolationsTable {
  violation_id: string
  ticket_id: string
  tenant_id: string
  workspace_id: string
  violated_at: Timestamp
}

/** System level, no tenant dimension: one row per UTC day, `date` = YYYY-MM-DD. */
export interface DailyStatsTable {
  date: string
  total_sessions: number
  total_messages: number
  total_tickets: number
  resolved_tickets: number
  /** every tenant's AI answers of the day (the scoped ones are in ai_days) */
  ai_usage_count: number
  knowledge_provider_usage_count: number
  compat_provider_usage_count: number
  sla_violations: number
  updated_at: Timestamp
}

/** A projection's newest applied event (highest stream sequence): its lag is measured from here (README "Lag"). */
export interface ProjectionPositionsTable {
  /** the consumer's durable name */
  projection: string
  stream_seq: number | string
  occurred_at: Timestamp
  applied_at: Timestamp
  /** while `switchboard stats rebuild` replays the stream: the sequence it reached (null otherwise) */
  rebuild_seq: number | string | null
}

// Aggregates (migration 0003, README "Aggregates"): kept by the projections in each event's transaction, as deltas
// of the raw rows' contributions (aggregates.repository.ts), so they always equal the raw rows summed.

/** Per scope and UTC day: tickets created (by created_at), resolved (by resolved_at, with their resolution time in
 * seconds), ratings kept (by the rating's created_at), SLA violations (by violated_at). */
export interface TicketDaysTable {
  tenant_id: string
  workspace_id: string
  day: string
  created: number
  resolved: number
  resolution_sum: number
  resolution_count: number
  rating_sum: number
  rating_count: number
  sla_violations: number
}

/** Per scope: tickets by their current status. */
export interface TicketStatusCountsTable {
  tenant_id: string
  workspace_id: string
  status: string
  count: number
}

/** Per scope, agent (tickets.agent_id, the agent's user id) and UTC day of creation: its tickets, those resolved or
 * closed now, and the resolution times of those with resolved_at. */
export interface TicketAgentDaysTable {
  tenant_id: string
  workspace_id: string
  agent_id: string
  day: string
  total: number
  resolved: number
  resolution_sum: number
  resolution_count: number
}

/** Per scope, UTC day of creation and dimension (`category` | `priority`): tickets by the dimension's value. */
export interface TicketKeyDaysTable {
  tenant_id: string
  workspace_id: string
  day: string
  dimension: string
  key: string
  count: number
}

/** Per scope and UTC day: sessions created (started_at) and messages. */
export interface ConversationDaysTable {
  tenant_id: string
  workspace_id: string
  day: string
  sessions: number
  messages: number
}

/**
 * Per scope and UTC day: the AI answers (migration 0004), the scoped twin of DailyStats' system-level AI counters,
 * which the reports read. Rows of the empty scope ('', '') are the counts kept before 0004: platform-wide history
 * that only an unscoped view adds up (a rebuild replaces them by the events' own scopes).
 */
export interface AiDaysTable {
  tenant_id: string
  workspace_id: string
  day: string
  ai_usage_count: number
  knowledge_provider_usage_count: number
  compat_provider_usage_count: number
}

/** Per scope: sessions by their current status. */
export interface SessionStatusCountsTable {
  tenant_id: string
  workspace_id: string
  status: string
  count: number
}

/** Users by role (total_customers unscoped). */
export interface UserRoleCountsTable {
  role: string
  count: number
}

/** Per scope: the users with role customer that have a customer record there, each once (total_customers scoped). */
export interface CustomerCountsTable {
  tenant_id: string
  workspace_id: string
  customers: number
}

/** Per scope: customer records by source. */
export interface CustomerSourceCountsTable {
  tenant_id: string
  workspace_id: string
  source: string
  count: number
}

/** Only this service's tables (docs/architecture.md §1, rule 1); outbox and inbox belong to @switchboard/events. */
export interface StatisticsDatabase {
  users: UsersTable
  customers: CustomersTable
  agents: AgentsTable
  tickets: TicketsTable
  sessions: SessionsTable
  message_counts: MessageCountsTable
  satisfactions: SatisfactionsTable
  sla_violations: SlaViolationsTable
  daily_stats: DailyStatsTable
  projection_positions: ProjectionPositionsTable
  ticket_days: TicketDaysTable
  ticket_status_counts: TicketStatusCountsTable
  ticket_agent_days: TicketAgentDaysTable
  ticket_key_days: TicketKeyDaysTable
  conversation_days: ConversationDaysTable
  ai_days: AiDaysTable
  session_status_counts: SessionStatusCountsTable
  user_role_counts: UserRoleCountsTable
  customer_counts: CustomerCountsTable
  customer_source_counts: CustomerSourceCountsTable
}

export type DailyCounter = Exclude<keyof DailyStatsTable, 'date' | 'updated_at'>
