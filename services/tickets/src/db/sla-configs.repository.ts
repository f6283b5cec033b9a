import { fromJson, type PageWindow, type Scope, selectPage, toBool, toJson, whereScope } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { SlaConfig } from '../schemas/sla.schemas.ts'
import type { SlaConfigsTable, TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

export function toSlaConfig(row: Selectable<SlaConfigsTable>): SlaConfig {
  return {
    ...row,
    tags: fromJson<string[]>(row.tags, []),
    business_hours_only: toBool(row.business_hours_only),
    active: toBool(row.active),
  }
}

export async function insertSlaConfig(db: Db, config: SlaConfig): Promise<void> {
  await db
    .insertInto('sla_configs')
    .values({ ...config, tags: toJson(config.tags)! })
    .execute()
}

/** Scoped: another tenant's config is not found, like a missing one. */
export async function findSlaConfig(db: Db, id: string, scope: Scope): Promise<SlaConfig | undefined> {
  const row = await whereScope(db.selectFrom('sla_configs').selectAll().where('id', '=', id), scope).executeTakeFirst()
  return row ? toSlaConfig(row) : undefined
}

export async function writeSlaConfig(db: Db, id: string, patch: Partial<SlaConfig>): Promise<void> {
  const { tags, ...plain } = patch
  await db
    .updateTable('sla_configs')
    .set({ ...plain, ...(tags !== undefined ? { tags: toJson(tags)! } : {}) })
    .where('id', '=', id)
    .execute()
}

export async function deleteSlaConfig(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sla_configs').where('id', '=', id).execute()
}

/** Another config of the scope holding the same (priority, tier) or name, for a 409 that names which. */
export async function clashingConfig(
  db: Db,
  scope: Scope,
  c: { id: string; priority: string; customer_tier: string; name: string },
): Promise<'match' | 'name' | undefined> {
  const rows = await db
    .selectFrom('sla_configs')
    .select(['name', 'priority', 'customer_tier'])
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .where('id', '!=', c.id)
    .where((eb) =>
      eb.or([
        eb.and([eb('priority', '=', c.priority), eb('customer_tier', '=', c.customer_tier)]),
        eb('name', '=', c.name),
      ]),
    )
    .execute()
  if (rows.some((r) => r.priority === c.priority && r.customer_tier === c.customer_tier)) return 'match'
  return rows.length > 0 ? 'name' : undefined
}

export interface SlaConfigFilters {
  priority?: string
  customer_tier?: string
  active?: boolean
}

export async function listSlaConfigs(db: Db, scope: Scope, f: SlaConfigFilters, window: PageWindow) {
  let q = whereScope(db.selectFrom('sla_configs'), scope)
  if (f.priority) q = q.where('priority', '=', f.priority)
  if (f.customer_tier !== undefined) q = q.where('customer_tier', '=', f.customer_tier)
  if (f.active !== undefined) q = q.where('active', '=', f.active)
  const { rows, total } = await selectPage(q, window, (qb) => qb.selectAll().orderBy('priority').orderBy('id'))
  return { rows: rows.map(toSlaConfig), total }
}

/** The configs of one concrete scope and priority, for `pickConfig`. */
export async function configsFor(db: Db, scope: Scope, priority: string): Promise<SlaConfig[]> {
  const rows = await db
    .selectFrom('sla_configs')
    .selectAll()
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .where('priority', '=', priority)
    .execute()
  return rows.map(toSlaConfig)
}

/** Every active config of every scope: the monitor's pass starts from these (a few per scope). */
export async function activeConfigs(db: Db): Promise<SlaConfig[]> {
  const rows = await db.selectFrom('sla_configs').selectAll().where('active', '=', true).execute()
  return rows.map(toSlaConfig)
}
