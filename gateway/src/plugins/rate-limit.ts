import { createHash } from 'node:crypto'
import rateLimit from '@fastify/rate-limit'
import type { Cache } from '@switchboard/platform'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { GatewayErrors } from '../errors.ts'
import type { GatewayMetrics } from '../metrics.ts'
import type { Limit, RateLimitConfig } from '../rate-limit-config.ts'

/** Probes and scrapes must not be throttled into reporting an outage (restrict them at the network edge). */
const EXEMPT = new Set(['/health', '/ready', '/metrics'])

type Limiter = ReturnType<FastifyInstance['createRateLimit']>
interface Scope {
  name: string
  minute: Limiter
  second: Limiter
}

const hash = (v: string) => createHash('sha256').update(v).digest('hex').slice(0, 24)

/**
 * Global + longest matching prefix + per header key, each as a per-minute window and a one-second burst
 * window, counted by @fastify/rate-limit in Redis (shared by replicas) or in memory (embedded). A Redis
 * failure lets requests through (skipOnError): an outage of the limiter must not become an outage of the API.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, opts: { config: RateLimitConfig; cache: Cache; metrics: GatewayMetrics }) => {
    const { config, cache, metrics } = opts
    if (!config.enabled) return
    await app.register(rateLimit, {
      global: false,
      skipOnError: true,
      ...(cache.redis ? { redis: cache.redis, nameSpace: `${cache.prefix}rl:` } : {}),
    })

    const scope = (name: string, limit: Limit, key: (r: FastifyRequest) => string): Scope => ({
      name,
      minute: app.createRateLimit({
        max: limit.requests_per_minute,
        timeWindow: 60_000,
        keyGenerator: (r) => `${name}|m|${key(r)}`,
      }),
      second: app.createRateLimit({ max: limit.burst, timeWindow: 1000, keyGenerator: (r) => `${name}|s|${key(r)}` }),
    })
    const byIp = (r: FastifyRequest) => r.ip
    const global = scope('global', config.global, byIp)
    const prefixes = [...config.prefixes]
      .sort((a, b) => b.prefix.length - a.prefix.length)
      .map((p) => ({ prefix: p.prefix, scope: scope(`prefix:${p.prefix}`, p, byIp) }))
    const headers = config.header_keys.map((h) => {
      const name = h.header.toLowerCase()
      return { name, scope: scope(`header:${name}`, h, (r) => hash(String(r.headers[name]))) }
    })

    app.addHook('onRequest', async (request, reply) => {
      const path = request.url.split('?', 1)[0] ?? ''
      if (EXEMPT.has(path)) return
      const scopes = [global]
      const p = prefixes.find((x) => path.startsWith(x.prefix))
      if (p) scopes.push(p.scope)
      for (const h of headers) if (request.headers[h.name] !== undefined) scopes.push(h.scope)
      const results = await Promise.all(
        scopes.flatMap((s) => [s.minute, s.second].map(async (l) => ({ scope: s.name, r: await l(request) }))),
      )
      let worst: { scope: string; retry: number } | undefined
      for (const { scope: name, r } of results) {
        if (r.isAllowed || !r.isExceeded) continue
        const retry = Math.max(1, r.ttlInSeconds)
        if (!worst || retry > worst.retry) worst = { scope: name, retry }
      }
      if (!worst) return
      metrics.rateLimitDropped.inc({ scope: worst.scope })
      reply.header('retry-after', String(worst.retry))
      throw new GatewayErrors.RateLimited(worst.scope, worst.retry)
    })
  },
  { name: 'gateway-rate-limit' },
)
