import type { JetStreamClient, JetStreamManager, JsMsg } from '@nats-io/jetstream'
import type { Logger } from 'pino'
import { decodeEnvelope, ensureDurable, type Naming, toHeaderRecord, toNatsHeaders } from './jetstream-support.ts'
import type { EventBusMetrics } from './metrics.ts'
import type { ConsumerOptions, Delivery, Handler, Subscription } from './port.ts'
import {
  backoffDelay,
  carriedHeaders,
  DEFAULTS,
  deadLetterHeaders,
  deadLetterMsgId,
  deadLetterSubject,
  isPoison,
} from './shared.ts'

export interface JetStreamContext {
  js: JetStreamClient
  jsm: JetStreamManager
  naming: Naming
  logger: Logger
  metrics: EventBusMetrics | undefined
  ensureDeadLetterStream(): Promise<void>
  /** the connection's acknowledgements, sent together (see createAckBatcher) */
  acks: AckBatcher
}

export interface AckBatcher {
  /** acknowledges `m` with the others of this turn of the event loop */
  ack(m: JsMsg): void
  /** sends the acknowledgements waiting, now */
  flush(): void
}

/** How long an acknowledgement may wait for others to share its write, ms; and how many may wait at most. */
const ACK_WINDOW_MS = 10
const ACK_WINDOW_MAX = 128

/**
 * Acknowledgements sent together: one socket write per window of ACK_WINDOW_MS (or per ACK_WINDOW_MAX acks) instead
 * of one per message. The NATS client writes what is queued in one microtask run as one frame, but each handler acks
 * from its own continuation, and under load each delivery arrives in a read of its own, so every ack was a write of
 * its own — a system call to loopback that took more of a consumer's CPU than handling the message did
 * (ai-orchestrator, which ignores most messages, spent 40 % of its busy time in those writes). A process killed
 * within the window has those messages delivered again, as if it died just before acking — which the handlers
 * already allow; the window is far below any ack wait. Closing a subscription or the bus sends what waits.
 */
export function createAckBatcher(): AckBatcher {
  let pending: JsMsg[] = []
  let timer: NodeJS.Timeout | undefined
  const flush = () => {
    clearTimeout(timer)
    timer = undefined
    const now = pending
    pending = []
    for (const m of now) m.ack()
  }
  return {
    ack(m) {
      pending.push(m)
      if (pending.length >= ACK_WINDOW_MAX) flush()
      else if (timer === undefined) {
        timer = setTimeout(flush, ACK_WINDOW_MS)
        timer.unref()
      }
    },
    flush,
  }
}

/** Messages pulled per request: small, so that replicas sharing a durable each get a share. */
const PULL_BATCH = 10
/**
 * A pull loop asks for more when this share of its messages or fewer are still to come. The client's default (75 %)
 * sent a pull request, a write of its own, for every two or three messages handled; at 25 % it asks for most of a
 * batch at once and still asks before it runs dry.
 */
const REFILL_AT = 0.25

/**
 * Starts a durable pull consumer loop. Messages are handled one at a time per call, or up to `inFlight` at once,
 * started in stream order; a process that wants more parallelism in no order calls consume() again with the same
 * durable.
 */
export async function consumeDurable(
  ctx: JetStreamContext,
  opts: ConsumerOptions,
  handler: Handler,
): Promise<Subscription> {
  const maxDeliver = opts.maxDeliver ?? DEFAULTS.maxDeliver
  const backoffMs = opts.backoffMs ?? DEFAULTS.backoffMs
  const ackWaitMs = opts.ackWaitMs ?? DEFAULTS.ackWaitMs
  const stream = ctx.naming.stream(opts.stream)
  await ctx.ensureDeadLetterStream()
  await ensureDurable(ctx.jsm, {
    stream,
    durable: opts.durable,
    filterSubjects: (opts.filterSubjects ?? []).map(ctx.naming.subject),
    ackWaitMs,
    // One spare delivery past our own limit: if a process dies during the last attempt, the server
    // still hands the message out once more and it is dead-lettered instead of silently dropped.
    maxDeliver: maxDeliver + 1,
  })
  const log = ctx.logger.child({ consumer: opts.durable, stream: opts.stream })
  const consumer = await ctx.js.consumers.get(stream, opts.durable)
  const inFlight = Math.max(1, opts.inFlight ?? 1)
  const pull = Math.max(PULL_BATCH, inFlight)
  const messages = await consumer.consume({
    max_messages: pull,
    threshold_messages: Math.max(1, Math.floor(pull * REFILL_AT)),
  })
  let stopping = false

  const deadLetter = async (m: JsMsg, deliveries: number, error: unknown): Promise<void> => {
    const origin = { subject: ctx.naming.logical(m.subject), stream: opts.stream, seq: m.seq, consumer: opts.durable }
    const headers = {
      ...carriedHeaders(toHeaderRecord(m.headers)),
      ...deadLetterHeaders({ ...origin, deliveries, error }),
    }
    try {
      await ctx.js.publish(ctx.naming.subject(deadLetterSubject(origin)), m.data, {
        msgID: deadLetterMsgId(origin),
        headers: toNatsHeaders(headers)!,
      })
    } catch (err) {
      // Keep the message where it is; the next delivery tries the dead-letter stream again.
      log.error({ err, seq: m.seq }, 'dead-letter publish failed')
      m.nak(backoffDelay(backoffMs, deliveries))
      return
    }
    ctx.metrics?.deadLetters.inc({ consumer: opts.durable })
    log.warn({ seq: m.seq, subject: origin.subject, deliveries }, 'event dead-lettered')
    m.term('dead-lettered')
  }

  const handleOne = async (m: JsMsg): Promise<void> => {
    if (stopping) {
      // Pulled but not started: hand it straight back so another replica takes it.
      m.nak()
      return
    }
    const deliveries = m.info.deliveryCount
    if (deliveries > maxDeliver) {
      await deadLetter(m, deliveries, new Error('delivery limit passed without the handler completing'))
      return
    }
    // Tells the server the handler is alive so ack_wait does not redeliver a long-running message.
    const heartbeat = setInterval(() => m.working(), Math.max(50, Math.floor(ackWaitMs / 2)))
    heartbeat.unref()
    try {
      const delivery: Delivery = {
        subject: ctx.naming.logical(m.subject),
        envelope: decodeEnvelope(m),
        seq: m.seq,
        deliveryCount: deliveries,
        headers: toHeaderRecord(m.headers),
      }
      await handler(delivery)
      ctx.acks.ack(m)
    } catch (err) {
      ctx.metrics?.failed.inc({ consumer: opts.durable })
      const poison = isPoison(err)
      if (poison) ctx.metrics?.poison.inc({ consumer: opts.durable })
      if (deliveries >= maxDeliver || poison) {
        await deadLetter(m, deliveries, err)
      } else {
        log.warn({ err, seq: m.seq, deliveries }, 'event handler failed; redelivering later')
        m.nak(backoffDelay(backoffMs, deliveries))
      }
    } finally {
      clearInterval(heartbeat)
    }
  }

  // In stream order: one at a time, or up to `inFlight` started in that order without waiting for the earlier ones.
  const loop = (async () => {
    if (inFlight === 1) {
      for await (const m of messages) await handleOne(m)
      return
    }
    const running = new Set<Promise<void>>()
    for await (const m of messages) {
      const handled: Promise<void> = handleOne(m).finally(() => running.delete(handled))
      running.add(handled)
      if (running.size >= inFlight) await Promise.race(running)
    }
    await Promise.all(running)
  })().catch((err: unknown) => log.error({ err }, 'consumer loop ended'))

  return {
    async stop() {
      stopping = true
      await messages.close()
      await loop
      ctx.acks.flush()
    },
  }
}
