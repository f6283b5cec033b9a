import type { ColumnType, Generated } from 'kysely'

// Timestamps are ISO strings on both engines; JSON columns are written as text and read with fromJson.
type Timestamp = string
type Json = ColumnType<unknown, string, string>

export interface UsersTable {
  id: string
  username: string
  email: string
  password_hash: string
  name: string
  phone: string
  role: string
  status: string
  token_version: Generated<number>
  token_valid_after: Timestamp | null
  token_state_seq: Generated<number>
  last_login: Timestamp | null
  /** for role admin: '' platform-wide, else the one tenant administered */
  admin_tenant_id: Generated<string>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface AuthSessionsTable {
  id: string
  user_id: string
  status: string
  token_version: Generated<number>
  tenant_id: string
  workspace_id: string
  user_agent: string
  client_ip: string
  device_fingerprint: string
  refresh_jti: string | null
  refresh_count: Generated<number>
  created_at: Timestamp
  last_seen_at: Timestamp
  last_refresh_at: Timestamp | null
  revoked_at: Timestamp | null
  revoke_reason: string | null
}

export interface RevokedTokensTable {
  jti: string
  user_id: string
  session_id: string
  token_use: string
  expires_at: Timestamp
  revoked_at: Timestamp
  revoked_by: string
  reason: string
}

export interface AgentsTable {
  id: string
  user_id: string
  tenant_id: string
  workspace_id: string
  name: string
  department: string
  skills: Json
  max_concurrent: number
  status: string
  /** the average of rating_sum / rating_count (0 with no rating), kept with them */
  rating: number
  rating_sum: Generated<number>
  rating_count: Generated<number>
  avg_response_time: number
  created_at: Timestamp
  updated_at: Timestamp
}

export interface CustomersTable {
  id: string
  user_id: string
  tenant_id: string
  workspace_id: string
  name: string
  email: string
  phone: string
  source: string
  tags: Json
  company: Generated<string>
  industry: Generated<string>
  priority: Generated<string>
  notes: Generated<string>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface CustomerNotesTable {
  id: string
  customer_id: string
  tenant_id: string
  workspace_id: string
  author_user_id: string
  content: string
  created_at: Timestamp
}

/** The tenant registry: a tenant and its workspaces are records, not free strings. */
export interface TenantsTable {
  id: string
  name: string
  status: string
  settings: Json
  created_at: Timestamp
  updated_at: Timestamp
}

export interface WorkspacesTable {
  tenant_id: string
  id: string
  name: string
  status: string
  settings: Json
  created_at: Timestamp
  updated_at: Timestamp
}

/** One-time set-password links of operator accounts; the token itself is never stored. */
export interface PasswordTokensTable {
  token_hash: string
  user_id: string
  created_by: string
  expires_at: Timestamp
  used_at: Timestamp | null
  created_at: Timestamp
}

/**
 * Tenant/workspace overrides of the session-risk policy, projected from `config.scope.changed`; `workspace_id`
 * '' is the tenant's own; `policy` JSON text of the `session_risk` section, null when the scope overrides none.
 */
export interface ScopedSessionRiskTable {
  tenant_id: string
  workspace_id: string
  policy: string | null
  version: number
  updated_at: Timestamp
}

/**
 * conversations' sessions as their newest event describes them (consumers/agent-load.consumer.ts): an agent's
 * `current_load` is the count of its open ones. `agent_user_id` is the handling agent's user id (sessions' `agent_id`).
 */
export interface AgentSessionsTable {
  session_id: string
  tenant_id: string
  workspace_id: string
  agent_user_id: string | null
  status: string
  version_at: Timestamp
  version_id: string
}

/** An erased customer (migration 0006): ids only, kept so that the request is idempotent and its report readable. */
export interface CustomerErasuresTable {
  id: string
  tenant_id: string
  workspace_id: string
  customer_id: string
  user_id: string
  requested_by: string
  /** in_progress until every unit of ERASURE_REPORTERS reported, then completed */
  status: string
  requested_at: Timestamp
  completed_at: Timestamp | null
}

/** What one unit did for an erasure (`counts`: JSON text of name → number). */
export interface CustomerErasureReportsTable {
  erasure_id: string
  service: string
  counts: string
  reported_at: Timestamp
}

/** A tenant's erasure of itself (migration 0007): ids only, like a customer's. */
export interface TenantErasuresTable {
  id: string
  tenant_id: string
  requested_by: string
  /** in_progress until every unit of TENANT_ERASURE_REPORTERS reported, then completed */
  status: string
  requested_at: Timestamp
  completed_at: Timestamp | null
}

export interface TenantErasureReportsTable {
  tenant_erasure_id: string
  service: string
  counts: string
  reported_at: Timestamp
}

/** Only identity's own tables (docs/architecture.md §1, rule 1). */
export interface IdentityDatabase {
  users: UsersTable
  auth_sessions: AuthSessionsTable
  revoked_tokens: RevokedTokensTable
  agents: AgentsTable
  customers: CustomersTable
  customer_notes: CustomerNotesTable
  tenants: TenantsTable
  workspaces: WorkspacesTable
  password_tokens: PasswordTokensTable
  scoped_session_risk: ScopedSessionRiskTable
  agent_sessions: AgentSessionsTable
  customer_erasures: CustomerErasuresTable
  customer_erasure_reports: CustomerErasureReportsTable
  tenant_erasures: TenantErasuresTable
  tenant_erasure_reports: TenantErasureReportsTable
}
