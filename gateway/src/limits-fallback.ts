import type { Logger } from '@switchboard/platform'
import type { LimitStore, WindowHit } from './rate-limit-store.ts'

export interface FallbackOptions {
  /** replicas sharing the limits: while on its own, each takes this share of every limit */
  replicas: number
  /** how often Redis is probed while the fallback is in use */
  probeMs: number
  /** is Redis answering again */
  probe(): Promise<boolean>
  logger: Logger
  onSwitch(to: 'redis' | 'memory'): void
}

/**
 * The limits must hold while Redis is down: a limiter that fails open lets a login brute force through for as
 * long as an outage lasts. The first failed call switches this replica to an in-memory store holding
 * 1/replicas of each limit (so the fleet as a whole keeps about the configured rate); a probe brings it back to
 * Redis as soon as Redis answers. Each switch is logged and counted.
 */
export function withMemoryFallback(primary: LimitStore, fallback: LimitStore, opts: FallbackOptions) {
  let onFallback = false
  let timer: NodeJS.Timeout | undefined
  const share = (windows: readonly WindowHit[]) =>
    windows.map((w) => ({ ...w, max: Math.max(1, Math.floor(w.max / opts.replicas)) }))

  function toMemory(err: unknown) {
    if (onFallback) return
    onFallback = true
    opts.logger.error({ err }, 'rate limits: Redis unreachable, limiting in memory on this replica')
    opts.onSwitch('memory')
    const check = async () => {
      timer = undefined
      if (await opts.probe().catch(() => false)) {
        onFallback = false
        opts.logger.warn('rate limits: Redis is back, limits shared again')
        opts.onSwitch('redis')
      } else {
        timer = setTimeout(check, opts.probeMs).unref()
      }
    }
    timer = setTimeout(check, opts.probeMs).unref()
  }

  // A call that fails over uses the fallback for that very request: nothing is let through unlimited.
  async function attempt<T>(viaPrimary: () => Promise<T>, viaFallback: () => Promise<T>): Promise<T> {
    if (onFallback) return viaFallback()
    try {
      return await viaPrimary()
    } catch (err) {
      toMemory(err)
      return viaFallback()
    }
  }

  const store: LimitStore = {
    hit: (windows) =>
      attempt(
        () => primary.hit(windows),
        () => fallback.hit(share(windows)),
      ),
    peek: (key) =>
      attempt(
        () => primary.peek(key),
        () => fallback.peek(key),
      ),
    reset: (key) =>
      attempt(
        () => primary.reset(key),
        () => fallback.reset(key),
      ),
  }
  return {
    store,
    /** a limit as it applies right now on this replica: all of it on Redis, its share in memory */
    effective: (max: number) => (onFallback ? Math.max(1, Math.floor(max / opts.replicas)) : max),
    get backend(): 'redis' | 'memory' {
      return onFallback ? 'memory' : 'redis'
    },
    close() {
      if (timer) clearTimeout(timer)
    },
  }
}
