import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { signInternalPrincipal } from '@switchboard/auth'
import { PRINCIPAL_HEADER, type Principal } from '@switchboard/contracts'
import type { BusConfig, CacheConfig, DatabaseConfig } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import pg from 'pg'
import pino from 'pino'

export const INTERNAL_SECRET = 'test-internal-secret-0123456789'
export const silentLogger = () => pino({ level: 'silent' })

export type Mode = 'postgres' | 'sqlite'
/** Both ways the fleet runs: real PostgreSQL + Redis + NATS JetStream, and SQLite + memory cache + memory bus. */
export const MODES: readonly Mode[] = ['postgres', 'sqlite']

export interface Storage {
  database: DatabaseConfig
  cache: CacheConfig
  bus: BusConfig
  /** the NATS prefix (postgres mode), for tests that open their own bus on the same streams */
  prefix: string
  /** drops the schema and the prefixed streams; call after the app closed */
  cleanup(): Promise<void>
}

/** Isolated storage for one test: its own PG schema, Redis prefix and NATS prefix, or in-memory everything. */
export function storage(mode: Mode, label: string): Storage {
  const id = uniqueId(label)
  if (mode === 'sqlite') {
    return {
      database: { driver: 'sqlite', file: ':memory:' },
      cache: { driver: 'memory', prefix: `${id}:` },
      bus: { driver: 'memory' },
      prefix: id,
      cleanup: async () => {},
    }
  }
  const urls = engineUrls()
  return {
    database: { driver: 'postgres', url: urls.databaseUrl, schema: id, pool_max: 4 },
    cache: { driver: 'redis', url: urls.redisUrl, prefix: `${id}:` },
    bus: { driver: 'nats', url: urls.natsUrl, prefix: id },
    prefix: id,
    cleanup: async () => {
      const client = new pg.Client({ connectionString: urls.databaseUrl })
      await client.connect()
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${id}" CASCADE`)
      } finally {
        await client.end()
      }
      const nc = await connect({ servers: urls.natsUrl })
      try {
        const jsm = await jetstreamManager(nc)
        const mine = `${id}_`.toUpperCase()
        for await (const name of jsm.streams.names()) if (name.startsWith(mine)) await jsm.streams.delete(name)
      } finally {
        await nc.close()
      }
    },
  }
}

export function principal(overrides: Partial<Principal> = {}): Principal {
  const p: Principal = {
    user_id: 'admin-1',
    kind: 'admin',
    roles: ['admin'],
    permissions: ['*'],
    tenant_id: 'acme',
    workspace_id: 'support',
    session_id: 'sess-1',
    jti: 'jti-1',
    token_tenant_id: '',
    token_workspace_id: '',
    ...overrides,
  }
  return {
    ...p,
    token_tenant_id: p.token_tenant_id || p.tenant_id,
    token_workspace_id: p.token_workspace_id || p.workspace_id,
  }
}

/** The header the gateway would add for this principal. */
export async function as(p: Principal): Promise<Record<string, string>> {
  return { [PRINCIPAL_HEADER]: await signInternalPrincipal(INTERNAL_SECRET, p) }
}

/** Polls until `check` returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false>, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > until) throw new Error('waitFor: timed out')
    await new Promise((r) => setTimeout(r, 25))
  }
}
