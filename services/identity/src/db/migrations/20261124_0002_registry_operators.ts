import { columnTypes, dialectOf } from '@switchboard/platform'
import type { Kysely } from 'kysely'

/** The settings every tenant and workspace had before the registry: open registration, widget on. */
const OPEN_SETTINGS = JSON.stringify({ public_registration: true, widget_enabled: true })

// The tenant/workspace registry, operator administration (an admin's reach, set-password links) and the
// directory fields of the earlier system's customers. Forward-only: 0001 is never edited.
// `Kysely<unknown>`: a migration must not lean on today's table types, only on the schema it builds.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))
  await db.schema
    .createTable('tenants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('settings', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('workspaces')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('settings', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('workspaces_pk', ['tenant_id', 'id'])
    .execute()

  // One ADD COLUMN per statement: SQLite accepts no more.
  // '' = platform-wide for an admin; a tenant id = the one tenant a tenant administrator administers.
  await db.schema
    .alterTable('users')
    .addColumn('admin_tenant_id', 'text', (c) => c.notNull().defaultTo(''))
    .execute()
  for (const column of ['company', 'industry', 'notes'] as const) {
    await db.schema
      .alterTable('customers')
      .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
      .execute()
  }
  await db.schema
    .alterTable('customers')
    .addColumn('priority', 'text', (c) => c.notNull().defaultTo('normal'))
    .execute()

  // One-time set-password links: only a hash of the token is kept.
  await db.schema
    .createTable('password_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('used_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute()
  await db.schema.createIndex('password_tokens_user_idx').on('password_tokens').column('user_id').execute()

  await registerScopesInUse(db as Kysely<any>)
}

/**
 * Every tenant and workspace that records already live in becomes a registered, active one with the settings
 * it effectively had, so that no existing customer, agent or login is refused after the upgrade.
 */
async function registerScopesInUse(db: Kysely<any>) {
  const now = new Date().toISOString()
  const pairs = new Map<string, { tenant_id: string; workspace_id: string }>()
  for (const table of ['agents', 'customers']) {
    const rows = await db.selectFrom(table).select(['tenant_id', 'workspace_id']).distinct().execute()
    for (const r of rows as Array<{ tenant_id: string; workspace_id: string }>) {
      if (r.tenant_id && r.workspace_id) pairs.set(`${r.tenant_id}\n${r.workspace_id}`, r)
    }
  }
  const tenants = [...new Set([...pairs.values()].map((p) => p.tenant_id))]
  for (const id of tenants) {
    await db
      .insertInto('tenants')
      .values({ id, name: id, status: 'active', settings: OPEN_SETTINGS, created_at: now, updated_at: now })
      .execute()
  }
  for (const p of pairs.values()) {
    await db
      .insertInto('workspaces')
      .values({
        tenant_id: p.tenant_id,
        id: p.workspace_id,
        name: p.workspace_id,
        status: 'active',
        settings: OPEN_SETTINGS,
        created_at: now,
        updated_at: now,
      })
      .execute()
  }
}
