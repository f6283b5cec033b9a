import type { AnyApp } from '../http/app.ts'
import type { Logger } from '../logger.ts'

/** One part of a unit's start that needs its dependencies (the relay, the consumers, a subscription). */
export interface StartStep {
  name: string
  /**
   * Does its part; may be called again after it failed, so it resumes rather than repeats (a consumer already
   * attached stays attached, is not attached twice). `signal` aborts when the unit closes.
   */
  run(signal: AbortSignal): Promise<void> | void
}

export interface StartupState {
  /** `starting` until every step succeeded, then `started`; `stopped` once the unit began closing first */
  status: 'starting' | 'started' | 'stopped'
  /** the steps not done yet, the one in progress first */
  pending: string[]
  /** failed attempts so far (each is retried) */
  failures: number
  /** the last failure's message, while starting */
  error?: string
}

/** What `/ready` reads: set once the unit's start exists (`state`), read on every probe. */
export interface StartupSource {
  state?: () => StartupState
}

export interface Startup {
  /** starts the steps in the background (once), returns at once */
  begin(): void
  state(): StartupState
  /** resolves when every step succeeded; rejects when the unit closed first */
  started(): Promise<void>
  /** stops retrying, aborts the step in progress and waits a little for it (never for long) */
  stop(): Promise<void>
}

export interface StartupOptions {
  logger: Logger
  /** delays between attempts of a failing step; the last one repeats (default 0.5 s, 1 s, 2 s, 5 s) */
  retryDelaysMs?: readonly number[]
  /** how long `stop` waits for the step in progress (default 2 s); whatever it attaches later is stopped by its owner */
  stopWaitMs?: number
}

/**
 * A unit's start, off the path of Fastify's ready: a unit is *live* (`/health`, it listens) at once and *ready*
 * (`/ready`) when every step is done — the outbox relay, the consumers, the workers, its own startup. Fastify bounds
 * `onReady` hooks by its plugin timeout (10 s), so a start that waited there failed the whole unit on a busy machine;
 * here a slow step only delays readiness, and a failing one is retried (logged at warn, shown on `/ready`) until it
 * succeeds or the unit closes.
 */
export function createStartup(steps: readonly StartStep[], opts: StartupOptions): Startup {
  const delays = opts.retryDelaysMs?.length ? opts.retryDelaysMs : [500, 1000, 2000, 5000]
  const abort = new AbortController()
  let next = 0
  let failures = 0
  let error: string | undefined
  let status: StartupState['status'] = 'starting'
  let running: Promise<void> | undefined
  let settle: { resolve(): void; reject(err: Error): void } | undefined
  const done = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject }
  })
  done.catch(() => {}) // nobody may be waiting; started() hands out its own chain

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms)
      abort.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer)
          resolve()
        },
        { once: true },
      )
    })

  async function run() {
    const begun = Date.now()
    while (next < steps.length && !abort.signal.aborted) {
      const step = steps[next]!
      try {
        await step.run(abort.signal)
        if (abort.signal.aborted) return
        next++
      } catch (err) {
        if (abort.signal.aborted) return
        failures++
        error = err instanceof Error ? err.message : String(err)
        const delay = delays[Math.min(failures - 1, delays.length - 1)]!
        opts.logger.warn({ err, step: step.name, failures, retry_in_ms: delay }, 'start step failed; retrying')
        await pause(delay)
      }
    }
    if (abort.signal.aborted) return
    status = 'started'
    error = undefined
    opts.logger.info({ steps: steps.map((s) => s.name), ms: Date.now() - begun, failures }, 'started: ready')
    settle?.resolve()
  }

  return {
    begin() {
      running ??= run()
    },
    state: () => ({
      status,
      pending: steps.slice(next).map((s) => s.name),
      failures,
      ...(error ? { error } : {}),
    }),
    started: () => done.then(() => {}),
    async stop() {
      if (status === 'starting') status = 'stopped'
      abort.abort()
      settle?.reject(new Error('the unit closed before it started'))
      if (running) await Promise.race([running, new Promise((r) => setTimeout(r, opts.stopWaitMs ?? 2000).unref())])
    },
  }
}

/**
 * A unit's start on its app: begun when the app is ready (not awaited there), stopped first when it closes;
 * `app.whenStarted()` for tests and runners that need the consumers attached before they go on.
 */
export function installStartup(app: AnyApp, steps: readonly StartStep[], opts: StartupOptions): Startup {
  const startup = createStartup(steps, opts)
  app.decorate('whenStarted', () => startup.started())
  app.addHook('onReady', async () => startup.begin())
  app.addHook('preClose', () => startup.stop())
  return startup
}

declare module 'fastify' {
  interface FastifyInstance {
    /** resolves once the unit's background start is done (`/ready` would say so); rejects if it closed first */
    whenStarted(): Promise<void>
  }
}
