import type { Envelope } from '@switchboard/contracts'
import { appendOutboxMany, untraced, withTraceHeaders } from '@switchboard/events'
import type { Kysely } from 'kysely'
import type { Logger } from '../logger.ts'

/** Events waiting for their one insert, at most this many per statement. */
const MAX_BATCH = 500

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
) {
  let pending: Array<{
    subject: string
    envelope: Envelope
    headers: Record<string, string> | undefined
    done: (err?: unknown) => void
  }> = []
  let scheduled = false
  let inFlight: Promise<void> = Promise.resolve()

  async function flush() {
    scheduled = false
    while (pending.length > 0) {
      const batch = pending.slice(0, MAX_BATCH)
      pending = pending.slice(batch.length)
      try {
        await appendOutboxMany(db, batch)
        for (const item of batch) item.done()
        onWritten()
      } catch (err) {
        logger.error({ err, records: batch.length }, 'events could not be queued')
        for (const item of batch) item.done(err)
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
      await inFlight
      await flush()
    },
  }
}
