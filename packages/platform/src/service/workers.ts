import { randomUUID } from 'node:crypto'
import { Counter, Histogram, type Registry } from 'prom-client'
import type { Cache } from '../cache.ts'
import type { Logger } from '../logger.ts'

/**
 * Periodic background work, declared in a service's descriptor. Every worker has the same life: it starts when
 * the app is ready, never overlaps itself, waits a jittered interval between runs (replicas started together
 * drift apart), is awaited on close, and counts its runs, failures and durations.
 */
export interface WorkerDef<S> {
  name: string
  /** milliseconds between runs (jittered by ±10 %) */
  every(svc: S): number
  /** off when this answers false (e.g. a setting) */
  enabled?(svc: S): boolean
  /**
   * `every-replica`: the work is idempotent and replicas may share it (batched deletes). `one-replica`: one
   * replica at a time, by a lease in the shared cache that its holder renews on every run; another replica takes
   * over within two intervals of the holder stopping.
   */
  runs: 'every-replica' | 'one-replica'
  /** run once at start instead of after the first interval */
  immediately?: boolean
  /** one run; resolves with how many items it handled (logged when > 0) */
  run(svc: S, ctx: { now: Date; signal: AbortSignal }): Promise<number | undefined>
}

export interface Workers {
  start(): void
  /** stops the timers, aborts runs in progress and waits for them */
  stop(): Promise<void>
  /** one run of a worker now, outside its schedule and lease (tests, operators) */
  runOnce(name: string, now?: Date): Promise<number | undefined>
}

export interface WorkerDeps<S> {
  svc: S
  service: string
  cache: Cache
  logger: Logger
  registry: Registry
}

export function createWorkers<S>(defs: readonly WorkerDef<S>[], deps: WorkerDeps<S>): Workers {
  const runs = new Counter({
    name: 'worker_runs_total',
    help: 'Background worker runs by outcome (ok, failed, skipped: another replica held the lease)',
    labelNames: ['worker', 'outcome'] as const,
    registers: [deps.registry],
  })
  const duration = new Histogram({
    name: 'worker_run_duration_seconds',
    help: 'Background worker run duration',
    labelNames: ['worker'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60],
    registers: [deps.registry],
  })
  const owner = `${deps.service}:${randomUUID()}`
  const abort = new AbortController()
  const timers = new Map<string, NodeJS.Timeout>()
  const running = new Set<Promise<unknown>>()
  let stopped = false

  const byName = new Map(defs.map((d) => [d.name, d]))
  const leaseKey = (def: WorkerDef<S>) => `worker:${deps.service}:${def.name}`
  const jittered = (ms: number) => Math.max(1, Math.round(ms * (0.9 + Math.random() * 0.2)))

  async function execute(def: WorkerDef<S>, now: Date): Promise<number | undefined> {
    const end = duration.startTimer({ worker: def.name })
    try {
      const n = await def.run(deps.svc, { now, signal: abort.signal })
      runs.inc({ worker: def.name, outcome: 'ok' })
      if (n) deps.logger.info({ worker: def.name, handled: n }, 'worker run')
      return n
    } catch (err) {
      runs.inc({ worker: def.name, outcome: 'failed' })
      throw err
    } finally {
      end()
    }
  }

  async function tick(def: WorkerDef<S>) {
    const interval = def.every(deps.svc)
    try {
      // Held for two intervals and renewed by every run of its holder (jitter keeps a run within 1.1 interval of
      // the last), so one replica keeps it; when that replica stops, another takes over within two intervals.
      const leased = def.runs === 'every-replica' || (await deps.cache.lease(leaseKey(def), owner, 2 * interval))
      if (!leased) {
        runs.inc({ worker: def.name, outcome: 'skipped' })
        return
      }
      await execute(def, new Date())
    } catch (err) {
      deps.logger.error({ err, worker: def.name }, 'worker run failed')
    }
  }

  function schedule(def: WorkerDef<S>, delay: number) {
    if (stopped) return
    const timer = setTimeout(() => {
      const run = tick(def).finally(() => {
        running.delete(run)
        schedule(def, jittered(def.every(deps.svc)))
      })
      running.add(run)
    }, delay)
    timer.unref()
    timers.set(def.name, timer)
  }

  return {
    start() {
      for (const def of defs) {
        if (def.enabled && !def.enabled(deps.svc)) continue
        schedule(def, def.immediately ? 0 : jittered(def.every(deps.svc)))
      }
    },
    async stop() {
      stopped = true
      for (const timer of timers.values()) clearTimeout(timer)
      abort.abort()
      await Promise.allSettled([...running])
    },
    runOnce(name, now = new Date()) {
      const def = byName.get(name)
      if (!def) return Promise.reject(new Error(`no worker named ${name}`))
      return execute(def, now)
    },
  }
}
