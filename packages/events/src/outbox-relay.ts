import { type Kysely, PostgresAdapter, type Selectable } from 'kysely'
import type { Logger } from 'pino'
import type { EventsTables, OutboxTable } from './migrations.ts'
import type { EventBus } from './port.ts'
import { errorText } from './shared.ts'
import { untraced } from './tracing.ts'

export interface OutboxRelayOptions {
  db: Kysely<any>
  bus: EventBus
  logger: Logger
  /** poll interval when nobody kicks, ms (default 250) */
  intervalMs?: number
  /** rows per pass (default 100) */
  batch?: number
  /**
   * 'postgres' claims rows with `FOR UPDATE SKIP LOCKED` so that several replicas can relay;
   * 'sqlite' (one process) reads without a transaction so that the single connection is not held
   * during publishes. Default: detected from the Kysely adapter (PostgresAdapter → 'postgres').
   */
  dialect?: 'postgres' | 'sqlite'
}

export interface OutboxRelay {
  /** starts polling; runs a first pass at once */
  start(): void
  /** asks for a pass as soon as possible (call after committing a transaction that appended) */
  kick(): void
  /** runs passes until the outbox is empty or a publish fails; resolves with the rows published */
  flush(): Promise<number>
  /** stops polling and waits for a pass in progress */
  stop(): Promise<void>
}

type Row = Selectable<OutboxTable>

function detectDialect(db: Kysely<any>): 'postgres' | 'sqlite' {
  const adapter = db.getExecutor().adapter
  return adapter instanceof PostgresAdapter || adapter.constructor.name === 'PostgresAdapter' ? 'postgres' : 'sqlite'
}

/** Publishes committed outbox rows in created order, with the event id as the message id. */
export function createOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const db = opts.db as Kysely<EventsTables>
  const { bus } = opts
  const intervalMs = opts.intervalMs ?? 250
  const batch = opts.batch ?? 100
  const dialect = opts.dialect ?? detectDialect(opts.db)
  const log = opts.logger.child({ component: 'outbox-relay' })
  let timer: NodeJS.Timeout | undefined
  let running: Promise<number> | undefined
  let again = false
  let started = false
  let stopped = false

  /**
   * Publishes a batch pipelined: every row is sent in order at once and the acks are awaited together, so a
   * batch costs about one round trip to the bus instead of one per row (the relay kept events seconds behind
   * under load when it waited for each ack). Published rows are deleted; a failed row keeps its error and is
   * retried. The bus stores what one connection sends in order, so order holds unless a publish fails: then a
   * later row may already be out before the failed one is retried (the event id keeps it from being stored twice).
   */
  const publishRows = async (trx: Kysely<EventsTables>, rows: Row[]) => {
    const results = await Promise.allSettled(
      rows.map((row) => {
        const headers = JSON.parse(row.headers) as Record<string, string>
        return bus.publish(row.subject, JSON.parse(row.envelope), {
          msgId: row.id,
          headers: Object.keys(headers).length > 0 ? headers : undefined,
        })
      }),
    )
    const done: string[] = []
    let failed = false
    for (const [i, result] of results.entries()) {
      const row = rows[i]!
      if (result.status === 'fulfilled') {
        done.push(row.id)
        continue
      }
      failed = true
      log.warn(
        { err: result.reason, id: row.id, subject: row.subject, attempts: row.attempts + 1 },
        'outbox publish failed',
      )
      await trx
        .updateTable('outbox')
        .set({ attempts: row.attempts + 1, last_error: errorText(result.reason) })
        .where('id', '=', row.id)
        .execute()
    }
    if (done.length > 0) await trx.deleteFrom('outbox').where('id', 'in', done).execute()
    return { published: done.length, failed }
  }

  const selectRows = (q: Kysely<EventsTables>) =>
    q.selectFrom('outbox').selectAll().orderBy('created_at').orderBy('id').limit(batch)

  const pass = async (): Promise<{ published: number; more: boolean }> => {
    const result =
      dialect === 'postgres'
        ? await db.transaction().execute(async (trx) => {
            // Rows another replica holds are skipped, so replicas share the outbox without
            // publishing a row twice; its lock lasts until the deletes commit.
            const rows = await selectRows(trx).forUpdate().skipLocked().execute()
            return { rows: rows.length, ...(await publishRows(trx, rows)) }
          })
        : await (async () => {
            const rows = await selectRows(db).execute()
            return { rows: rows.length, ...(await publishRows(db, rows)) }
          })()
    return { published: result.published, more: !result.failed && result.rows === batch }
  }

  const drain = async (): Promise<number> => {
    let total = 0
    for (;;) {
      const { published, more } = await pass()
      total += published
      if (!more || stopped) return total
    }
  }

  const schedule = () => {
    if (!started || stopped) return
    clearTimeout(timer)
    timer = setTimeout(() => void run(), intervalMs)
    timer.unref()
  }

  // One pass at a time; a kick during a pass asks for another right after it.
  const run = (): Promise<number> => {
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      let total = 0
      do {
        again = false
        try {
          total += await drain()
        } catch (err) {
          log.error({ err }, 'outbox relay pass failed')
        }
      } while (again && !stopped)
      return total
    })().finally(() => {
      running = undefined
      schedule()
    })
    return running
  }

  return {
    start() {
      if (started || stopped) return
      started = true
      void untraced(run)
    },
    kick() {
      // a pass is background work, not part of the request that kicked it (each row carries its own trace)
      if (!stopped) void untraced(run)
    },
    flush: () => run(),
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
