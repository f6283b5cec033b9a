import { createHash } from 'node:crypto'
import type { Cache } from '@switchboard/platform'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { GatewayErrors } from '../errors.ts'
import type { GatewayMetrics } from '../metrics.ts'
import type { Limit, RateLimitConfig } from '../rate-limit-config.ts'
import { type LimitStore, memoryLimitStore, redisLimitStore, type WindowHit } from '../rate-limit-store.ts'

/** Probes and scrapes must not be throttled into reporting an outage (restrict them at the network edge). */
const EXEMPT = new Set(['/health', '/ready', '/metrics'])

interface Scope {
  name: string
  limit: Limit
  /** whose budget: the client address, or the hashed header value */
  id(request: FastifyRequest): string
}

const hash = (v: string) => createHash('sha256').update(v).digest('hex').slice(0, 24)

/**
 * Global + longest matching prefix + per header key, each as a per-minute window and a one-second burst
 * window, counted in Redis (shared by replicas) or in memory (embedded). Not @fastify/rate-limit: it makes
 * one Redis round trip per limiter, and these layered limits are up to six limiters per request; here every
 * window of a request is counted by one script call. A Redis failure lets requests through: an outage of
 * the limiter must not become an outage of the API.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, opts: { config: RateLimitConfig; cache: Cache; metrics: GatewayMetrics }) => {
    const { config, cache, metrics } = opts
    if (!config.enabled) return
    const store: LimitStore = cache.redis ? redisLimitStore(cache.redis, `${cache.prefix}rl:`) : memoryLimitStore()

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
      let counts: Awaited<ReturnType<LimitStore['hit']>>
      try {
        counts = await store.hit(windows)
      } catch {
        return
      }
      let worst: { scope: string; retry: number } | undefined
      for (let i = 0; i < counts.length; i++) {
        const c = counts[i]!
        if (c.count <= windows[i]!.max) continue
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
