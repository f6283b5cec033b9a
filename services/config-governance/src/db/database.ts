// Timestamps are RFC 3339 strings on both engines (timestamptz on PostgreSQL, text on SQLite). JSON columns are
// jsonb on PostgreSQL and text on SQLite (read with fromJson). Stored documents hold secrets sealed (SecretBox).

/** A scope's current overrides: `workspace_id` is '' for a tenant's own. */
export interface ScopedConfigsTable {
  tenant_id: string
  workspace_id: string
  document: unknown
  /** +1 per change; carried by config.scope.changed so receivers ignore older deliveries */
  version: number
  updated_at: string
  updated_by: string
}

/** One executed update or rollback: a history entry (`audit_id` on the wire). */
export interface ConfigChangesTable {
  id: string
  tenant_id: string
  workspace_id: string
  operation: string
  actor_user_id: string
  change_ref: string
  reason: string
  approval_ref: string | null
  /** the entry a rollback restored */
  source_change_id: string | null
  /** the rollback entry that later undid or replaced this one */
  rolled_back_by: string | null
  before_doc: unknown
  after_doc: unknown
  version: number
  // governance kept current on the row so that history filters and summary counts are queries, not scans
  risk_level: string
  approval_status: string
  verification_status: string
  governance_status: string
  needs_action: boolean | number
  verification_count: number
  created_at: string
}

/** A recorded approval: the second person's yes to approval_ref + change_ref. */
export interface ConfigApprovalsTable {
  id: string
  tenant_id: string
  workspace_id: string
  approval_ref: string
  change_ref: string
  reason: string
  actor_user_id: string
  notes: string
  evidence: unknown
  /** the change that executed on it (null: not used yet) */
  used_by: string | null
  created_at: string
}

/** A post-change verification of one history entry. */
export interface ConfigVerificationsTable {
  id: string
  change_id: string
  tenant_id: string
  workspace_id: string
  status: string
  actor_user_id: string
  notes: string
  evidence: unknown
  checks: unknown
  change_ref: string
  reason: string
  created_at: string
}

/** A high-risk change waiting for a second administrator (README "Pending changes"); documents stored sealed. */
export interface ConfigPendingChangesTable {
  id: string
  tenant_id: string
  workspace_id: string
  /** pending, approved, rejected, withdrawn */
  status: string
  proposer_user_id: string
  change_ref: string
  reason: string
  approval_ref: string
  base_version: number
  before_doc: unknown
  after_doc: unknown
  risk_level: string
  decided_by: string | null
  decided_at: string | null
  decision_notes: string | null
  /** the history entry its approval produced */
  applied_change_id: string | null
  created_at: string
}

/** An app integration of a workspace (`/api/apps/integrations`): slug unique per scope, secrets sealed apart. */
export interface AppIntegrationsTable {
  id: string
  tenant_id: string
  workspace_id: string
  name: string
  slug: string
  vendor: string
  category: string
  summary: string
  icon_url: string | null
  iframe_url: string
  capabilities: unknown
  config_schema: unknown
  /** the settings that are not secret */
  config: unknown
  /** setting → sealed value, for each secret setting (never in clear, never in `config`) */
  sealed_secrets: unknown
  enabled: boolean | number
  last_sync_status: string | null
  /** +1 per change, carried by the events */
  version: number
  created_at: string
  updated_at: string
  updated_by: string
}

export interface ConfigGovernanceDatabase {
  scoped_configs: ScopedConfigsTable
  config_changes: ConfigChangesTable
  config_approvals: ConfigApprovalsTable
  config_verifications: ConfigVerificationsTable
  config_pending_changes: ConfigPendingChangesTable
  app_integrations: AppIntegrationsTable
}
