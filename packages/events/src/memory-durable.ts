import type { Logger } from 'pino'
import type { StoredMessage } from './memory-store.ts'
import type { EventBusMetrics } from './metrics.ts'
import type { ConsumerOptions, Delivery, Handler, Subscription } from './port.ts'
import { backoffDelay, DEFAULTS, type DeadLetterOrigin, isPoison } from './shared.ts'

export interface DurableDeps {
  logger: Logger
  metrics: EventBusMetrics | undefined
  bySeq(stream: string, seq: number): StoredMessage | undefined
  nextAfter(stream: string, seq: number, filters: readonly string[]): StoredMessage | undefined
  lastSeq(stream: string): number
  toDelivery(message: StoredMessage, deliveryCount: number): Delivery
  deadLetter(message: StoredMessage, origin: DeadLetterOrigin): void
}

interface Worker {
  handler: Handler
  busy: boolean
  inflight: Promise<void> | undefined
}

/**
 * One durable consumer of an in-memory stream: a cursor over the stream, delivery counts of
 * unacknowledged messages, and a queue of messages due for redelivery. Every consume() call adds a
 * worker; a message goes to one idle worker at a time (queue semantics, like a shared durable).
 * There is no ack timeout: in one process the bus knows when a handler is still running.
 * `floor()` is the lowest sequence it still needs, which the store's limits never drop (a stopped durable keeps
 * its floor until it resumes).
 */
export function createDurable(deps: DurableDeps, stream: string, name: string) {
  let maxDeliver: number = DEFAULTS.maxDeliver
  let backoffMs: readonly number[] = DEFAULTS.backoffMs
  let filters: readonly string[] = []
  let cursor = 0
  const deliveries = new Map<number, number>()
  const ready: number[] = []
  const timers = new Set<NodeJS.Timeout>()
  const workers: Worker[] = []
  let next = 0
  let scheduled = false
  let closed = false
  const log = deps.logger.child({ consumer: name, stream })

  const schedule = () => {
    if (scheduled || closed) return
    scheduled = true
    // Handlers never run inside the publisher's call stack.
    queueMicrotask(() => {
      scheduled = false
      pump()
    })
  }

  const idleWorker = (): Worker | undefined => {
    for (let i = 0; i < workers.length; i++) {
      const w = workers[(next + i) % workers.length]!
      if (!w.busy) {
        next = (next + i + 1) % workers.length
        return w
      }
    }
    return undefined
  }

  const takeMessage = (): StoredMessage | undefined => {
    while (ready.length > 0) {
      const seq = ready.shift()!
      const m = deps.bySeq(stream, seq)
      if (m) return m
      deliveries.delete(seq) // expired or deleted meanwhile
    }
    const m = deps.nextAfter(stream, cursor, filters)
    // none matches up to the end: the cursor passes them, so that a filter nothing matches holds no message back
    cursor = m ? m.seq : Math.max(cursor, deps.lastSeq(stream))
    return m
  }

  const redeliverLater = (seq: number, delayMs: number) => {
    if (closed) return
    const timer = setTimeout(() => {
      timers.delete(timer)
      ready.push(seq)
      schedule()
    }, delayMs)
    timer.unref()
    timers.add(timer)
  }

  const run = (worker: Worker, m: StoredMessage) => {
    worker.busy = true
    const count = (deliveries.get(m.seq) ?? 0) + 1
    deliveries.set(m.seq, count)
    worker.inflight = (async () => {
      try {
        await worker.handler(deps.toDelivery(m, count))
        deliveries.delete(m.seq)
      } catch (err) {
        deps.metrics?.failed.inc({ consumer: name })
        const poison = isPoison(err)
        if (poison) deps.metrics?.poison.inc({ consumer: name })
        if (count >= maxDeliver || poison) {
          try {
            deps.deadLetter(m, {
              subject: m.subject,
              stream,
              seq: m.seq,
              consumer: name,
              deliveries: count,
              error: err,
            })
            deliveries.delete(m.seq)
          } catch (dlqErr) {
            // Keep the message; its next delivery tries the dead-letter stream again.
            log.error({ err: dlqErr, seq: m.seq }, 'dead-letter publish failed')
            redeliverLater(m.seq, backoffDelay(backoffMs, count))
          }
        } else {
          log.warn({ err, seq: m.seq, deliveries: count }, 'event handler failed; redelivering later')
          redeliverLater(m.seq, backoffDelay(backoffMs, count))
        }
      } finally {
        worker.busy = false
        worker.inflight = undefined
        schedule()
      }
    })()
  }

  const pump = () => {
    while (!closed) {
      const worker = idleWorker()
      if (!worker) return
      const m = takeMessage()
      if (!m) return
      run(worker, m)
    }
  }

  return {
    /** Later consume() calls may change the options, as a durable's config is updated on the server. */
    configure(opts: ConsumerOptions) {
      maxDeliver = opts.maxDeliver ?? DEFAULTS.maxDeliver
      backoffMs = opts.backoffMs ?? DEFAULTS.backoffMs
      filters = opts.filterSubjects ?? []
    },

    addWorker(handler: Handler): Subscription {
      const worker: Worker = { handler, busy: false, inflight: undefined }
      workers.push(worker)
      schedule()
      return {
        async stop() {
          const i = workers.indexOf(worker)
          if (i !== -1) workers.splice(i, 1)
          await worker.inflight
        },
      }
    },

    /** The lowest sequence not acknowledged yet: the oldest in flight or waiting for redelivery, else the next one. */
    floor(): number {
      let low = cursor + 1
      for (const seq of deliveries.keys()) if (seq < low) low = seq
      return low
    },

    /** A message was stored on this durable's stream. */
    notify: schedule,

    async close() {
      closed = true
      for (const t of timers) clearTimeout(t)
      timers.clear()
      await Promise.allSettled(workers.map((w) => w.inflight))
      workers.length = 0
    },
  }
}

export type Durable = ReturnType<typeof createDurable>
