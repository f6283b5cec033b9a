import type { Envelope } from '@switchboard/contracts'
import type { Logger } from 'pino'
import { createDurable, type Durable } from './memory-durable.ts'
import { createMemoryStore, type MemoryRetention, type StoredMessage } from './memory-store.ts'
import { type EventBusMetrics, subjectRoot } from './metrics.ts'
import type { Delivery, EventBus, Handler, Subscription } from './port.ts'
import {
  carriedHeaders,
  DEFAULTS,
  DLQ_STREAM,
  deadLetterHeaders,
  deadLetterMsgId,
  deadLetterSubject,
  parseDeadLetter,
  replayMsgId,
  selectDeadLetters,
  subjectMatches,
} from './shared.ts'
import { maybeTraced } from './tracing.ts'

export { DEFAULT_MEMORY_MAX_MESSAGES, type MemoryRetention } from './memory-store.ts'

export interface MemoryBusOptions {
  logger: Logger
  metrics?: EventBusMetrics
  /** dedup window by message id (default 2 minutes) */
  duplicateWindowMs?: number
  /**
   * what the streams keep of the messages every durable consumer of theirs acknowledged (README "Retention"):
   * by default the newest 10,000 per stream, and every dead letter until it is removed or replayed
   */
  retention?: MemoryRetention
  /** the clock the stored messages' times and the limits read (tests) */
  now?: () => number
}

/** The views of each in-process bus this module made, by the bus handed out: `busWithMetrics` looks them up. */
const views = new WeakMap<EventBus, (metrics: EventBusMetrics) => EventBus>()

/**
 * `bus` counting into `metrics`, when it is an in-process bus made by `createMemoryBus` (itself, not a wrapper of
 * it): the same streams, durables and subscribers, but what is published through the view counts on `metrics`, and
 * so do the failures and dead letters of the durables first consumed through it. In one process (the embedded mode)
 * every unit shares one bus and takes a view with its own registry, so that, as in the fleet where each process has
 * its own bus, a publish counts on the unit that published and a durable's failures on the unit that consumes it,
 * once. Any other bus (JetStream, which counts by itself; a test's wrapper) is handed back as it is.
 */
export function busWithMetrics(bus: EventBus, metrics: EventBusMetrics): EventBus {
  return views.get(bus)?.(metrics) ?? bus
}

interface Subscriber {
  filter: string
  handler: Handler
  /** deliveries to one subscriber stay in order */
  chain: Promise<void>
}

/**
 * The EventBus in one process (the embedded mode): same contract as JetStream — at-least-once,
 * delayed redelivery, max deliveries to the dead-letter stream, dedup by id, replay — with the
 * streams held in memory, so they do not survive a restart. What every durable acknowledged is kept within
 * `retention`; what one of them still needs is kept whatever the limits.
 */
export function createMemoryBus(opts: MemoryBusOptions): EventBus {
  const { logger } = opts
  // a durable counts into the metrics of the view that first consumed it: in one process, one unit owns a durable
  const durables = new Map<string, { stream: string; durable: Durable }>()
  const ackFloor = (stream: string) => {
    let low = Number.POSITIVE_INFINITY
    for (const d of durables.values()) if (d.stream === stream) low = Math.min(low, d.durable.floor())
    return low
  }
  const store = createMemoryStore({
    duplicateWindowMs: opts.duplicateWindowMs ?? DEFAULTS.duplicateWindowMs,
    now: opts.now,
    retention: opts.retention,
    ackFloor,
  })
  store.ensure(DLQ_STREAM)
  const subscribers = new Set<Subscriber>()
  let closed = false

  const toDelivery = (m: StoredMessage, deliveryCount: number): Delivery => ({
    subject: m.subject,
    envelope: JSON.parse(m.data) as Envelope,
    seq: m.seq,
    deliveryCount,
    headers: { ...m.headers },
  })

  const append = (subject: string, data: string, msgId: string, headers: Record<string, string>) => {
    if (closed) throw new Error('event bus is closed')
    const result = store.append(subject, data, msgId, headers)
    if (result.duplicate) return result
    for (const { stream, durable } of durables.values()) if (stream === result.stream) durable.notify()
    for (const sub of subscribers) {
      if (!subjectMatches(sub.filter, subject)) continue
      const delivery = toDelivery(result.message, 1)
      sub.chain = sub.chain
        .then(() => sub.handler(delivery))
        .catch((err: unknown) => logger.warn({ err, subject, seq: delivery.seq }, 'subscriber failed'))
    }
    return result
  }

  const deadLetterInto =
    (metrics: EventBusMetrics | undefined): Parameters<typeof createDurable>[0]['deadLetter'] =>
    (m, origin) => {
      const headers = { ...carriedHeaders(m.headers), ...deadLetterHeaders(origin) }
      append(deadLetterSubject(origin), m.data, deadLetterMsgId(origin), headers)
      metrics?.deadLetters.inc({ consumer: origin.consumer })
      logger.warn({ consumer: origin.consumer, seq: m.seq, subject: m.subject }, 'event dead-lettered')
    }

  const listDeadLetters = () =>
    store.read(DLQ_STREAM.name, {}).map((m) => parseDeadLetter(m.seq, m.headers, JSON.parse(m.data) as Envelope))

  // one view per metrics set; every view shares the state above
  const view = (metrics: EventBusMetrics | undefined): EventBus => {
    const bus: EventBus = {
      kind: 'memory',

      async ensureStreams(streams) {
        for (const def of streams) store.ensure(def)
      },

      async publish(subject, envelope, publishOpts = {}) {
        const result = append(
          subject,
          JSON.stringify(envelope),
          publishOpts.msgId ?? envelope.id,
          publishOpts.headers ?? {},
        )
        if (!result.duplicate) metrics?.published.inc({ subject_root: subjectRoot(subject) })
        return { seq: result.seq, duplicate: result.duplicate }
      },

      async consume(consumerOpts, handler) {
        if (closed) throw new Error('event bus is closed')
        if (!store.has(consumerOpts.stream)) throw new Error(`stream not found: ${consumerOpts.stream}`)
        const key = `${consumerOpts.stream}/${consumerOpts.durable}`
        let entry = durables.get(key)
        if (!entry) {
          const { bySeq, nextAfter, lastSeq } = store
          const deadLetter = deadLetterInto(metrics)
          const deps = { logger, metrics, toDelivery, deadLetter, bySeq, nextAfter, lastSeq }
          entry = {
            stream: consumerOpts.stream,
            durable: createDurable(deps, consumerOpts.stream, consumerOpts.durable),
          }
          durables.set(key, entry)
        }
        entry.durable.configure(consumerOpts)
        // `inFlight` workers under one subscription: the durable hands them messages in stream order
        const workers = Array.from({ length: Math.max(1, consumerOpts.inFlight ?? 1) }, () =>
          entry.durable.addWorker(handler),
        )
        if (workers.length === 1) return workers[0]!
        return { stop: async () => void (await Promise.all(workers.map((w) => w.stop()))) }
      },

      async subscribe(filter, handler): Promise<Subscription> {
        const sub: Subscriber = { filter, handler, chain: Promise.resolve() }
        subscribers.add(sub)
        return {
          async stop() {
            subscribers.delete(sub)
            await sub.chain
          },
        }
      },

      async replay(stream, from, handler) {
        const snapshot = store.read(stream, from)
        for (const m of snapshot) await handler(toDelivery(m, 1))
        return snapshot.length
      },

      async deadLetters(filter = {}) {
        return selectDeadLetters(listDeadLetters(), filter)
      },

      async replayDeadLetters(replayOpts = {}) {
        const picked = selectDeadLetters(listDeadLetters(), replayOpts)
        let done = 0
        for (const dl of picked) {
          await bus.publish(dl.origin_subject, dl.envelope, {
            msgId: replayMsgId(dl.envelope.id, dl.seq),
            headers: dl.headers,
          })
          store.remove(DLQ_STREAM.name, dl.seq)
          done++
          replayOpts.onProgress?.(done, picked.length)
        }
        return done
      },

      async removeDeadLetters(seqs) {
        let removed = 0
        for (const seq of new Set(seqs)) if (store.remove(DLQ_STREAM.name, seq)) removed++
        return removed
      },

      async healthy() {
        return !closed
      },

      async close() {
        if (closed) return
        closed = true
        await Promise.allSettled([...durables.values()].map((d) => d.durable.close()))
        await Promise.allSettled([...subscribers].map((s) => s.chain))
        durables.clear()
        subscribers.clear()
        store.clear()
      },
    }
    return bus
  }
  const made = (metrics: EventBusMetrics | undefined): EventBus => {
    const bus = maybeTraced(view(metrics))
    views.set(bus, made)
    return bus
  }
  return made(opts.metrics)
}
