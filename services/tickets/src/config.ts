import { type Static, Type } from '@sinclair/typebox'
import { UNITS } from '@switchboard/contracts'
import { baseConfigFromEnv, parseConfig, ServiceBaseConfig, serviceUrlsFromEnv } from '@switchboard/platform'

/** The SLA monitor's settings (part of TicketsConfig). */
export const SlaMonitorConfig = Type.Object({
  /** how often the SLA monitor looks for tickets past their deadlines (SLA_MONITOR_INTERVAL_MS) */
  sla_monitor_interval_ms: Type.Integer({ minimum: 50, default: 60_000 }),
  sla_monitor_enabled: Type.Boolean({ default: true }),
  /** breaches one scan reads at most (memory); a pass scans again until a scan comes back short */
  sla_monitor_scan_limit: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 100_000 }),
  /** breaches recorded per transaction: bounds one transaction's outbox rows and lock time */
  sla_monitor_batch_size: Type.Integer({ minimum: 1, maximum: 50_000, default: 5000 }),
})

/** Ticket assignment settings (part of TicketsConfig). */
export const AssignmentConfig = Type.Object({
  /**
   * A new ticket goes to the online agent under capacity with the lowest load (TICKETS_AUTO_ASSIGN): the default of
   * every workspace that has not set its own (PUT /api/tickets/settings).
   */
  auto_assign: Type.Boolean({ default: false }),
})

/** List totals (PostgreSQL): how often the appended count deltas are folded (TICKETS_COUNT_COMPACTION_INTERVAL_MS). */
export const CountsConfig = Type.Object({
  count_compaction_interval_ms: Type.Integer({ minimum: 100, default: 5000 }),
})

/** The services tickets calls (UPSTREAM_<SERVICE>). */
export const UpstreamsConfig = Type.Object({
  /**
   * identity's replicas (UPSTREAM_IDENTITY): a widget visitor's "leave a message" asks it whether the scope takes
   * widget visitors and for the customer of the e-mail. Unset: `POST /public/widget/tickets` answers 503.
   */
  identity_urls: Type.Array(Type.String({ pattern: '^https?://' }), { default: [] }),
})

export const TicketsConfig = Type.Composite([
  ServiceBaseConfig,
  SlaMonitorConfig,
  AssignmentConfig,
  CountsConfig,
  UpstreamsConfig,
])
export type TicketsConfig = Static<typeof TicketsConfig>

/** Pure: the environment in, a checked config out (docs/conventions.md §10). */
export function loadConfig(env: NodeJS.ProcessEnv): TicketsConfig {
  return parseConfig(TicketsConfig, {
    ...baseConfigFromEnv(env, UNITS.tickets),
    sla_monitor_interval_ms: env.SLA_MONITOR_INTERVAL_MS,
    sla_monitor_enabled: env.SLA_MONITOR_ENABLED,
    sla_monitor_scan_limit: env.SLA_MONITOR_SCAN_LIMIT,
    sla_monitor_batch_size: env.SLA_MONITOR_BATCH_SIZE,
    auto_assign: env.TICKETS_AUTO_ASSIGN,
    count_compaction_interval_ms: env.TICKETS_COUNT_COMPACTION_INTERVAL_MS,
    identity_urls: serviceUrlsFromEnv(env, 'identity'),
  })
}
