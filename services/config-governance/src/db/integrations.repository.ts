import {
  type Dialect,
  fromJson,
  likeOperator,
  type PageWindow,
  type Scope,
  selectPage,
  type Tx,
  toBool,
  toJson,
  whereScope,
} from '@switchboard/platform'
import { type Kysely, type Selectable, sql } from 'kysely'
import type { StoredSettings } from '../domain/integration-settings.ts'
import type { ConfigSchema } from '../schemas/integration.schemas.ts'
import type { AppIntegrationsTable, ConfigGovernanceDatabase } from './database.ts'

type Db = Kysely<ConfigGovernanceDatabase>

/** An integration as stored: its settings with the secrets sealed (never shown as they are). */
export interface StoredIntegration {
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
  capabilities: string[]
  config_schema: ConfigSchema
  settings: StoredSettings
  enabled: boolean
  last_sync_status: string | null
  version: number
  created_at: string
  updated_at: string
}

function fromRow(row: Selectable<AppIntegrationsTable>): StoredIntegration {
  const { config, sealed_secrets, updated_by: _by, ...rest } = row
  return {
    ...rest,
    capabilities: fromJson<string[]>(row.capabilities, []),
    config_schema: fromJson<ConfigSchema>(row.config_schema, {}),
    settings: { config: fromJson(config, {}), secrets: fromJson(sealed_secrets, {}) },
    enabled: toBool(row.enabled),
  }
}

function toRow(i: StoredIntegration, by: string): AppIntegrationsTable {
  const { settings, ...rest } = i
  return {
    ...rest,
    capabilities: toJson(i.capabilities),
    config_schema: toJson(i.config_schema),
    config: toJson(settings.config),
    sealed_secrets: toJson(settings.secrets),
    updated_by: by,
  }
}

const integrationById = (db: Db, id: string, scope: Scope) =>
  whereScope(db.selectFrom('app_integrations').selectAll().where('id', '=', id), scope)

/**
 * The integration `id` inside `scope` (a filter: empty parts are no restriction), or undefined — also for another
 * scope's, so that it is answered like a missing one.
 */
export async function findIntegration(db: Db, id: string, scope: Scope): Promise<StoredIntegration | undefined> {
  const row = await integrationById(db, id, scope).executeTakeFirst()
  return row ? fromRow(row) : undefined
}

/** `findIntegration`, its row held until `tx` ends. */
export async function findIntegrationForUpdate(
  tx: Tx<ConfigGovernanceDatabase>,
  id: string,
  scope: Scope,
): Promise<StoredIntegration | undefined> {
  const row = await tx.forUpdate(integrationById(tx.db, id, scope)).executeTakeFirst()
  return row ? fromRow(row) : undefined
}

/** Another integration of the scope with this slug: a 409 before the unique key would say it. */
export async function slugTaken(db: Db, scope: Scope, slug: string, exceptId: string): Promise<boolean> {
  const row = await db
    .selectFrom('app_integrations')
    .select('id')
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .where('slug', '=', slug)
    .where('id', '!=', exceptId)
    .executeTakeFirst()
  return row !== undefined
}

export async function insertIntegration(db: Db, integration: StoredIntegration, by: string): Promise<void> {
  await db.insertInto('app_integrations').values(toRow(integration, by)).execute()
}

/** Writes every field of the integration (its id and scope never change). */
export async function writeIntegration(db: Db, integration: StoredIntegration, by: string): Promise<void> {
  const { id: _id, tenant_id: _t, workspace_id: _w, created_at: _c, ...row } = toRow(integration, by)
  await db.updateTable('app_integrations').set(row).where('id', '=', integration.id).execute()
}

export async function deleteIntegration(db: Db, id: string): Promise<void> {
  await db.deleteFrom('app_integrations').where('id', '=', id).execute()
}

export interface IntegrationFilters {
  enabled?: boolean | undefined
  category?: string | undefined
  vendor?: string | undefined
  search?: string | undefined
}

/** One page of the scope's integrations, by name. */
export async function listIntegrations(
  db: Db,
  dialect: Dialect,
  scope: Scope,
  f: IntegrationFilters,
  window: PageWindow,
) {
  let q = whereScope(db.selectFrom('app_integrations'), scope)
  if (f.enabled !== undefined) q = q.where('enabled', '=', f.enabled)
  if (f.category) q = q.where('category', '=', f.category)
  if (f.vendor) q = q.where('vendor', '=', f.vendor)
  if (f.search) {
    const pattern = `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    const like = sql.raw(likeOperator(dialect))
    q = q.where((eb) =>
      eb.or([
        sql<boolean>`${eb.ref('name')} ${like} ${pattern} escape '\\'`,
        sql<boolean>`${eb.ref('slug')} ${like} ${pattern} escape '\\'`,
      ]),
    )
  }
  const { rows, total } = await selectPage(q, window, (qb) => qb.selectAll().orderBy('name').orderBy('id'))
  return { rows: rows.map(fromRow), total }
}
