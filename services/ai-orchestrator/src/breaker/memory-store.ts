import type { Cache } from '@switchboard/platform'
import type { BreakerStore } from './redis-store.ts'
import { acquireStep, CLOSED, failureStep, type Limits, type StoredState, successStep } from './transitions.ts'

/**
 * The breakers' state when the cache is in memory (the embedded default: one process). Kept per cache object, so
 * breakers made on one cache with one name share their state, as replicas on one Redis do.
 */
const states = new WeakMap<Cache, Map<string, StoredState>>()

export function memoryStore(cache: Cache, key: string, limits: Limits): BreakerStore {
  let map = states.get(cache)
  if (!map) {
    map = new Map()
    states.set(cache, map)
  }
  const all = map
  const get = () => all.get(key) ?? CLOSED
  const put = (s: StoredState) => (s.state === 'closed' && s.failures === 0 ? all.delete(key) : all.set(key, s))
  return {
    async acquire(now) {
      const [next, permit] = acquireStep(get(), now, limits)
      put(next)
      return permit
    },
    async success(trial) {
      put(successStep(get(), trial))
    },
    async failure(trial, now) {
      put(failureStep(get(), trial, now, limits))
    },
    read: async () => get(),
    async reset() {
      all.delete(key)
    },
  }
}
