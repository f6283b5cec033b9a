import type { Logger } from '@switchboard/platform'
import { waitForOk } from './ports.ts'

/** A unit a runner started: where it answers, and why it failed if it did (it exited, say). */
export interface StartedUnit {
  name: string
  url: string
  failed?(): string | undefined
  /**
   * Whether the unit said it listens (a spawned child, over its IPC channel). Given, nothing is asked of `url` before
   * it is true: a port picked as free can be taken by another process meanwhile, whose answers would pass for the
   * unit's (a gateway of another fleet answering 200, then logins with this fleet's passwords refused).
   */
  listening?(): boolean
}

export interface AwaitUnitsOptions {
  logger: Logger
  /** a unit that does not answer `/health` by then has failed (default 60 s) */
  liveTimeoutMs?: number
  /** a bound on readiness, past which the unit has failed; none by default (readiness, not a deadline) */
  readyTimeoutMs?: number
  /** how often a unit still not ready is reported, with what its `/ready` says (default 15 s) */
  reportEveryMs?: number
}

/**
 * Waits until every unit is *live* (`/health`: it listens, at once) and then *ready* (`/ready`: its consumers
 * attached, its dependencies answering). A unit that is slow to be ready is waited for and reported, never failed:
 * readiness, not a start-up deadline, says when it takes traffic (docs/architecture.md §3). A unit that really failed
 * — exited, or never came alive — rejects at once, naming it.
 */
export async function awaitUnits(units: readonly StartedUnit[], opts: AwaitUnitsOptions): Promise<void> {
  await Promise.all(units.map((u) => awaitUnit(u, opts)))
}

async function awaitListening(unit: StartedUnit, timeoutMs: number): Promise<void> {
  if (!unit.listening) return
  const deadline = Date.now() + timeoutMs
  while (!unit.listening()) {
    const reason = unit.failed?.()
    if (reason) throw new Error(`${unit.name} ${reason}`)
    if (Date.now() > deadline) throw new Error(`${unit.name} did not listen within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function awaitUnit(unit: StartedUnit, opts: AwaitUnitsOptions): Promise<void> {
  const failed = () => unit.failed?.()
  await awaitListening(unit, opts.liveTimeoutMs ?? 60_000)
  await waitForOk(`${unit.url}/health`, opts.liveTimeoutMs ?? 60_000, failed).catch((err: Error) => {
    const reason = failed()
    throw new Error(reason ? `${unit.name} ${reason}` : `${unit.name} did not come alive: ${err.message}`)
  })
  const began = Date.now()
  const reportEvery = opts.reportEveryMs ?? 15_000
  let reportAt = began + reportEvery
  let last = 'no answer'
  for (;;) {
    const reason = failed()
    if (reason) throw new Error(`${unit.name} ${reason}`)
    try {
      const res = await fetch(`${unit.url}/ready`, { signal: AbortSignal.timeout(2000) })
      if (res.status === 200) return
      last = `HTTP ${res.status} ${(await res.text()).slice(0, 300)}`
    } catch (err) {
      last = (err as Error).message
    }
    const waited = Date.now() - began
    if (opts.readyTimeoutMs !== undefined && waited > opts.readyTimeoutMs) {
      throw new Error(`${unit.name} not ready after ${opts.readyTimeoutMs} ms (${last})`)
    }
    if (Date.now() >= reportAt) {
      opts.logger.warn(
        { unit: unit.name, waited_ms: waited, ready: last },
        `${unit.name} is live but not ready yet; still waiting (a slow unit does not stop the others)`,
      )
      reportAt += reportEvery
    }
    await new Promise((r) => setTimeout(r, 200))
  }
}
