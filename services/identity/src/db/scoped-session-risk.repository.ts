import { fromJson, isPlainObject, type Scope, type ScopedOverrides, toJson } from '@switchboard/platform'
import type { Db } from './users.repository.ts'

/** A stored override section as it is: keys and values are checked when the policy is resolved. */
export type StoredSessionRisk = Record<string, unknown>

export interface ScopedSessionRiskChange {
  tenant_id: string
  /** '' for the tenant's own overrides */
  workspace_id: string
  /** the scope's `session_risk` section; null when the scope overrides none (any earlier one is dropped) */
  policy: StoredSessionRisk | null
  version: number
  updated_at: string
}

/**
 * Keeps a scope's session-risk overrides when `version` is newer than the stored one; a redelivered or
 * out-of-order older change is ignored. One statement, so concurrent deliveries of one scope (on several
 * replicas) end with the highest version whichever commits last. True when the row was written.
 */
export async function applyScopedSessionRisk(db: Db, change: ScopedSessionRiskChange): Promise<boolean> {
  const values = {
    tenant_id: change.tenant_id,
    workspace_id: change.workspace_id,
    policy: toJson(change.policy),
    version: change.version,
    updated_at: change.updated_at,
  }
  const result = await db
    .insertInto('scoped_session_risk')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'workspace_id'])
        .doUpdateSet({ policy: values.policy, version: values.version, updated_at: values.updated_at })
        .where('scoped_session_risk.version', '<', values.version),
    )
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
}

/**
 * The stored overrides of a scope in one query: the tenant's own row and, for a workspace, the workspace's row.
 * A row without a policy (or with an unreadable one) counts as absent.
 */
export async function findScopedSessionRisk(db: Db, scope: Scope): Promise<ScopedOverrides<StoredSessionRisk>> {
  const workspaces = scope.workspace_id ? ['', scope.workspace_id] : ['']
  const rows = await db
    .selectFrom('scoped_session_risk')
    .select(['workspace_id', 'policy'])
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', 'in', workspaces)
    .execute()
  const stored: ScopedOverrides<StoredSessionRisk> = {}
  for (const row of rows) {
    const policy = fromJson<unknown>(row.policy, null)
    if (!isPlainObject(policy)) continue
    if (row.workspace_id === '') stored.tenant = policy
    else stored.workspace = policy
  }
  return stored
}
