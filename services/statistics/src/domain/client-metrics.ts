/**
 * The client metrics `POST /api/v1/metrics/ingest` records (the allow-list of what the earlier system's clients send): the SDK's, the admin
 * console's and the agent desk's own counters, and the agents-online gauge. Any other name is dropped and counted.
 */
export const CLIENT_METRICS = {
  sdk_ws_reconnects_total: { kind: 'counter', help: 'SDK WebSocket reconnections, as reported by clients' },
  sdk_messages_sent_total: { kind: 'counter', help: 'messages sent by the SDK, as reported by clients' },
  sdk_messages_recv_total: { kind: 'counter', help: 'messages received by the SDK, as reported by clients' },
  sdk_webrtc_sessions_total: { kind: 'counter', help: 'WebRTC sessions started by the SDK, as reported by clients' },
  admin_actions_total: { kind: 'counter', help: 'actions in the admin console, as reported by clients' },
  agent_online_gauge: { kind: 'gauge', help: 'agents online, as last reported by an agent desk' },
  agent_takeover_total: { kind: 'counter', help: 'conversations taken over by agents, as reported by clients' },
} as const satisfies Record<string, { kind: 'counter' | 'gauge'; help: string }>

export type ClientMetricName = keyof typeof CLIENT_METRICS

/** The sources a batch may name: the SDK, the admin console, the agent desk. */
export const METRIC_SOURCES = ['sdk', 'admin', 'agent'] as const

/** Samples in one batch, at most (a larger batch is refused whole, 400). */
export const MAX_BATCH = 500

export const isClientMetric = (name: string): name is ClientMetricName => Object.hasOwn(CLIENT_METRICS, name)

/**
 * What a sample adds: a counter's value (0 or absent counts as 1, as the reference's clients send bare
 * increments); a gauge's value is set as given.
 */
export function sampleValue(name: ClientMetricName, value: number | undefined): number {
  if (CLIENT_METRICS[name].kind === 'gauge') return value ?? 0
  return value === undefined || value === 0 ? 1 : value
}
