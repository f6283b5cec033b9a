import { Type } from '@sinclair/typebox'

/** The sections a scope may override (spec: Scoped configuration); each is optional in a document. */
export const CONFIG_SECTIONS = ['portal', 'llm', 'knowledge_provider', 'session_risk'] as const
export type ConfigSection = (typeof CONFIG_SECTIONS)[number]

/**
 * A scope's stored overrides after a change, as other services apply them. Secrets never travel in clear: each secret
 * leaf is `"[REDACTED]"` in `config`, its fingerprint is in `secret_fingerprints`, and its value sealed (AES-256-GCM
 * under the fleet's configuration key, `configEncryptionKeys` of @switchboard/platform) is in `sealed_secrets` for
 * the one service that must call the provider with it (ai-orchestrator).
 */
const ScopedConfigFacts = Type.Object({
  /** `tenant`: the tenant's own overrides (`workspace_id` is ''); `workspace`: one workspace's */
  scope: Type.Union([Type.Literal('tenant'), Type.Literal('workspace')]),
  tenant_id: Type.String({ minLength: 1 }),
  workspace_id: Type.String(),
  /** per scope, +1 on every change: a consumer keeps the highest it saw and ignores older deliveries */
  version: Type.Integer({ minimum: 1 }),
  /** the change record (history `audit_id`) that produced this state */
  change_id: Type.String(),
  operation: Type.Union([Type.Literal('update'), Type.Literal('rollback')]),
  changed_sections: Type.Array(Type.String()),
  /** the whole stored document of the scope, sections absent when not overridden */
  config: Type.Record(Type.String(), Type.Unknown()),
  secret_fingerprints: Type.Record(Type.String(), Type.String()),
  /** dotted path → sealed value (`v1.<key id>.…`), for each secret the scope stores */
  sealed_secrets: Type.Optional(Type.Record(Type.String(), Type.String())),
  changed_at: Type.String(),
})

/**
 * A high-risk change of a scope proposed to wait for a second administrator, or decided: `approved` (it then ran:
 * `applied_change_id` is the history entry, and `config.scope.changed` follows), `rejected` or `withdrawn`. Paths
 * only, never values: a pending change may hold a new key.
 */
const PendingChangeFacts = Type.Object({
  pending_id: Type.String(),
  scope: Type.Union([Type.Literal('tenant'), Type.Literal('workspace')]),
  tenant_id: Type.String({ minLength: 1 }),
  workspace_id: Type.String(),
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('approved'),
    Type.Literal('rejected'),
    Type.Literal('withdrawn'),
  ]),
  change_ref: Type.String(),
  approval_ref: Type.String(),
  proposer_user_id: Type.String(),
  decided_by: Type.Union([Type.String(), Type.Null()]),
  risk_level: Type.String(),
  changed_paths: Type.Array(Type.String()),
  applied_change_id: Type.Union([Type.String(), Type.Null()]),
  at: Type.String(),
})

export const ConfigEvents = {
  /** a scope's overrides changed (PUT or rollback); the receiving services re-resolve its effective config */
  scopeChanged: { type: 'config.scope.changed', data: ScopedConfigFacts },
  /** a pending (dual-control) change was proposed, approved, rejected or withdrawn */
  pendingChanged: { type: 'config.pending.changed', data: PendingChangeFacts },
} as const
