import { DeliverPolicy, JetStreamApiCodes, JetStreamApiError, jetstream, jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import type { Envelope } from '@switchboard/contracts'
import type { Logger } from 'pino'
import { consumeDurable, createAckBatcher, type JetStreamContext } from './jetstream-consume.ts'
import { ensureStream, type StreamRetention } from './jetstream-streams.ts'
import { createNaming, decodeEnvelope, readStream, toHeaderRecord, toNatsHeaders } from './jetstream-support.ts'
import { type EventBusMetrics, subjectRoot } from './metrics.ts'
import type { DeadLetter, EventBus, Handler, StreamDef, Subscription } from './port.ts'
import { DEFAULTS, DLQ_STREAM, parseDeadLetter, replayMsgId, selectDeadLetters } from './shared.ts'
import { maybeTraced } from './tracing.ts'

export interface JetStreamBusOptions {
  /** one server URL or several */
  url: string | string[]
  /** isolates a test run: streams become `${PREFIX}_${NAME}`, subjects `${prefix}.${subject}` */
  prefix?: string
  logger: Logger
  metrics?: EventBusMetrics
  /** dedup window by `Nats-Msg-Id` (default 2 minutes; capped at a stream's max age) */
  duplicateWindowMs?: number
  /** connection name shown by the server's monitoring */
  name?: string
  /**
   * limits applied to the streams when they are ensured: the domain streams (those declared without an age of their
   * own; `HUB` keeps its 60 s) and the dead-letter stream. A limit left out leaves the stream's as it is.
   */
  retention?: StreamRetention
}

/** The EventBus on NATS JetStream: one connection, durable pull consumers, a dead-letter stream. */
export async function createJetStreamBus(opts: JetStreamBusOptions): Promise<EventBus> {
  const nc = await connect({
    servers: opts.url,
    name: opts.name ?? 'switchboard',
    maxReconnectAttempts: -1,
    // Without it the client makes an Error (RequestError, and a TimeoutError for the request's timer) on EVERY
    // request — each JetStream publish is one — only to keep the caller's async stack should it fail: 3–4 % of a
    // publishing unit's CPU (conversations' profile). A failed publish still rejects with its cause.
    noAsyncTraces: true,
  })
  const js = jetstream(nc)
  const jsm = await jetstreamManager(nc)
  const naming = createNaming(opts.prefix)
  const duplicateWindowMs = opts.duplicateWindowMs ?? DEFAULTS.duplicateWindowMs
  const logger = opts.logger
  const subscriptions = new Set<Subscription>()

  const ensure = (def: StreamDef) => {
    const limits = (def.name === DLQ_STREAM.name ? opts.retention?.deadLetters : opts.retention?.streams) ?? {}
    const own = def.maxAgeMs !== undefined
    return ensureStream(jsm, {
      name: naming.stream(def.name),
      subjects: def.subjects.map(naming.subject),
      // a stream that declares its own age (HUB) keeps it, and takes none of the operator's limits
      maxAgeMs: own ? def.maxAgeMs : limits.maxAgeMs,
      maxBytes: own ? undefined : limits.maxBytes,
      duplicateWindowMs,
    })
  }
  let dlqReady: Promise<void> | undefined
  const ensureDeadLetterStream = () => {
    dlqReady ??= ensure(DLQ_STREAM).catch((err: unknown) => {
      dlqReady = undefined
      throw err
    })
    return dlqReady
  }
  const ctx: JetStreamContext = {
    js,
    jsm,
    naming,
    logger,
    metrics: opts.metrics,
    ensureDeadLetterStream,
    acks: createAckBatcher(),
  }

  const track = (sub: Subscription): Subscription => {
    subscriptions.add(sub)
    return {
      async stop() {
        subscriptions.delete(sub)
        await sub.stop()
      },
    }
  }

  const listDeadLetters = async (filter: { consumer?: string }): Promise<DeadLetter[]> => {
    await ensureDeadLetterStream()
    const out: DeadLetter[] = []
    const filterSubject = filter.consumer ? naming.subject(`dlq.*.${filter.consumer}`) : undefined
    await readStream(js, jsm, naming.stream(DLQ_STREAM.name), { filterSubject }, async (m) => {
      try {
        out.push(parseDeadLetter(m.seq, toHeaderRecord(m.headers), decodeEnvelope(m)))
      } catch (err) {
        logger.warn({ err, seq: m.seq }, 'unreadable dead letter skipped')
      }
    })
    return out
  }

  const bus: EventBus = {
    kind: 'jetstream',

    async ensureStreams(streams) {
      for (const def of streams) await ensure(def)
      await ensureDeadLetterStream()
    },

    async publish(subject, envelope, publishOpts = {}) {
      const ack = await js.publish(naming.subject(subject), JSON.stringify(envelope), {
        msgID: publishOpts.msgId ?? envelope.id,
        headers: toNatsHeaders(publishOpts.headers),
      })
      if (!ack.duplicate) opts.metrics?.published.inc({ subject_root: subjectRoot(subject) })
      return { seq: ack.seq, duplicate: ack.duplicate }
    },

    consume: async (consumerOpts, handler) => track(await consumeDurable(ctx, consumerOpts, handler)),

    async subscribe(filter, handler) {
      // An ordered push consumer from "new": every replica gets every message, straight from the
      // stream, so it sees what the durable consumers see (stored, deduplicated, with a seq).
      const stream = await jsm.streams.find(naming.subject(filter))
      const consumer = await js.consumers.getPushConsumer(stream, {
        filter_subjects: naming.subject(filter),
        deliver_policy: DeliverPolicy.New,
      })
      const messages = await consumer.consume()
      const loop = (async () => {
        for await (const m of messages) {
          try {
            await handler({
              subject: naming.logical(m.subject),
              envelope: decodeEnvelope(m),
              seq: m.seq,
              deliveryCount: 1,
              headers: toHeaderRecord(m.headers),
            })
          } catch (err) {
            logger.warn({ err, subject: m.subject, seq: m.seq }, 'subscriber failed')
          }
        }
      })()
      return track({
        async stop() {
          messages.stop()
          await loop
        },
      })
    },

    async replay(stream, from, handler: Handler) {
      return readStream(js, jsm, naming.stream(stream), from, (m) =>
        handler({
          subject: naming.logical(m.subject),
          envelope: decodeEnvelope(m),
          seq: m.seq,
          deliveryCount: 1,
          headers: toHeaderRecord(m.headers),
        }),
      )
    },

    async deadLetters(filter = {}) {
      return selectDeadLetters(await listDeadLetters(filter), filter)
    },

    async replayDeadLetters(replayOpts = {}) {
      const picked = selectDeadLetters(await listDeadLetters(replayOpts), replayOpts)
      const dlqStream = naming.stream(DLQ_STREAM.name)
      let done = 0
      for (const dl of picked) {
        await bus.publish(dl.origin_subject, dl.envelope as Envelope, {
          msgId: replayMsgId(dl.envelope.id, dl.seq),
          headers: dl.headers,
        })
        await jsm.streams.deleteMessage(dlqStream, dl.seq)
        done++
        replayOpts.onProgress?.(done, picked.length)
      }
      return done
    },

    async removeDeadLetters(seqs) {
      await ensureDeadLetterStream()
      const dlqStream = naming.stream(DLQ_STREAM.name)
      let removed = 0
      for (const seq of new Set(seqs)) {
        try {
          // erase: the message's bytes are overwritten, not only dropped from the index (a person's data)
          if (await jsm.streams.deleteMessage(dlqStream, seq, true)) removed++
        } catch (err) {
          // the server answers a sequence it does not hold with a failed delete (10057, "no message found" or
          // "stream store EOF"), not with 10037: skipped once a read confirms nothing is there
          if (!(err instanceof JetStreamApiError)) throw err
          if (err.code !== JetStreamApiCodes.NoMessageFound && (await jsm.streams.getMessage(dlqStream, { seq }))) {
            throw err
          }
        }
      }
      return removed
    },

    async healthy() {
      return !nc.isClosed() && !nc.isDraining()
    },

    async close() {
      await Promise.allSettled([...subscriptions].map((s) => s.stop()))
      subscriptions.clear()
      ctx.acks.flush()
      if (nc.isClosed()) return
      // Draining needs the server: while it is unreachable the drain fails and the client would go on reconnecting
      // for ever (maxReconnectAttempts -1), keeping the process alive after close. Closed outright instead.
      await nc.drain().catch(async (err: unknown) => {
        logger.warn({ err }, 'event bus not drained (server unreachable): closed without draining')
        await nc.close()
      })
    },
  }

  return maybeTraced(bus)
}
