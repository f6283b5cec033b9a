// What the erasure suites (erasure.test.ts: a customer; erasure-tenant.test.ts: a tenant) share: the leak check, a
// tenant of one's own with its administrator, statistics' totals once settled, and the scans of every table of every
// unit's database and of the fleet's Redis.
import { BUILT_SERVICES } from '@switchboard/contracts'
import { createCache } from '@switchboard/platform'
import { sql } from 'kysely'
import type { Test } from 'tap'
import { login } from './auth.ts'
import { must, type Scope } from './conversations-kit.ts'
import type { CallOptions, Client } from './http.ts'
import type { System } from './system.ts'

export const TOTALS = [
  'total_customers',
  'total_agents',
  'total_tickets',
  'total_sessions',
  'today_messages',
  'open_tickets',
  'active_sessions',
  'customer_satisfaction',
] as const

/** What a body must not contain once the people are erased: every marker, case-insensitive. */
export function leaks(body: unknown, markers: readonly string[]): string[] {
  const text = JSON.stringify(body ?? null).toLowerCase()
  return markers.filter((m) => text.includes(m.toLowerCase()))
}

export function clean(t: Test, what: string, body: unknown, markers: readonly string[]) {
  t.same(leaks(body, markers), [], `${what}: none of the person's data`)
}

/** A tenant of its own (registered first, `name` its registry name) and its administrator, logged in. */
export async function tenantAdmin(api: Client, service: string, scope: Scope, username: string, name?: string) {
  const password = `Pw-${username}-0123456789`
  const inScope = { token: service, headers: { 'x-tenant-id': scope.tenant_id, 'x-workspace-id': scope.workspace_id } }
  const workspace = name ? { id: scope.workspace_id, name: `${name} desk` } : { id: scope.workspace_id }
  const tenant = { id: scope.tenant_id, ...(name ? { name } : {}), workspaces: [workspace] }
  must(await api.post('/api/security/tenants', tenant, { token: service }), 201, `tenant ${scope.tenant_id}`)
  const email = `${username}@e2e.example.com`
  must(await api.post('/api/security/users', { username, email, role: 'admin', password }, inScope), 201, username)
  return { token: (await login(api, username, password)).token, username, email }
}

/** The dashboard's totals once `ready` holds, or the last ones after 30 s (the assertion that follows shows them). */
export async function settledTotals(api: Client, auth: CallOptions, ready: (b: any) => boolean) {
  const deadline = Date.now() + 30_000
  for (;;) {
    const r = await api.get('/api/statistics/dashboard', auth)
    const totals = r.status === 200 ? Object.fromEntries(TOTALS.map((k) => [k, r.body[k]])) : { status: r.status }
    if ((r.status === 200 && ready(r.body)) || Date.now() > deadline) return totals
    await new Promise((res) => setTimeout(res, 200))
  }
}

/** Every table of a unit's own database read whole: which hold one of the markers (and how many were read). */
export async function markersIn(system: System, service: string, markers: readonly string[]) {
  const { db, dialect, close } = await system.serviceDatabase(service)
  try {
    const tables =
      dialect === 'postgres'
        ? await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
        : await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
    const found: string[] = []
    for (const { name } of tables.rows) {
      const hits = leaks(await db.selectFrom(name).selectAll().execute(), markers)
      if (hits.length) found.push(`${name}: ${hits.join(', ')}`)
    }
    return { tables: tables.rows.length, found }
  } finally {
    await close()
  }
}

/** `markersIn` for every unit of the registry: the units' names with what each still holds. */
export async function markersEverywhere(system: System, markers: readonly string[]) {
  const out: { service: string; tables: number; found: string[] }[] = []
  for (const service of BUILT_SERVICES) out.push({ service, ...(await markersIn(system, service, markers)) })
  return out
}

/**
 * The fleet's Redis (the embedded default runs on the in-memory cache: undefined): the cache prefix its units share
 * (`<namespace>:`, the namespace its dead-letter arguments name) and a client over the whole keyspace.
 */
export function fleetRedis(system: System) {
  if (system.mode !== 'fleet') return undefined
  const args = system.dlqArgs('')
  const prefix = `${args[args.indexOf('--prefix') + 1]}:`
  const cache = createCache({ driver: 'redis', url: system.env.REDIS_URL!, prefix: '' })
  const redis = cache.redis!
  return {
    prefix,
    /** every key of the whole Redis whose name contains `needle` */
    async keys(needle: string): Promise<string[]> {
      const found: string[] = []
      let cursor = '0'
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `*${needle}*`, 'COUNT', 1000)
        cursor = next
        found.push(...keys)
      } while (cursor !== '0')
      return found
    },
    set: (key: string, value: string) => redis.set(key, value, 'EX', 600),
    close: () => cache.close(),
  }
}
