/**
 * A replica's `/metrics` reduced to the few figures an operator reads on the health page. Counters are summed over
 * their labels; probe routes (`/health`, `/ready`, `/metrics`) are not counted as requests, so that the gateway's
 * own asking does not make an idle unit look busy. Rates are per second since this gateway replica's previous
 * scrape of the same replica (null on the first one, or when the counters went back: a restart).
 */
import type { ReplicaFigures } from '@switchboard/contracts/system-health.ts'
import type { Sample } from './readiness-exposition.ts'

export type { ReplicaFigures }

/** what the previous scrape of a replica counted, for the rates */
export interface PreviousCount {
  at: number
  requests: number
  errors: number
}

const PROBE_ROUTES = new Set(['/health', '/ready', '/metrics'])
const BREAKER = ['closed', 'half-open', 'open'] as const

const finite = (n: number | undefined): number | null => (n !== undefined && Number.isFinite(n) ? n : null)

function first(samples: Sample[], name: string): number | null {
  return finite(samples.find((s) => s.name === name)?.value)
}

function total(samples: Sample[], name: string, keep: (s: Sample) => boolean = () => true): number {
  let sum = 0
  for (const s of samples) if (s.name === name && keep(s) && Number.isFinite(s.value)) sum += s.value
  return sum
}

function byLabel(samples: Sample[], name: string, label: string): Record<string, number> | undefined {
  const found = samples.filter((s) => s.name === name && s.labels[label] !== undefined && Number.isFinite(s.value))
  return found.length ? Object.fromEntries(found.map((s) => [s.labels[label], s.value])) : undefined
}

function rate(now: number, current: number, previous: number | undefined, at: number | undefined): number | null {
  if (previous === undefined || at === undefined || now <= at || current < previous) return null
  return (current - previous) / ((now - at) / 1000)
}

/** The figures of one scrape taken at `now` (ms), with the previous count of the same replica if there was one. */
export function figuresOf(samples: Sample[], now: number, previous?: PreviousCount): ReplicaFigures {
  const started = first(samples, 'process_start_time_seconds')
  const served = (s: Sample) => !PROBE_ROUTES.has(s.labels.route ?? '')
  const requests = total(samples, 'http_request_duration_seconds_count', served)
  const errors = total(
    samples,
    'http_request_duration_seconds_count',
    (s) => served(s) && /^5/.test(s.labels.status ?? ''),
  )
  const figures: ReplicaFigures = {
    started_at: started === null ? null : new Date(started * 1000).toISOString(),
    uptime_seconds: started === null ? null : Math.max(0, Math.round(now / 1000 - started)),
    resident_memory_bytes: first(samples, 'process_resident_memory_bytes'),
    event_loop_lag_p99_seconds: first(samples, 'nodejs_eventloop_lag_p99_seconds'),
    http_requests_total: requests,
    http_5xx_total: errors,
    http_requests_per_second: rate(now, requests, previous?.requests, previous?.at),
    http_5xx_per_second: rate(now, errors, previous?.errors, previous?.at),
    events_published_total: total(samples, 'eventbus_published_total'),
    events_failed_total: total(samples, 'eventbus_failed_total'),
    events_dead_lettered_total: total(samples, 'eventbus_dead_letters_total'),
  }
  const projections = byLabel(samples, 'stats_projection_lag_seconds', 'projection')
  if (projections) figures.projection_lag_seconds = projections
  const waiting = first(samples, 'conversations_waiting_sessions')
  if (waiting !== null) figures.waiting_sessions = waiting
  const sockets = byLabel(samples, 'realtime_hub_sockets', 'kind')
  if (sockets) figures.hub_sockets = sockets
  const breakers = byLabel(samples, 'ai_circuit_breaker_state', 'breaker')
  if (breakers) {
    figures.breakers = Object.fromEntries(
      Object.entries(breakers).map(([k, v]) => [k, BREAKER[Math.min(2, Math.max(0, Math.round(v)))] ?? 'open']),
    )
  }
  return figures
}
