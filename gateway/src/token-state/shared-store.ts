import type { SessionTokenState, UserTokenState } from '@switchboard/contracts'
import type { Cache } from '@switchboard/platform'
import { COMPARE_AND_SET_LUA, sessionIsNewer, userIsNewer } from './merge.ts'

const KEY = {
  user: (id: string) => `ts:user:${id}`,
  session: (id: string) => `ts:sess:${id}`,
  denied: 'ts:denied',
  deniedLoaded: 'ts:denied:loaded',
}
const FAR_FUTURE = Number.MAX_SAFE_INTEGER

function parse<T>(raw: string | null): T | null {
  if (!raw) return null
  try {
    return JSON.parse(raw) as T
  } catch {
    return null
  }
}

/**
 * The level shared by every gateway replica (Redis in the fleet, memory when embedded): keys
 * `<prefix>ts:user:<id>`, `<prefix>ts:sess:<id>`, and the sorted set `<prefix>ts:denied` scored by expiry (ms).
 */
export function createSharedStore(cache: Cache, ttlMs: number) {
  async function compareAndSet(key: string, value: string, kind: 'user' | 'session', newer: () => Promise<boolean>) {
    if (cache.redis) {
      await cache.redis.eval(COMPARE_AND_SET_LUA, 1, cache.prefix + key, value, String(ttlMs), kind)
    } else if (await newer()) {
      await cache.set(key, value, ttlMs)
    }
  }

  return {
    getUser: async (id: string) => parse<UserTokenState>(await cache.get(KEY.user(id))),
    getSession: async (id: string) => parse<SessionTokenState>(await cache.get(KEY.session(id))),
    putUser: (s: UserTokenState) =>
      compareAndSet(KEY.user(s.user_id), JSON.stringify(s), 'user', async () =>
        userIsNewer(s, parse<UserTokenState>(await cache.get(KEY.user(s.user_id)))),
      ),
    putSession: (s: SessionTokenState) =>
      compareAndSet(KEY.session(s.session_id), JSON.stringify(s), 'session', async () =>
        sessionIsNewer(s, parse<SessionTokenState>(await cache.get(KEY.session(s.session_id)))),
      ),
    async deny(jti: string, expiresAtMs: number) {
      await cache.zadd(KEY.denied, expiresAtMs, jti)
    },
    /**
     * Every jti still denied, with the time until which to hold it locally. Redis gives the exact expiry;
     * the memory cache has no scores, so a member is held for `holdMs` and re-confirmed by the next resync.
     * Holding a denial past the token's own `exp` is harmless: the token is refused as expired anyway.
     */
    async deniedNow(holdMs: number, nowMs = Date.now()): Promise<Array<[string, number]>> {
      await cache.zremRangeByScore(KEY.denied, 0, nowMs)
      if (cache.redis) {
        const flat = await cache.redis.zrangebyscore(cache.prefix + KEY.denied, nowMs + 1, FAR_FUTURE, 'WITHSCORES')
        const out: Array<[string, number]> = []
        for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i]!, Number(flat[i + 1])])
        return out
      }
      const jtis = await cache.zrangeByScore(KEY.denied, nowMs + 1, FAR_FUTURE)
      return jtis.map((j) => [j, nowMs + holdMs] as [string, number])
    },
    deniedLoaded: async () => (await cache.get(KEY.deniedLoaded)) !== null,
    markDeniedLoaded: (ttl: number) => cache.set(KEY.deniedLoaded, new Date().toISOString(), ttl),
  }
}
export type SharedStore = ReturnType<typeof createSharedStore>
