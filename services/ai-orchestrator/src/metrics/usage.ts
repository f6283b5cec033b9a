import type { Cache } from '@switchboard/platform'

/**
 * `GET /api/v1/ai/metrics`: counts shared by every replica (cache counters; each replica adds what it counted once
 * every 250 ms, so an answer never waits for the cache and a busy replica sends a handful of writes a second, not
 * several per query) and this replica's duration percentiles (the last 1,000 queries; the fleet-wide distribution
 * is `ai_request_duration_seconds` on /metrics).
 */
export type UsageEvent =
  | 'query'
  | 'answered_primary'
  | 'answered_compatibility'
  | 'fallback'
  | 'transfer'
  | 'failure_primary'
  | 'failure_compatibility'
  | 'failure_llm'
  | 'skipped_primary'
  | 'skipped_compatibility'
  | 'skipped_llm'

const EVENTS: readonly UsageEvent[] = [
  'query',
  'answered_primary',
  'answered_compatibility',
  'fallback',
  'transfer',
  'failure_primary',
  'failure_compatibility',
  'failure_llm',
  'skipped_primary',
  'skipped_compatibility',
  'skipped_llm',
]

const WINDOW = 1000
const FLUSH_MS = 250

export interface UsageBook {
  count(event: UsageEvent): void
  duration(ms: number): void
  /** adds what this replica counted to the shared counters now (a snapshot does it first) */
  flush(): Promise<void>
  snapshot(): Promise<Record<string, unknown>>
  close(): Promise<void>
}

export function createUsageBook(cache: Cache, onError: (err: unknown) => void): UsageBook {
  const durations: number[] = []
  let next = 0
  const key = (e: UsageEvent) => `ai:usage:${e}`
  let pending = new Map<UsageEvent, number>()
  async function flush() {
    if (pending.size === 0) return
    const batch = pending
    pending = new Map()
    await Promise.all(
      [...batch].map(([e, n]) => (cache.redis ? cache.redis.incrby(`${cache.prefix}${key(e)}`, n) : addTo(e, n))),
    ).catch(onError)
  }
  // the memory cache has no INCRBY: a counter of one replica, one increment at a time
  async function addTo(e: UsageEvent, n: number) {
    for (let i = 0; i < n; i++) await cache.incr(key(e))
  }
  const timer = setInterval(() => void flush(), FLUSH_MS)
  timer.unref()
  const percentile = (p: number) => {
    if (durations.length === 0) return 0
    const sorted = [...durations].sort((a, b) => a - b)
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
  }
  return {
    count(event) {
      pending.set(event, (pending.get(event) ?? 0) + 1)
    },
    flush,
    async close() {
      clearInterval(timer)
      await flush()
    },
    duration(ms) {
      if (durations.length < WINDOW) durations.push(ms)
      else durations[next] = ms
      next = (next + 1) % WINDOW
    },
    async snapshot() {
      await flush()
      const values = await Promise.all(EVENTS.map((e) => cache.get(key(e)).catch(() => null)))
      const n = Object.fromEntries(EVENTS.map((e, i) => [e, Number(values[i] ?? 0)])) as Record<UsageEvent, number>
      const answeredByProviders = n.answered_primary + n.answered_compatibility
      return {
        requests: n.query,
        answered_by_provider: answeredByProviders,
        fallbacks: n.fallback,
        transfers: n.transfer,
        failures: n.failure_primary + n.failure_compatibility + n.failure_llm,
        knowledge_provider_usage_count: answeredByProviders,
        per_provider: {
          primary: { answered: n.answered_primary, failures: n.failure_primary, skipped: n.skipped_primary },
          compatibility: {
            answered: n.answered_compatibility,
            failures: n.failure_compatibility,
            skipped: n.skipped_compatibility,
          },
          llm: { failures: n.failure_llm, skipped: n.skipped_llm },
        },
        replica: { window: durations.length, p50_duration_ms: percentile(50), p95_duration_ms: percentile(95) },
      }
    },
  }
}
