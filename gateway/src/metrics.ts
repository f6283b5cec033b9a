import { createMetrics } from '@switchboard/platform'
import { Counter, Gauge } from 'prom-client'

/** The platform's per-instance registry plus what only the gateway measures. */
export function createGatewayMetrics() {
  const base = createMetrics('gateway')
  const registers = [base.registry]
  return {
    ...base,
    rateLimitDropped: new Counter({
      name: 'gateway_rate_limit_dropped_total',
      help: 'Requests refused with 429, by limit scope',
      labelNames: ['scope'] as const,
      registers,
    }),
    rateLimitBackend: new Gauge({
      name: 'gateway_rate_limit_backend',
      help: 'Where this replica counts rate limits: 1 for the backend in use (redis, or memory while Redis is down)',
      labelNames: ['backend'] as const,
      registers,
    }),
    rateLimitBackendSwitches: new Counter({
      name: 'gateway_rate_limit_backend_switches_total',
      help: 'Switches of the rate-limit backend, by the backend switched to',
      labelNames: ['to'] as const,
      registers,
    }),
    tokenStateFetches: new Counter({
      name: 'gateway_token_state_fetch_total',
      help: "Calls to identity's internal token-state endpoints (zero per request in steady state)",
      labelNames: ['kind', 'result'] as const,
      registers,
    }),
    tokenRefusals: new Counter({
      name: 'gateway_token_refused_total',
      help: 'Tokens refused, by reason code',
      labelNames: ['code'] as const,
      registers,
    }),
    upstreamErrors: new Counter({
      name: 'gateway_upstream_errors_total',
      help: 'Proxy failures by service and kind (unavailable, timeout, not_configured)',
      labelNames: ['service', 'kind'] as const,
      registers,
    }),
    upstreamEjections: new Counter({
      name: 'gateway_upstream_ejections_total',
      help: 'Replicas taken out of rotation after a connection failure (brought back by a /ready probe)',
      labelNames: ['service'] as const,
      registers,
    }),
    upstreamRetries: new Counter({
      name: 'gateway_upstream_retries_total',
      help: 'Requests sent again to another replica after a connection failure',
      labelNames: ['service'] as const,
      registers,
    }),
    upstreamEjected: new Gauge({
      name: 'gateway_upstream_ejected',
      help: 'Replicas currently out of rotation, by service',
      labelNames: ['service'] as const,
      registers,
    }),
    websocketConnections: new Gauge({
      name: 'gateway_websocket_connections',
      help: 'Open WebSocket connections relayed by this replica',
      registers,
    }),
    websocketMessages: new Counter({
      name: 'gateway_websocket_messages_total',
      help: 'WebSocket messages by direction: to_upstream, to_client, dropped (over the per-connection rate)',
      labelNames: ['direction'] as const,
      registers,
    }),
    auditPending: new Gauge({
      name: 'gateway_audit_pending',
      help: "The gateway's own audit records (refusals, replays) waiting to be handed to the audit service",
      registers,
    }),
    auditHandoverFailures: new Counter({
      name: 'gateway_audit_handover_failures_total',
      help: 'Hand-overs of audit records to the audit service that failed (retried)',
      registers,
    }),
    auditDropped: new Counter({
      name: 'gateway_audit_dropped_total',
      help: 'Audit records lost: the queue for the audit service was full, or not emptied at shutdown',
      registers,
    }),
    auditRejected: new Counter({
      name: 'gateway_audit_rejected_total',
      help: 'Audit records the audit service refused for good (off their contract)',
      registers,
    }),
  }
}
export type GatewayMetrics = ReturnType<typeof createGatewayMetrics>
