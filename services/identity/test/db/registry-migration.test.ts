import { createDatabase, migrateToLatest } from '@switchboard/platform'
import { inEachStorageMode, silentLogger, storageFixture } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import * as m0001 from '../../src/db/migrations/20261122_0001_identity.ts'
import { migrations } from '../../src/db/migrations/index.ts'

// An existing deployment upgrades: every scope its records live in becomes a registered, active tenant/workspace,
// so no customer, agent or login of before is refused afterwards.
inEachStorageMode(t, 'migration 0002 registers the scopes records already live in', async (t, mode) => {
  const store = await storageFixture(t, mode, 'idmig')
  const logger = silentLogger()
  const database = await createDatabase<any>(store.database, logger)
  t.teardown(() => database.close())
  const db = database.db as Kysely<any>
  await migrateToLatest(db, { '20261122_0001_identity': m0001 }, logger)

  const now = new Date().toISOString()
  const user = (id: string) => ({
    id,
    username: id,
    email: `${id}@old.test`,
    password_hash: 'x',
    role: 'customer',
    created_at: now,
    updated_at: now,
  })
  await db
    .insertInto('users')
    .values([user('u1'), user('u2'), user('u3')])
    .execute()
  const row = (id: string, user_id: string, tenant_id: string, workspace_id: string) => ({
    id,
    user_id,
    tenant_id,
    workspace_id,
    created_at: now,
    updated_at: now,
  })
  await db
    .insertInto('agents')
    .values([
      { ...row('a1', 'u1', 'acme', 'support'), skills: '[]' },
      { ...row('a2', 'u2', 'acme', 'support'), skills: '[]' },
    ])
    .execute()
  await db
    .insertInto('customers')
    .values([
      { ...row('c1', 'u2', 'acme', 'sales'), tags: '[]' },
      { ...row('c2', 'u3', 'globex', 'main'), tags: '[]' },
    ])
    .execute()

  await migrateToLatest(db, migrations, logger)
  const tenants = await db.selectFrom('tenants').selectAll().orderBy('id').execute()
  t.same(
    tenants.map((r) => [r.id, r.name, r.status]),
    [
      ['acme', 'acme', 'active'],
      ['globex', 'globex', 'active'],
    ],
  )
  const settings = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v)
  t.same(settings(tenants[0]?.settings), { public_registration: true, widget_enabled: true }, 'as open as before')
  const workspaces = await db.selectFrom('workspaces').selectAll().orderBy('tenant_id').orderBy('id').execute()
  t.same(
    workspaces.map((w) => `${w.tenant_id}/${w.id}`),
    ['acme/sales', 'acme/support', 'globex/main'],
  )
  const u1 = await db.selectFrom('users').selectAll().where('id', '=', 'u1').executeTakeFirstOrThrow()
  t.equal(u1.admin_tenant_id, '', 'existing admins stay platform-wide')
  const c1 = await db.selectFrom('customers').selectAll().where('id', '=', 'c1').executeTakeFirstOrThrow()
  t.match(c1, { priority: 'normal', company: '', industry: '', notes: '' })
})
