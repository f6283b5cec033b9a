import type { Test } from 'tap'
import { engine, uniqueId } from './engines.ts'
import { natsPrefixFixture, pgSchemaFixture, type Teardowns } from './fixtures.ts'

/** Both ways the fleet runs: real PostgreSQL + Redis + NATS JetStream, and SQLite + memory cache + memory bus. */
export const STORAGE_MODES = ['postgres', 'sqlite'] as const
export type StorageMode = (typeof STORAGE_MODES)[number]

// The shapes of platform's DatabaseConfig / CacheConfig / BusConfig, written out here because this package
// may not import platform (platform's own tests depend on this package).
export type DatabaseFragment =
  | { driver: 'postgres'; url: string; schema: string; pool_max: number }
  | { driver: 'sqlite'; file: string }
export type CacheFragment = { driver: 'redis'; url: string; prefix: string } | { driver: 'memory'; prefix: string }
export type BusFragment = { driver: 'nats'; url: string; prefix: string } | { driver: 'memory' }

/** The storage part of a service's config, isolated for one test. */
export interface Storage {
  mode: StorageMode
  database: DatabaseFragment
  cache: CacheFragment
  bus: BusFragment
  /** the id behind the schema and both prefixes: the NATS prefix, for tests that open their own bus */
  prefix: string
}

/**
 * Isolated storage for one test: its own PG schema, Redis key prefix and NATS prefix (schema and streams
 * removed at teardown, so register it before the app that uses it), or in-memory everything.
 */
export async function storageFixture(t: Teardowns, mode: StorageMode, label = 't'): Promise<Storage> {
  const id = uniqueId(label)
  if (mode === 'sqlite') {
    return {
      mode,
      database: { driver: 'sqlite', file: ':memory:' },
      cache: { driver: 'memory', prefix: `${id}:` },
      bus: { driver: 'memory' },
      prefix: id,
    }
  }
  const [pgFix, natsFix, redisUrl] = await Promise.all([
    pgSchemaFixture(t, { schema: id }),
    natsPrefixFixture(t, { prefix: id }),
    engine('redis'),
  ])
  return {
    mode,
    database: { driver: 'postgres', url: pgFix.url, schema: pgFix.schema, pool_max: 4 },
    cache: { driver: 'redis', url: redisUrl, prefix: `${id}:` },
    bus: { driver: 'nats', url: natsFix.url, prefix: natsFix.prefix },
    prefix: id,
  }
}

/** Runs `fn` as one subtest per storage mode, named `<name> (<mode>)`. */
export async function inEachStorageMode(
  t: Test,
  name: string,
  fn: (t: Test, mode: StorageMode) => Promise<void>,
): Promise<void> {
  for (const mode of STORAGE_MODES) await t.test(`${name} (${mode})`, (t) => fn(t, mode))
}
