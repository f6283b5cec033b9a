import { fromJson, type Tx, toJson } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { ConfigGovernanceDatabase } from './database.ts'

type Db = Kysely<ConfigGovernanceDatabase>

/** A stored scope: `workspace_id` '' is the tenant's own overrides. */
export interface ScopeKey {
  tenant_id: string
  workspace_id: string
}

export interface StoredConfig {
  /** sections as stored, secrets sealed */
  document: Record<string, unknown>
  version: number
  updated_at: string | null
}

const scopeRow = (db: Db, key: ScopeKey) =>
  db
    .selectFrom('scoped_configs')
    .select(['document', 'version', 'updated_at'])
    .where('tenant_id', '=', key.tenant_id)
    .where('workspace_id', '=', key.workspace_id)

const storedOf = (row: { document: unknown; version: number; updated_at: string | null } | undefined): StoredConfig =>
  row
    ? { document: fromJson(row.document, {}), version: row.version, updated_at: row.updated_at }
    : { document: {}, version: 0, updated_at: null }

/** A scope's stored overrides (empty document, version 0 when it never changed). */
export async function findScopedConfig(db: Db, key: ScopeKey): Promise<StoredConfig> {
  return storedOf(await scopeRow(db, key).executeTakeFirst())
}

/**
 * `findScopedConfig`, its row held until `tx` ends, so concurrent writes of one scope apply one after the other;
 * `ensureScopeRow` first makes sure there is a row to lock.
 */
export async function findScopedConfigForUpdate(
  tx: Tx<ConfigGovernanceDatabase>,
  key: ScopeKey,
): Promise<StoredConfig> {
  return storedOf(await tx.forUpdate(scopeRow(tx.db, key)).executeTakeFirst())
}

export async function ensureScopeRow(db: Db, key: ScopeKey, now: string) {
  await db
    .insertInto('scoped_configs')
    .values({ ...key, document: toJson({}), version: 0, updated_at: now, updated_by: '' })
    .onConflict((oc) => oc.columns(['tenant_id', 'workspace_id']).doNothing())
    .execute()
}

export async function saveScopedConfig(
  db: Db,
  key: ScopeKey,
  document: Record<string, unknown>,
  version: number,
  now: string,
  by: string,
) {
  await db
    .updateTable('scoped_configs')
    .set({ document: toJson(document), version, updated_at: now, updated_by: by })
    .where('tenant_id', '=', key.tenant_id)
    .where('workspace_id', '=', key.workspace_id)
    .execute()
}

/** The stored overrides of a tenant and of one of its workspaces, in one query (the portal's resolution). */
export async function findScopeLayers(db: Db, tenant_id: string, workspace_id: string) {
  const rows = await db
    .selectFrom('scoped_configs')
    .select(['workspace_id', 'document'])
    .where('tenant_id', '=', tenant_id)
    .where('workspace_id', 'in', workspace_id ? ['', workspace_id] : [''])
    .execute()
  const doc = (ws: string) => fromJson<Record<string, unknown>>(rows.find((r) => r.workspace_id === ws)?.document, {})
  return { tenant: doc(''), workspace: workspace_id ? doc(workspace_id) : {} }
}
