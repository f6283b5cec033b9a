import type { Redis } from 'ioredis'
import { LRUCache } from 'lru-cache'

/** One fixed window to count a request in: `max` requests per `windowMs`, starting at the window's first hit. */
export interface WindowHit {
  key: string
  max: number
  windowMs: number
}

/** The window's count including this request; `retryMs` is how long until it resets: > 0 exactly when over `max`. */
export interface WindowCount {
  count: number
  retryMs: number
}

/** Counts one request in every given window: one Redis round trip for all of them (or memory). */
export interface LimitStore {
  hit(windows: readonly WindowHit[]): Promise<WindowCount[]>
  /** a window's count without counting (0 when absent or expired), and how long until it resets */
  peek(key: string): Promise<WindowCount>
  /** forgets a window */
  reset(key: string): Promise<void>
}

/**
 * Every window of a request in one script: INCR, PEXPIRE on the first hit, PTTL only for a window that is
 * over its limit (the only case where the caller needs it). A key found without an expiry is given one
 * again, so a counter can never block a client for good.
 */
const SCRIPT = `
local out = {}
for i = 1, #KEYS do
  local max = tonumber(ARGV[i * 2 - 1])
  local window = tonumber(ARGV[i * 2])
  local n = redis.call('INCR', KEYS[i])
  local ttl = 0
  if n == 1 then
    redis.call('PEXPIRE', KEYS[i], window)
  elseif n > max then
    ttl = redis.call('PTTL', KEYS[i])
    if ttl < 1 then
      redis.call('PEXPIRE', KEYS[i], window)
      ttl = window
    end
  end
  out[i * 2 - 1] = n
  out[i * 2] = ttl
end
return out
`
const COMMAND = 'switchboardRateLimit'
/** requests per script call at most (a few windows each), so one call stays a small command */
const MAX_BATCH = 128
type WithCommand = { [COMMAND](...args: Array<string | number>): Promise<number[]> }

/**
 * Shared by every replica using this Redis. The requests that arrive in one turn of the event loop are
 * counted together by one script call (one write and one read on the connection instead of one per
 * request, the costliest part of the limiter under load); that call's keys must live on one node: a plain
 * Redis (or one primary), which is what the fleet runs.
 */
export function redisLimitStore(redis: Redis, prefix: string): LimitStore {
  // defineCommand sends EVALSHA and falls back to EVAL when the server doesn't know the script yet.
  if (!(COMMAND in redis)) redis.defineCommand(COMMAND, { lua: SCRIPT })
  const run = (redis as unknown as WithCommand)[COMMAND].bind(redis)
  interface Pending {
    windows: readonly WindowHit[]
    resolve(counts: WindowCount[]): void
    reject(err: unknown): void
  }
  let pending: Pending[] = []
  let scheduled = false

  function flush() {
    scheduled = false
    const batch = pending
    pending = []
    if (batch.length === 0) return
    const keys: string[] = []
    const limits: number[] = []
    for (const p of batch) {
      for (const w of p.windows) {
        keys.push(prefix + w.key)
        limits.push(w.max, w.windowMs)
      }
    }
    run(keys.length, ...keys, ...limits).then(
      (flat) => {
        let i = 0
        for (const p of batch) {
          const counts: WindowCount[] = []
          for (let k = 0; k < p.windows.length; k++, i++)
            counts.push({ count: flat[i * 2]!, retryMs: flat[i * 2 + 1]! })
          p.resolve(counts)
        }
      },
      // Includes the cache's command timeout: a stalled Redis fails the batch, and the plugin lets it through.
      (err: unknown) => {
        for (const p of batch) p.reject(err)
      },
    )
  }

  return {
    async peek(key) {
      const [count, ttl] = await Promise.all([redis.get(prefix + key), redis.pttl(prefix + key)])
      return { count: Number(count ?? 0), retryMs: Math.max(0, ttl) }
    },
    async reset(key) {
      await redis.del(prefix + key)
    },
    hit(windows) {
      return new Promise((resolve, reject) => {
        pending.push({ windows, resolve, reject })
        if (pending.length >= MAX_BATCH) flush()
        else if (!scheduled) {
          scheduled = true
          setImmediate(flush)
        }
      })
    },
  }
}

/** The same fixed windows in this process (embedded mode); the least recently used keys go first past `maxKeys`. */
export function memoryLimitStore(maxKeys = 50_000): LimitStore {
  const counters = new LRUCache<string, { count: number; resetAt: number }>({ max: maxKeys })
  return {
    async peek(key) {
      const c = counters.get(key)
      const now = Date.now()
      return c && c.resetAt > now ? { count: c.count, retryMs: c.resetAt - now } : { count: 0, retryMs: 0 }
    },
    async reset(key) {
      counters.delete(key)
    },
    async hit(windows) {
      const now = Date.now()
      return windows.map((w) => {
        let c = counters.get(w.key)
        if (!c || c.resetAt <= now) {
          c = { count: 0, resetAt: now + w.windowMs }
          counters.set(w.key, c)
        }
        c.count++
        return { count: c.count, retryMs: c.count > w.max ? Math.max(1, c.resetAt - now) : 0 }
      })
    },
  }
}
