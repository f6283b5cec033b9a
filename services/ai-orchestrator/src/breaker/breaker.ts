import type { Cache } from '@switchboard/platform'
import type { BreakerSettings } from '../config.ts'
import { memoryStore } from './memory-store.ts'
import type { Breaker, BreakerSnapshot, Permit } from './port.ts'
import { type BreakerStore, redisStore } from './redis-store.ts'

// Written here rather than taken from a resilience library: the state must live in Redis, shared by every replica,
// with each transition one atomic script; the libraries keep it in process.

/** What a call gets when the breaker is off or its store does not answer: through, not a trial. */
const THROUGH: Permit = Object.freeze({ allowed: true, trial: false, state: 'closed' })

/**
 * The circuit breaker `name` (port.ts): its state is the hash `${cache.prefix}ai:breaker:${name}` when Redis backs
 * the cache, shared by every replica; in this process's memory otherwise. A store that fails (Redis down or slow)
 * never fails the call it guards: the call goes through and the error goes to `onError`. Disabled
 * (`settings.enabled` false), it lets everything through and never opens. `now` is injectable for tests.
 */
export function createBreaker(
  cache: Cache,
  name: string,
  settings: BreakerSettings,
  now: () => number = Date.now,
  onError: (err: unknown) => void = () => {},
): Breaker {
  const key = `${cache.prefix}ai:breaker:${name}`
  const store: BreakerStore =
    cache.kind === 'redis' && cache.redis ? redisStore(cache.redis, key, settings) : memoryStore(cache, key, settings)
  const enabled = settings.enabled

  async function failOpen<T>(step: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await step()
    } catch (err) {
      onError(err)
      return fallback
    }
  }

  const snapshotOf = (error?: string): BreakerSnapshot => ({
    name,
    state: 'closed',
    failure_count: 0,
    opened_at: null,
    half_open_requests: 0,
    ...(error ? { error } : {}),
  })

  return {
    name,
    acquire: () => (enabled ? failOpen(() => store.acquire(now()), THROUGH) : Promise.resolve(THROUGH)),
    async success(permit) {
      if (enabled && permit.allowed) await failOpen(() => store.success(permit.trial), undefined)
    },
    async failure(permit) {
      if (enabled && permit.allowed) await failOpen(() => store.failure(permit.trial, now()), undefined)
    },
    async snapshot() {
      if (!enabled) return snapshotOf()
      try {
        const s = await store.read()
        return {
          name,
          state: s.state,
          failure_count: s.failures,
          opened_at: s.state === 'closed' ? null : s.opened_at,
          half_open_requests: s.trials,
        }
      } catch (err) {
        onError(err)
        return snapshotOf(`breaker state unreadable: ${(err as Error).message}`)
      }
    },
    // An operator's explicit reset that did not happen must say so: this one throws when the store fails.
    reset: () => store.reset(),
  }
}
