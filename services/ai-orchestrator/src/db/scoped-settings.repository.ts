import { fromJson, toJson } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { AiDatabase } from './database.ts'

type Db = Kysely<AiDatabase>

/** One scope's overrides as stored: sections as config-governance sent them (secrets redacted), secrets sealed. */
export interface StoredSettings {
  llm: Record<string, unknown> | null
  knowledge_provider: Record<string, unknown> | null
  sealed_secrets: Record<string, string>
}

export interface SettingsChange extends StoredSettings {
  tenant_id: string
  workspace_id: string
  version: number
  updated_at: string
}

/** Stores a scope's overrides when `version` is newer than the stored one (a late older delivery changes nothing). */
export async function applyScopedSettings(db: Db, c: SettingsChange): Promise<boolean> {
  const row = {
    ...c,
    llm: toJson(c.llm),
    knowledge_provider: toJson(c.knowledge_provider),
    sealed_secrets: toJson(c.sealed_secrets) ?? '{}',
  }
  const res = await db
    .insertInto('ai_scoped_settings')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'workspace_id'])
        .doUpdateSet({
          llm: row.llm,
          knowledge_provider: row.knowledge_provider,
          sealed_secrets: row.sealed_secrets,
          version: row.version,
          updated_at: row.updated_at,
        })
        .where('ai_scoped_settings.version', '<', c.version),
    )
    .executeTakeFirst()
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0
}

/** The tenant's own overrides and the workspace's, in one query (absent: nothing overridden there). */
export async function findScopedSettings(db: Db, tenant_id: string, workspace_id: string) {
  const rows = await db
    .selectFrom('ai_scoped_settings')
    .select(['workspace_id', 'llm', 'knowledge_provider', 'sealed_secrets'])
    .where('tenant_id', '=', tenant_id)
    .where('workspace_id', 'in', workspace_id ? ['', workspace_id] : [''])
    .execute()
  const of = (ws: string): StoredSettings | undefined => {
    const r = rows.find((x) => x.workspace_id === ws)
    if (!r) return undefined
    return {
      llm: fromJson(r.llm, null),
      knowledge_provider: fromJson(r.knowledge_provider, null),
      sealed_secrets: fromJson(r.sealed_secrets, {}),
    }
  }
  return { tenant: of(''), workspace: workspace_id ? of(workspace_id) : undefined }
}
