import { type Static, Type } from '@sinclair/typebox'
import { UNITS } from '@switchboard/contracts'
import { baseConfigFromEnv, parseConfig, ServiceBaseConfig } from '@switchboard/platform'

export const AuditConfig = Type.Composite([
  ServiceBaseConfig,
  Type.Object({
    /** records older than this many days are deleted (services/audit/README.md, Retention) */
    retention_days: Type.Integer({ minimum: 1, default: 180 }),
    /** rows per delete statement, so one cleanup never holds a long lock */
    retention_batch_size: Type.Integer({ minimum: 1, maximum: 100_000, default: 1000 }),
    /** how often the cleanup runs */
    retention_interval_ms: Type.Integer({ minimum: 1000, default: 3_600_000 }),
    retention_enabled: Type.Boolean({ default: true }),
    /** deliveries of one audit event before it goes to the dead-letter stream */
    consumer_max_deliver: Type.Integer({ minimum: 1, maximum: 100, default: 5 }),
    /**
     * audit events written by one statement at most (group commit: the deliveries ready together, no wait added), and
     * the pull loops per replica feeding them
     */
    consumer_batch_size: Type.Integer({ minimum: 1, maximum: 500, default: 64 }),
    /** redelivery delays by attempt, ms (the last one repeats) */
    consumer_backoff_ms: Type.Array(Type.Integer({ minimum: 0 }), { minItems: 1, default: [200, 1000, 5000, 15000] }),
  }),
])
export type AuditConfig = Static<typeof AuditConfig>

/** Pure: the environment in, a checked config out (docs/conventions.md §10). */
export function loadConfig(env: NodeJS.ProcessEnv): AuditConfig {
  return parseConfig(AuditConfig, {
    ...baseConfigFromEnv(env, UNITS.audit),
    retention_days: env.AUDIT_RETENTION_DAYS,
    retention_batch_size: env.AUDIT_RETENTION_BATCH_SIZE,
    retention_interval_ms: env.AUDIT_RETENTION_INTERVAL_MS,
    retention_enabled: env.AUDIT_RETENTION_ENABLED,
    consumer_max_deliver: env.AUDIT_CONSUMER_MAX_DELIVER,
    consumer_batch_size: env.AUDIT_CONSUMER_BATCH_SIZE,
    consumer_backoff_ms: env.AUDIT_CONSUMER_BACKOFF_MS?.split(',').map((v) => v.trim()),
  })
}
