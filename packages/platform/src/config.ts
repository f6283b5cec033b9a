import { readFileSync } from 'node:fs'
import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Applies defaults, converts strings from the environment, and checks; every problem is listed by path. */
export function parseConfig<T extends TSchema>(schema: T, raw: unknown): Static<T> {
  const value = Value.Convert(schema, Value.Default(schema, structuredClone(raw)))
  const errors = [...Value.Errors(schema, value)]
  if (errors.length > 0) {
    const lines = errors.slice(0, 10).map((e) => `  ${e.path || '/'}: ${e.message}`)
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`)
  }
  return value as Static<T>
}

/** Reads a secret from `NAME` or from the file named by `NAME_FILE` (Kubernetes/Docker secrets). */
export function secretFromEnv(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const file = env[`${name}_FILE`]
  if (file) return readFileSync(file, 'utf8').trim()
  return env[name]
}

export const DatabaseConfig = Type.Union([
  Type.Object({
    driver: Type.Literal('postgres'),
    url: Type.String({ minLength: 1 }),
    /** one schema per service */
    schema: Type.String({ pattern: '^[a-z_][a-z0-9_]*$' }),
    pool_max: Type.Integer({ minimum: 1, default: 10 }),
    /** parameterised SELECTs as named prepared statements (default on; off behind a transaction-mode pooler) */
    prepared_statements: Type.Optional(Type.Boolean()),
    /**
     * how long a query waits for a connection (a new one, or a free one of a full pool) before it fails as
     * DEPENDENCY_TIMEOUT (default 10 000 ms): a database that does not answer must not hold requests forever
     */
    connect_timeout_ms: Type.Optional(Type.Integer({ minimum: 1 })),
  }),
  Type.Object({
    driver: Type.Literal('sqlite'),
    /** one file per service, or ':memory:' */
    file: Type.String({ minLength: 1 }),
  }),
])
export type DatabaseConfig = Static<typeof DatabaseConfig>

export const CacheConfig = Type.Union([
  Type.Object({ driver: Type.Literal('redis'), url: Type.String(), prefix: Type.String({ default: 'sb:' }) }),
  Type.Object({ driver: Type.Literal('memory'), prefix: Type.String({ default: 'sb:' }) }),
])
export type CacheConfig = Static<typeof CacheConfig>

const Days = Type.Integer({ minimum: 0, maximum: 36_500 })
const Bytes = Type.Integer({ minimum: 0 })

/**
 * Limits on the JetStream streams, applied by every unit that ensures them at start-up (`EVENTS_RETENTION_DAYS`,
 * `EVENTS_MAX_BYTES` for the domain streams, `EVENTS_DLQ_RETENTION_DAYS`, `EVENTS_DLQ_MAX_BYTES` for the dead
 * letters). Unset: the stream keeps what it has (a new one: no limit); 0: no limit.
 */
export const BusRetentionConfig = Type.Object({
  max_age_days: Type.Optional(Days),
  max_bytes: Type.Optional(Bytes),
  dlq_max_age_days: Type.Optional(Days),
  dlq_max_bytes: Type.Optional(Bytes),
})
export type BusRetentionConfig = Static<typeof BusRetentionConfig>

export const BusConfig = Type.Union([
  Type.Object({
    driver: Type.Literal('nats'),
    url: Type.String(),
    prefix: Type.String({ default: '' }),
    retention: Type.Optional(BusRetentionConfig),
  }),
  Type.Object({ driver: Type.Literal('memory') }),
])
export type BusConfig = Static<typeof BusConfig>

const DAY_MS = 86_400_000

/** The configured limits as the JetStream bus takes them (`createJetStreamBus({ retention })`). */
export function busRetention(retention: BusRetentionConfig | undefined) {
  const ms = (days: number | undefined) => (days === undefined ? undefined : days * DAY_MS)
  return {
    streams: { maxAgeMs: ms(retention?.max_age_days), maxBytes: retention?.max_bytes },
    deadLetters: { maxAgeMs: ms(retention?.dlq_max_age_days), maxBytes: retention?.dlq_max_bytes },
  }
}

/**
 * The retention settings from the environment; an unset or empty variable is left out (the stream keeps its own).
 * A value that is not a whole number in range is refused here, by its variable's name (inside the bus union the
 * schema could only say "/bus: Expected union value").
 */
export function busRetentionFromEnv(env: NodeJS.ProcessEnv): BusRetentionConfig {
  const out: Record<string, number> = {}
  for (const [key, name, max] of [
    ['max_age_days', 'EVENTS_RETENTION_DAYS', 36_500],
    ['max_bytes', 'EVENTS_MAX_BYTES', Number.MAX_SAFE_INTEGER],
    ['dlq_max_age_days', 'EVENTS_DLQ_RETENTION_DAYS', 36_500],
    ['dlq_max_bytes', 'EVENTS_DLQ_MAX_BYTES', Number.MAX_SAFE_INTEGER],
  ] as const) {
    const raw = env[name]?.trim()
    if (!raw) continue
    const value = Number(raw)
    if (!/^\d+$/.test(raw) || value > max) {
      throw new ConfigError(`invalid configuration:\n  ${name}: expected a whole number from 0 to ${max}, got "${raw}"`)
    }
    out[key] = value
  }
  return out
}

/** The part every service's config shares; a service's schema is `Type.Composite([ServiceBaseConfig, own])`. */
export const ServiceBaseConfig = Type.Object({
  service: Type.String(),
  host: Type.String({ default: '127.0.0.1' }),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  log_level: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  environment: Type.String({ default: 'development' }),
  internal_secret: Type.String({ minLength: 16 }),
  body_limit_bytes: Type.Integer({ default: 1_048_576 }),
  /**
   * How long a consumed event's id stays in the inbox (INBOX_RETENTION_DAYS): a redelivery or a dead-letter replay
   * within it is recognised and skipped; past it, the row is pruned (platform worker `inbox-retention`).
   */
  inbox_retention_days: Type.Integer({ minimum: 1, maximum: 3650, default: 7 }),
  database: DatabaseConfig,
  cache: CacheConfig,
  bus: BusConfig,
})
export type ServiceBaseConfig = Static<typeof ServiceBaseConfig>

/**
 * Reads the shared settings from the environment. Storage follows DB_DRIVER (postgres by default,
 * sqlite for development), with `DATABASE_URL`, `DATA_DIR`, `REDIS_URL` / `CACHE_DRIVER=memory`,
 * `NATS_URL` / `BUS_DRIVER=memory`.
 */
export function baseConfigFromEnv(env: NodeJS.ProcessEnv, unit: { name: string; port: number }) {
  const service = unit.name
  const defaultPort = unit.port
  const driver = env.DB_DRIVER === 'sqlite' ? 'sqlite' : 'postgres'
  const dataDir = env.DATA_DIR ?? './data'
  return {
    service,
    host: env.HOST,
    port: env.PORT ?? defaultPort,
    log_level: env.LOG_LEVEL,
    environment: env.SERVER_ENVIRONMENT ?? env.ENVIRONMENT,
    internal_secret: secretFromEnv(env, 'INTERNAL_SECRET') ?? '',
    body_limit_bytes: env.BODY_LIMIT_BYTES,
    inbox_retention_days: env.INBOX_RETENTION_DAYS,
    database:
      driver === 'sqlite'
        ? { driver, file: env.SQLITE_FILE ?? `${dataDir}/${service}.sqlite` }
        : {
            driver,
            url: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
            schema: env.DB_SCHEMA ?? service.replaceAll('-', '_'),
            pool_max: env.DB_POOL_MAX,
            // converted here: a string inside the union would keep TypeBox from applying pool_max's default
            ...(env.DB_PREPARED_STATEMENTS === undefined
              ? {}
              : { prepared_statements: !/^(false|0|off|no)$/i.test(env.DB_PREPARED_STATEMENTS.trim()) }),
            ...(env.DB_CONNECT_TIMEOUT_MS === undefined
              ? {}
              : { connect_timeout_ms: Number(env.DB_CONNECT_TIMEOUT_MS) }),
          },
    cache:
      env.CACHE_DRIVER === 'memory'
        ? { driver: 'memory', prefix: env.CACHE_PREFIX }
        : { driver: 'redis', url: env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix: env.CACHE_PREFIX },
    bus:
      env.BUS_DRIVER === 'memory'
        ? { driver: 'memory' }
        : {
            driver: 'nats',
            url: env.NATS_URL ?? 'nats://127.0.0.1:4222',
            prefix: env.NATS_PREFIX,
            retention: busRetentionFromEnv(env),
          },
  }
}
