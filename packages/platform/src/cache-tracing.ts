import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { tracingActive } from '@switchboard/events'
import type { Cache } from './cache.ts'

/** The Cache's Redis commands, by method: what a span names (`lease` is its one Lua script). */
const COMMANDS: Partial<Record<keyof Cache, string>> = {
  get: 'GET',
  set: 'SET',
  del: 'DEL',
  incr: 'INCR',
  zadd: 'ZADD',
  zrangeByScore: 'ZRANGEBYSCORE',
  zremRangeByScore: 'ZREMRANGEBYSCORE',
  lease: 'EVAL',
}

/**
 * The Redis-backed cache with a CLIENT span per call made inside a span (a request, a delivery); calls outside any
 * trace (workers' leases) make none. The in-memory cache of the embedded mode is not traced (no network call), nor
 * is the raw client (`cache.redis`) the gateway's limiter runs its script on. Off, the cache itself is returned.
 */
export function maybeTracedCache(cache: Cache): Cache {
  if (!tracingActive() || cache.kind !== 'redis') return cache
  const tracer = trace.getTracer('@switchboard/platform')
  const out = { ...cache } as Record<string, unknown>
  for (const [method, command] of Object.entries(COMMANDS)) {
    const call = (cache as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[method]!
    out[method] = async (...args: unknown[]) => {
      const parent = context.active()
      if (!trace.getSpan(parent)?.isRecording()) return call(...args)
      const span = tracer.startSpan(
        command,
        { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'redis', 'db.operation.name': command } },
        parent,
      )
      try {
        return await call(...args)
      } catch (err) {
        span.recordException(err as Error)
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message })
        throw err
      } finally {
        span.end()
      }
    }
  }
  return out as unknown as Cache
}
