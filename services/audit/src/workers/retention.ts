import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import { deleteBatchBefore } from '../db/audit-logs.repository.ts'
import type { AuditDatabase } from '../db/database.ts'
import { retentionCutoff } from '../domain/retention.ts'

export interface RetentionOptions {
  db: Kysely<AuditDatabase>
  logger: Logger
  retentionDays: number
  batchSize: number
  intervalMs: number
}

export interface RetentionWorker {
  /** deletes everything past retention at `now`, batch by batch; resolves with the number deleted */
  runOnce(now?: Date): Promise<number>
  /** runs now and then every interval */
  start(): void
  /** stops the timer and waits for a run in progress */
  stop(): Promise<void>
}

/**
 * The audit cleanup (spec, Events 4). Several replicas may run it at once: each batch deletes what is still
 * there, so they only share the work.
 */
export function createRetentionWorker(opts: RetentionOptions): RetentionWorker {
  const log = opts.logger.child({ component: 'audit-retention' })
  let timer: NodeJS.Timeout | undefined
  let running: Promise<number> | undefined
  let stopped = false

  const runOnce = async (now = new Date()): Promise<number> => {
    const cutoff = retentionCutoff(now, opts.retentionDays)
    let total = 0
    for (;;) {
      const deleted = await deleteBatchBefore(opts.db, cutoff, opts.batchSize)
      total += deleted
      if (deleted < opts.batchSize || stopped) break
    }
    if (total > 0) log.info({ deleted: total, cutoff }, 'audit records past retention deleted')
    return total
  }

  const tick = () => {
    if (running || stopped) return
    running = runOnce()
      .catch((err: unknown) => {
        log.error({ err }, 'audit retention run failed')
        return 0
      })
      .finally(() => {
        running = undefined
      })
  }

  return {
    runOnce,
    start() {
      if (timer || stopped) return
      tick()
      timer = setInterval(tick, opts.intervalMs)
      timer.unref()
    },
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
