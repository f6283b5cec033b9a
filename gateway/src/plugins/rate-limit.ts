import { createHash } from 'node:crypto'
import type { Cache, Logger } from '@switchboard/platform'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { GatewayErrors } from '../errors.ts'
import { withMemoryFallback } from '../limits-fallback.ts'
import type { GatewayMetrics } from '../metrics.ts'
import type { Limit, RateLimitConfig } from '../rate-limit-config.ts'
import { type LimitStore, memoryLimitStore, redisLimitStore, type WindowHit } from '../rate-limit-store.ts'
import { installLoginThrottle } from './login-throttle.ts'

/** Probes and scrapes must not be throttled into reporting an outage (restrict them at the network edge). */
const EXEMPT = new Set(['/health', '/ready', '/metrics'])

interface Scope {
  name: string
  limit: Limit
  /** whose budget: the client address, or the hashed header value */
  id(request: FastifyRequest): string
}

const hash = (v: string) => createHash('sha256').update(v).digest('hex').slice(0, 24)

export interface RateLimitOptions {
  config: RateLimitConfig
  cache: Cache
  metrics: GatewayMetrics
  logger: Logger
  /** gateway replicas sharing the limits (each keeps its share while Redis is down) */
  replicas: number
  loginFailures: { max: number; windowMs: number }
}

/**
 * Global + longest matching prefix + per header key, each as a per-minute window and a one-second burst
 * window, counted in Redis (shared by replicas) or in memory (embedded), and failed logins per login name.
 * Not @fastify/rate-limit: it makes one Redis round trip per limiter, and these layered limits are up to six
 * limiters per request; here every window of a request is counted by one script call. While Redis is down each
 * replica limits in memory with its share of every limit (limits-fallback.ts): an outage of the limiter must
 * neither become an outage of the API nor lift the limits.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, opts: RateLimitOptions) => {
    const { config, cache, metrics } = opts
    if (!config.enabled) return
    let store: LimitStore = memoryLimitStore()
    let effective = (max: number) => max
    const redis = cache.redis
    if (redis) {
      const resilient = withMemoryFallback(redisLimitStore(redis, `${cache.prefix}rl:`), store, {
        replicas: opts.replicas,
        probeMs: 1000,
        probe: () => cache.ping(),
        logger: opts.logger,
        onSwitch: (to) => {
          metrics.rateLimitBackendSwitches.inc({ to })
          metrics.rateLimitBackend.set({ backend: 'redis' }, to === 'redis' ? 1 : 0)
          metrics.rateLimitBackend.set({ backend: 'memory' }, to === 'memory' ? 1 : 0)
        },
      })
      metrics.rateLimitBackend.set({ backend: 'redis' }, 1)
      app.addHook('onClose', async () => resilient.close())
      store = resilient.store
      effective = resilient.effective
    }
    installLoginThrottle(app, { store, ...opts.loginFailures, effective, metrics })

    const byIp = (r: FastifyRequest) => r.ip
    const global: Scope = { name: 'global', limit: config.global, id: byIp }
    const prefixes = [...config.prefixes]
      .sort((a, b) => b.prefix.length - a.prefix.length)
      .map((p) => ({ prefix: p.prefix, scope: { name: `prefix:${p.prefix}`, limit: p, id: byIp } as Scope }))
    const headers = config.header_keys.map((h) => {
      const name = h.header.toLowerCase()
      return { name, scope: { name: `header:${name}`, limit: h, id: (r) => hash(String(r.headers[name])) } as Scope }
    })

    app.addHook('onRequest', async (request, reply) => {
      const q = request.url.indexOf('?')
      const path = q === -1 ? request.url : request.url.slice(0, q)
      if (EXEMPT.has(path)) return
      const scopes = [global]
      const p = prefixes.find((x) => path.startsWith(x.prefix))
      if (p) scopes.push(p.scope)
      for (const h of headers) if (request.headers[h.name] !== undefined) scopes.push(h.scope)
      const windows: WindowHit[] = []
      for (const s of scopes) {
        const id = s.id(request)
        windows.push({ key: `${s.name}|m|${id}`, max: s.limit.requests_per_minute, windowMs: 60_000 })
        windows.push({ key: `${s.name}|s|${id}`, max: s.limit.burst, windowMs: 1000 })
      }
      // The store falls back to memory by itself; a failure here would be a bug, not an outage.
      const counts = await store.hit(windows)
      let worst: { scope: string; retry: number } | undefined
      for (let i = 0; i < counts.length; i++) {
        const c = counts[i]!
        // a store answers retryMs > 0 exactly for a window over its limit (as it applies in that store)
        if (c.retryMs === 0) continue
        const retry = Math.max(1, Math.ceil(c.retryMs / 1000))
        if (!worst || retry > worst.retry) worst = { scope: scopes[i >> 1]!.name, retry }
      }
      if (!worst) return
      metrics.rateLimitDropped.inc({ scope: worst.scope })
      reply.header('retry-after', String(worst.retry))
      throw new GatewayErrors.RateLimited(worst.scope, worst.retry)
    })
  },
  { name: 'gateway-rate-limit' },
)
