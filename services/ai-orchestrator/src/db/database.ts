// Timestamps are RFC 3339 strings on both engines (timestamptz on PostgreSQL, text on SQLite). JSON columns are
// jsonb on PostgreSQL and text on SQLite (read with fromJson).

/** A knowledge doc (migration 0001); the full-text structures beside it are engine-specific and never selected. */
export interface KnowledgeDocsTable {
  id: string
  tenant_id: string
  workspace_id: string
  title: string
  content: string
  category: string
  /** JSON array of strings */
  tags: unknown
  /** boolean on PostgreSQL, 0/1 on SQLite */
  is_public: boolean | number
  /** the external provider holding a copy, and its id there */
  provider_id: string | null
  external_id: string | null
  /** why the last write did not reach the external provider */
  sync_error: string | null
  created_at: string
  updated_at: string
}

/** Tickets as assist suggestions know them (migration 0002): a projection of tickets' events, newest wins. */
export interface AiTicketIndexTable {
  ticket_id: string
  tenant_id: string
  workspace_id: string
  title: string
  status: string
  category: string
  priority: string
  created_at: string
  version_at: string
  version_id: string
}

/** ai-orchestrator's tables (README "Storage"). */
/** A customer message the AI answered or handed over in a conversation (migration 0003): answered once. */
export interface AiRepliesTable {
  message_id: string
  session_id: string
  tenant_id: string
  workspace_id: string
  /** answered | handed_over | skipped (the session went away or closed meanwhile) */
  outcome: string
  query_id: string | null
  created_at: string
  /** the attempt that holds a pending claim (host/pid/attempt id; migration 0005) */
  claimed_by: string | null
  /** until when it holds it; renewed while it works; null (a pre-lease row) counts as expired */
  claimed_until: string | null
}

/** A scope's LLM and knowledge-provider overrides (config-governance's), secrets sealed; '' = the tenant's own. */
export interface AiScopedSettingsTable {
  tenant_id: string
  workspace_id: string
  llm: unknown
  knowledge_provider: unknown
  sealed_secrets: unknown
  version: number
  updated_at: string
}

export interface AiDatabase {
  knowledge_docs: KnowledgeDocsTable
  ai_ticket_index: AiTicketIndexTable
  ai_replies: AiRepliesTable
  ai_scoped_settings: AiScopedSettingsTable
}
