import { AsyncLocalStorage } from 'node:async_hooks'
import type { Logger, Scope } from '@switchboard/platform'

/** A pass over one scope's waiting queue; `signal` stops it between records once the app closes. */
export type QueuePass = (scope: Scope, signal: AbortSignal) => Promise<unknown>

/** What a kick waits for before its pass (a commit it cannot see yet); false gives the kick up. */
export type KickCondition = (signal: AbortSignal) => Promise<boolean>

/**
 * Queue passes started by changes (a session waits, an agent frees a seat or comes online), besides the timer's:
 * one app's, made with its context and closed by its descriptor's `shutdown`.
 */
export interface QueueKicks {
  /** a pass for `scope` soon, in the background; after `when` answers true if given. Never throws. */
  kick(scope: Scope, when?: KickCondition): void
  /** resolves when no kicked pass is running or waiting to (tests) */
  settled(): Promise<void>
  /** takes no more kicks, stops running passes between records, and waits for them */
  close(): Promise<void>
}

const keyOf = (scope: Scope) => `${scope.tenant_id}\u0000${scope.workspace_id}`

/**
 * Per scope at most one kicked pass runs at a time: a kick while one runs asks for one more run after it, so a
 * burst of changes costs at most two passes. Passes run outside the context of the request that kicked them
 * (its AsyncLocalStorage would follow them: their queries counted as the route's, their lifetime its own), and
 * the app's close stops and awaits them before the database goes.
 */
export function createQueueKicks(pass: QueuePass, log: Pick<Logger, 'warn'>): QueueKicks {
  // Taken when the app is built, outside any request: every kicked pass runs in this empty context.
  const outside = AsyncLocalStorage.snapshot()
  const running = new Map<string, Promise<void>>()
  const again = new Set<string>()
  const pending = new Set<Promise<void>>()
  const stop = new AbortController()
  const failed = (scope: Scope) => (err: unknown) =>
    log.warn({ err, ...scope }, 'queue pass after a change failed; the timer pass retries')

  function start(scope: Scope): void {
    const key = keyOf(scope)
    if (running.has(key)) {
      again.add(key)
      return
    }
    const loop = async () => {
      try {
        // the kicking request finishes its own work first
        await new Promise((resolve) => setImmediate(resolve))
        do {
          again.delete(key)
          await pass(scope, stop.signal).catch(failed(scope))
        } while (again.has(key) && !stop.signal.aborted)
      } finally {
        // In the same tick as the last look at `again`: a kick from here on starts a new loop instead of
        // asking this one, which has already decided to stop, for one more run.
        running.delete(key)
      }
    }
    running.set(key, outside(loop))
  }

  function kick(scope: Scope, when?: KickCondition): void {
    if (stop.signal.aborted || !scope.tenant_id || !scope.workspace_id) return
    if (!when) {
      start(scope)
      return
    }
    const wait: Promise<void> = outside(() => when(stop.signal))
      .then((ok) => {
        if (ok) kick(scope)
      })
      .catch(failed(scope))
      .finally(() => pending.delete(wait))
    pending.add(wait)
  }

  async function settled(): Promise<void> {
    while (running.size > 0 || pending.size > 0) await Promise.all([...running.values(), ...pending])
  }

  return {
    kick,
    settled,
    async close() {
      stop.abort()
      await settled()
    },
  }
}
