import { Redis } from 'ioredis'
import { maybeTracedCache } from './cache-tracing.ts'
import type { CacheConfig } from './config.ts'

/**
 * The slice of Redis the fleet uses. The embedded default runs on the in-memory implementation of the
 * same interface; both prefix every key so tests and tenants of one Redis never collide.
 */
export interface Cache {
  readonly kind: 'redis' | 'memory'
  readonly prefix: string
  get(key: string): Promise<string | null>
  set(key: string, value: string, ttlMs?: number): Promise<void>
  del(...keys: string[]): Promise<number>
  incr(key: string, ttlMs?: number): Promise<number>
  zadd(key: string, score: number, member: string): Promise<void>
  zrangeByScore(key: string, min: number, max: number): Promise<string[]>
  zremRangeByScore(key: string, min: number, max: number): Promise<number>
  /**
   * Takes the lease `key` for `owner` for `ttlMs`, or extends it when `owner` already holds it: true when
   * `owner` holds it now. What lets a worker run on one replica at a time (platform `service/workers.ts`).
   */
  lease(key: string, owner: string, ttlMs: number): Promise<boolean>
  ping(): Promise<boolean>
  close(): Promise<void>
  /** the raw client when Redis backs the cache (the gateway's rate limiter runs its script on it) */
  readonly redis?: Redis
}

export function createCache(config: CacheConfig): Cache {
  return config.driver === 'redis'
    ? maybeTracedCache(redisCache(config.url, config.prefix))
    : memoryCache(config.prefix)
}

/**
 * A command unanswered this long fails instead of waiting: a stalled Redis (paused, overloaded, a half-open
 * connection) must degrade its callers — the gateway's limiter fails open, token state falls back — not stall
 * every request that touches it. Redis answers in well under a millisecond when healthy.
 */
const COMMAND_TIMEOUT_MS = 250

// Take the lease when free, extend it when ours: one round trip, atomic.
const LEASE_SCRIPT = `
local v = redis.call('GET', KEYS[1])
if v == false then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0`

function redisCache(url: string, prefix: string): Cache {
  const redis = new Redis(url, {
    lazyConnect: false,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    commandTimeout: COMMAND_TIMEOUT_MS,
  })
  redis.on('error', () => {}) // surfaced through ping() and command failures, not as process-level noise
  const k = (key: string) => prefix + key
  return {
    kind: 'redis',
    prefix,
    redis,
    get: (key) => redis.get(k(key)),
    set: async (key, value, ttlMs) => {
      if (ttlMs) await redis.set(k(key), value, 'PX', Math.max(1, Math.ceil(ttlMs)))
      else await redis.set(k(key), value)
    },
    del: (...keys) => (keys.length ? redis.del(...keys.map(k)) : Promise.resolve(0)),
    incr: async (key, ttlMs) => {
      const n = await redis.incr(k(key))
      if (ttlMs && n === 1) await redis.pexpire(k(key), ttlMs)
      return n
    },
    zadd: async (key, score, member) => {
      await redis.zadd(k(key), score, member)
    },
    zrangeByScore: (key, min, max) => redis.zrangebyscore(k(key), min, max),
    zremRangeByScore: (key, min, max) => redis.zremrangebyscore(k(key), min, max),
    lease: async (key, owner, ttlMs) =>
      (await redis.eval(LEASE_SCRIPT, 1, k(key), owner, String(Math.max(1, Math.ceil(ttlMs))))) === 1,
    ping: async () => (await redis.ping()) === 'PONG',
    close: async () => {
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}

function memoryCache(prefix: string): Cache {
  const values = new Map<string, { value: string; expires: number }>()
  const zsets = new Map<string, Map<string, number>>()
  const live = (key: string) => {
    const e = values.get(key)
    if (e?.expires && e.expires <= Date.now()) {
      values.delete(key)
      return undefined
    }
    return e
  }
  return {
    kind: 'memory',
    prefix,
    get: async (key) => live(key)?.value ?? null,
    set: async (key, value, ttlMs) => {
      values.set(key, { value, expires: ttlMs ? Date.now() + ttlMs : 0 })
    },
    del: async (...keys) => keys.reduce((n, key) => n + (values.delete(key) || zsets.delete(key) ? 1 : 0), 0),
    incr: async (key, ttlMs) => {
      const e = live(key)
      const n = (e ? Number(e.value) : 0) + 1
      values.set(key, { value: String(n), expires: e?.expires || (ttlMs ? Date.now() + ttlMs : 0) })
      return n
    },
    zadd: async (key, score, member) => {
      const z = zsets.get(key) ?? new Map<string, number>()
      z.set(member, score)
      zsets.set(key, z)
    },
    zrangeByScore: async (key, min, max) =>
      [...(zsets.get(key) ?? new Map<string, number>())]
        .filter(([, s]) => s >= min && s <= max)
        .sort((a, b) => a[1] - b[1])
        .map(([m]) => m),
    zremRangeByScore: async (key, min, max) => {
      const z = zsets.get(key)
      if (!z) return 0
      let n = 0
      for (const [m, s] of z) if (s >= min && s <= max && z.delete(m)) n++
      return n
    },
    lease: async (key, owner, ttlMs) => {
      const e = live(key)
      if (e && e.value !== owner) return false
      values.set(key, { value: owner, expires: Date.now() + ttlMs })
      return true
    },
    ping: async () => true,
    close: async () => {
      values.clear()
      zsets.clear()
    },
  }
}
