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
}

/** Messages pulled per request: small, so that replicas sharing a durable each get a share. */
const PULL_BATCH = 10

/**
 * Starts a durable pull consumer loop. Messages are handled one at a time per call; a process that
 * wants more parallelism calls consume() again with the same durable.
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
  const messages = await consumer.consume({ max_messages: PULL_BATCH })
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
      m.ack()
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

  const loop = (async () => {
    for await (const m of messages) await handleOne(m)
  })().catch((err: unknown) => log.error({ err }, 'consumer loop ended'))

  return {
    async stop() {
      stopping = true
      await messages.close()
      await loop
    },
  }
}
