import { withLedgerIntrospection } from '@switchboard/events'
import {
  Kysely,
  type KyselyPlugin,
  type Migration,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  type PostgresPool,
  SqliteDialect,
  sql,
} from 'kysely'
import pg from 'pg'
import type { DatabaseConfig } from '../config.ts'
import { markDependencyEngine } from '../http/dependency-errors.ts'
import type { Logger } from '../logger.ts'
import { preparingClient } from './prepared.ts'
import { openSqlite } from './sqlite-driver.ts'
import { maybeTracedDialect } from './tracing.ts'

export type Dialect = 'postgres' | 'sqlite'

export interface Database<DB> {
  db: Kysely<DB>
  dialect: Dialect
  ping(): Promise<boolean>
  close(): Promise<void>
}

/** A query waits this long for a connection before it fails (DEPENDENCY_TIMEOUT), unless configured. */
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000

// Both engines hand timestamps back as ISO strings and counts as numbers, so repositories are engine-blind.
const TIMESTAMPTZ = 1184
const TIMESTAMP = 1114
const INT8 = 20
const NUMERIC = 1700

/**
 * `YYYY-MM-DD HH:MM:SS[.ffffff]` (+`+00` when zoned: PostgreSQL's ISO output in UTC) as `YYYY-MM-DDTHH:MM:SS.mmmZ` by slicing,
 * truncated to milliseconds as `Date` does; anything else (other zones, BC, 5-digit years, infinity) is
 * left to `Date`. pg calls a parser for every timestamp of every row, and `Date` parsing this legacy
 * format was a visible part of a read's cost.
 */
export function pgTimestampToIso(v: string, zoned: boolean): string {
  const suffix = zoned ? '+00' : ''
  const end = v.length - suffix.length
  if (end >= 19 && end <= 26 && v.charCodeAt(4) === 45 && v.charCodeAt(10) === 32 && v.endsWith(suffix)) {
    const day = v.slice(0, 10)
    const time = v.slice(11, 19)
    if (end === 19) return `${day}T${time}.000Z`
    if (v.charCodeAt(19) === 46 && end > 20) {
      const frac = v.slice(20, end)
      return `${day}T${time}.${frac.length >= 3 ? frac.slice(0, 3) : frac.padEnd(3, '0')}Z`
    }
  }
  return new Date(zoned ? v : `${v}Z`).toISOString()
}

const parseTimestamptz = (v: string) => pgTimestampToIso(v, true)
const parseTimestamp = (v: string) => pgTimestampToIso(v, false)
const parseNumber = (v: string) => Number(v)
// pg asks for a parser per column of every result; these are made once.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMPTZ) return parseTimestamptz
    if (oid === TIMESTAMP) return parseTimestamp
    if (oid === INT8 || oid === NUMERIC) return parseNumber
    return pg.types.getTypeParser(oid, format as 'text')
  },
}

/** Opens this service's own store: a PostgreSQL schema (created if missing) or a SQLite file. */
export interface DatabaseOptions {
  /**
   * Called once per query as it starts, synchronously in the caller's async context (feeds `db_queries_total`,
   * so a benchmark can show a path makes none). A Kysely plugin rather than the log hook: the log hook runs
   * after the driver's callbacks, whose async context belongs to whoever last used the pooled connection.
   */
  onQuery?: () => void
}

export async function createDatabase<DB>(
  config: DatabaseConfig,
  logger: Logger,
  opts: DatabaseOptions = {},
): Promise<Database<DB>> {
  const plugins: KyselyPlugin[] = opts.onQuery ? [countingPlugin(opts.onQuery)] : []
  if (config.driver === 'sqlite') {
    const handle = openSqlite(config.file)
    const db = new Kysely<DB>({
      dialect: maybeTracedDialect(new SqliteDialect({ database: handle }), 'sqlite'),
      plugins,
    })
    return {
      db,
      dialect: 'sqlite',
      ping: async () => {
        handle.raw.prepare('select 1').get()
        return true
      },
      close: () => db.destroy(),
    }
  }
  const schema = config.schema
  const bootstrap = new pg.Client({ connectionString: config.url })
  await bootstrap.connect()
  try {
    await bootstrap.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`)
  } catch (err) {
    // Two replicas racing on CREATE SCHEMA IF NOT EXISTS can collide on the catalog's unique index.
    if ((err as { code?: string }).code !== '23505') throw err
  } finally {
    await bootstrap.end()
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: config.pool_max,
    connectionTimeoutMillis: config.connect_timeout_ms ?? DEFAULT_CONNECT_TIMEOUT_MS,
    options: `-c search_path=${schema}`,
    types: pgTypes,
    ...(config.prepared_statements === false ? {} : { Client: preparingClient() }),
  })
  pool.on('error', (err) => logger.warn({ err }, 'idle database client failed'))
  const db = new Kysely<DB>({
    dialect: maybeTracedDialect(new PostgresDialect({ pool: attributed(pool) }), 'postgresql'),
    plugins,
  })
  return {
    db,
    dialect: 'postgres',
    ping: async () => {
      await sql`select 1`.execute(db)
      return true
    },
    close: () => db.destroy(),
  }
}

/** Forward-only migrations at start-up; on PostgreSQL Kysely's migrator holds an advisory lock, so replicas can race safely. */
export async function migrateToLatest(db: Kysely<any>, migrations: Record<string, Migration>, logger: Logger) {
  // Kysely looks for its ledger tables in every schema unless told which one: another service's (or test's)
  // schema holding `kysely_migration_lock` would make it skip creating this schema's own.
  const schema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
      : undefined
  const migrator = new Migrator({
    db: schema ? withLedgerIntrospection(db, schema) : db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  })
  const { error, results } = await migrator.migrateToLatest()
  for (const r of results ?? []) {
    if (r.status === 'Success') logger.info({ migration: r.migrationName }, 'migration applied')
    else if (r.status === 'Error') logger.error({ migration: r.migrationName }, 'migration failed')
  }
  if (error) throw new Error('database migration failed', { cause: error })
}

/**
 * The pool as Kysely uses it. Its connection failures are marked as the database's: a refused socket (ECONNREFUSED)
 * does not say which engine refused it, and the error handler answers it 503 `DEPENDENCY_UNAVAILABLE` naming the
 * database. And every client it hands out has an `error` listener of its own: pg-pool listens to a client only while
 * it is idle, so a connection that dies while checked out (between Kysely's acquire and its query, or inside a
 * transaction) would emit an unhandled `error` and end the process. The failure reaches the query that uses the
 * client instead ("not queryable"), and pg-pool drops the client when it comes back.
 */
function attributed(pool: pg.Pool): PostgresPool {
  const guarded = new WeakSet<pg.PoolClient>()
  return {
    async connect() {
      const client = await pool.connect().catch((err: unknown) => {
        throw markDependencyEngine(err, 'postgres')
      })
      if (!guarded.has(client)) {
        guarded.add(client)
        client.on('error', () => {}) // logged by the query it fails, or by the pool's idle listener
      }
      return client
    },
    end: () => pool.end(),
  }
}

function countingPlugin(onQuery: () => void): KyselyPlugin {
  return {
    transformQuery: (args) => {
      onQuery()
      return args.node
    },
    transformResult: async (args) => args.result,
  }
}
