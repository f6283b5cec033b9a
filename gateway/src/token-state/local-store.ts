import type { SessionTokenState, UserTokenState } from '@switchboard/contracts'
import { LRUCache } from 'lru-cache'
import { sessionIsNewer, userIsNewer } from './merge.ts'

/** `state: null` = identity said "no such user/session", believed for a short negative TTL only. */
interface Slot<T> {
  state: T | null
}

export interface LocalStoreOptions {
  max: number
  ttlMs: number
  negativeTtlMs: number
}

/**
 * The per-replica first level: users by user_id, sessions by session_id, denied jtis with their expiry.
 * Entries expire after `ttlMs` so a replica that missed an event re-reads the shared level.
 */
export function createLocalStore(opts: LocalStoreOptions) {
  const users = new LRUCache<string, Slot<UserTokenState>>({ max: opts.max, ttl: opts.ttlMs })
  const sessions = new LRUCache<string, Slot<SessionTokenState>>({ max: opts.max, ttl: opts.ttlMs })
  // Not an LRU: evicting a denial would quietly re-admit a revoked token. Bounded by expiry instead.
  const denied = new Map<string, number>()
  const ttlFor = (state: unknown) => (state === null ? opts.negativeTtlMs : opts.ttlMs)

  return {
    getUser: (id: string) => users.get(id),
    getSession: (id: string) => sessions.get(id),
    /** returns true when the snapshot was applied (newer than what we had) */
    putUser(id: string, state: UserTokenState | null): boolean {
      const cur = users.get(id)?.state
      if (state !== null && cur && !userIsNewer(state, cur)) return false
      users.set(id, { state }, { ttl: ttlFor(state) })
      return true
    },
    putSession(id: string, state: SessionTokenState | null): boolean {
      const cur = sessions.get(id)?.state
      if (state !== null && cur && !sessionIsNewer(state, cur)) return false
      sessions.set(id, { state }, { ttl: ttlFor(state) })
      return true
    },
    deny(jti: string, expiresAtMs: number) {
      if (expiresAtMs > Date.now()) denied.set(jti, Math.max(expiresAtMs, denied.get(jti) ?? 0))
    },
    isDenied(jti: string, nowMs = Date.now()): boolean {
      const exp = denied.get(jti)
      return exp !== undefined && exp > nowMs
    },
    pruneDenied(nowMs = Date.now()) {
      for (const [jti, exp] of denied) if (exp <= nowMs) denied.delete(jti)
    },
    get deniedCount() {
      return denied.size
    },
  }
}
export type LocalStore = ReturnType<typeof createLocalStore>
