import type { Envelope } from '@switchboard/contracts'
import { appendOutboxMany, untraced, withTraceHeaders } from '@switchboard/events'
import type { Kysely } from 'kysely'
import type { Logger } from '../logger.ts'

/** Events waiting for their one insert, at most this many per statement. */
const MAX_BATCH = 500
/**
 * A batch the database did not take is tried again after these pauses (ms), then given up: an accepted write's
 * audit record must not be lost to a moment without a pooled connection (seen under the chaos bench: a replica's
 * pool timed out while the machine was starved, and the 201s it had answered were never audited).
 */
export const OUTBOX_WRITE_RETRIES_MS = [100, 250, 500, 1000, 2000, 4000, 8000]
const UNIQUE_VIOLATION = '23505'

/**
 * Writes events that belong to no transaction of the service to the outbox in batches: the audit records of
 * management writes, and facts a service observed without changing its state (`svc.emitSoon`: an AI answer given).
 * The events of one turn of the event loop go in one statement (one commit instead of one per request — under load
 * that commit was a visible share of a request's cost). This adds at most one turn of the event loop before the
 * event is in the outbox. `close` writes what is left.
 */
export function createOutboxWriter(
  db: Kysely<unknown>,
  logger: Logger,
  onWritten: () => void,
  /** runs `fn` soon, outside any request's context (its queries are background work, not the request's) */
  later: (fn: () => void) => void,
  retriesMs: readonly number[] = OUTBOX_WRITE_RETRIES_MS,
) {
  let pending: Array<{
    subject: string
    envelope: Envelope
    headers: Record<string, string> | undefined
    done: (err?: unknown) => void
  }> = []
  let scheduled = false
  let inFlight: Promise<void> = Promise.resolve()
  // closing: a failing batch is not waited for any longer (the service stops; the database may be what is gone)
  let closing = false
  let wake: (() => void) | undefined

  /** Inserts the batch, again after each pause while it fails; the last error when it never went in. */
  async function append(batch: typeof pending): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      try {
        await appendOutboxMany(db, batch)
        return undefined
      } catch (err) {
        // the insert before this one committed though its answer was lost: the rows are there (their ids are keys)
        if (attempt > 0 && (err as { code?: string }).code === UNIQUE_VIOLATION) return undefined
        const pause = retriesMs[attempt]
        if (pause === undefined || closing) return err
        logger.warn({ err, records: batch.length, attempt: attempt + 1 }, 'events not queued yet; trying again')
        await new Promise<void>((r) => {
          const timer = setTimeout(r, pause)
          wake = () => {
            clearTimeout(timer)
            r()
          }
        })
        wake = undefined
      }
    }
  }

  async function flush() {
    scheduled = false
    while (pending.length > 0) {
      const batch = pending.slice(0, MAX_BATCH)
      pending = pending.slice(batch.length)
      const failure = await append(batch)
      if (failure === undefined) {
        for (const item of batch) item.done()
        onWritten()
      } else {
        logger.error({ err: failure, records: batch.length }, 'events could not be queued')
        for (const item of batch) item.done(failure)
      }
    }
  }

  return {
    /** resolves once the record is in the outbox (rejects if it could not be written) */
    write(subject: string, envelope: Envelope): Promise<void> {
      return new Promise((resolve, reject) => {
        // the writer's trace context, taken now: the batch is written later, outside it
        const headers = withTraceHeaders(undefined)
        pending.push({ subject, envelope, headers, done: (err) => (err ? reject(err) : resolve()) })
        if (scheduled) return
        scheduled = true
        later(() =>
          untraced(() => {
            inFlight = inFlight.then(flush)
          }),
        )
      })
    },
    async close() {
      closing = true
      wake?.()
      await inFlight
      await flush()
    },
  }
}
