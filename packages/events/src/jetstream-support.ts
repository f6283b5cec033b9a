import {
  AckPolicy,
  type ConsumerConfig,
  type ConsumerInfo,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream'
import { type MsgHdrs, nanos, headers as natsHeaders } from '@nats-io/transport-node'
import type { Envelope } from '@switchboard/contracts'
import type { ReplayFrom } from './port.ts'

/** Maps logical names to the prefixed ones on the server, and back. */
export interface Naming {
  stream(name: string): string
  subject(subject: string): string
  logical(subject: string): string
}

export function createNaming(prefix: string | undefined): Naming {
  if (!prefix) return { stream: (n) => n.toUpperCase(), subject: (s) => s, logical: (s) => s }
  const head = `${prefix}.`
  return {
    stream: (n) => `${prefix}_${n}`.toUpperCase(),
    subject: (s) => `${head}${s}`,
    logical: (s) => (s.startsWith(head) ? s.slice(head.length) : s),
  }
}

export function toHeaderRecord(h: MsgHdrs | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (!h) return out
  for (const [k, values] of h) if (values[0] !== undefined) out[k] = values[0]
  return out
}

export function toNatsHeaders(rec: Record<string, string> | undefined): MsgHdrs | undefined {
  if (!rec || Object.keys(rec).length === 0) return undefined
  const h = natsHeaders()
  for (const [k, v] of Object.entries(rec)) h.set(k, v)
  return h
}

export function decodeEnvelope(m: JsMsg): Envelope {
  return m.json<Envelope>()
}

export function isApiError(err: unknown, code: number): boolean {
  return err instanceof JetStreamApiError && err.code === code
}

interface DurableSpec {
  stream: string
  durable: string
  filterSubjects: string[]
  ackWaitMs: number
  maxDeliver: number
}

function filterConfig(filters: string[]): Partial<ConsumerConfig> {
  // A single filter uses `filter_subject` so that servers before 2.10 accept it.
  if (filters.length === 0) return {}
  if (filters.length === 1) return { filter_subject: filters[0]! }
  return { filter_subjects: filters }
}

/** Creates or updates a durable pull consumer; safe to run from every replica at start-up. */
export async function ensureDurable(jsm: JetStreamManager, spec: DurableSpec, attempt = 0): Promise<ConsumerInfo> {
  const updatable = {
    ack_wait: nanos(spec.ackWaitMs),
    max_deliver: spec.maxDeliver,
    ...filterConfig(spec.filterSubjects),
  }
  try {
    const ci = await jsm.consumers.info(spec.stream, spec.durable)
    const c = ci.config
    const sameFilter =
      (c.filter_subject ?? '') === (updatable.filter_subject ?? '') &&
      (c.filter_subjects ?? []).join(',') === (updatable.filter_subjects ?? []).join(',')
    if (c.ack_wait === updatable.ack_wait && c.max_deliver === updatable.max_deliver && sameFilter) return ci
    return await jsm.consumers.update(spec.stream, spec.durable, updatable)
  } catch (err) {
    if (!isApiError(err, JetStreamApiCodes.ConsumerNotFound)) throw err
    try {
      return await jsm.consumers.add(spec.stream, {
        durable_name: spec.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ...updatable,
      })
    } catch (addErr) {
      if (attempt > 0) throw addErr
      return ensureDurable(jsm, spec, attempt + 1)
    }
  }
}

/**
 * Reads a stream from a point to the end it has when the read starts, in order. An ephemeral
 * consumer reports at creation how many messages it will see, so the read knows where to stop
 * without waiting for a timeout.
 */
export async function readStream(
  js: JetStreamClient,
  jsm: JetStreamManager,
  stream: string,
  from: ReplayFrom & { filterSubject?: string },
  onMessage: (m: JsMsg) => Promise<void>,
): Promise<number> {
  const cfg: Partial<ConsumerConfig> = {
    ack_policy: AckPolicy.None,
    inactive_threshold: nanos(60_000),
    mem_storage: true,
    deliver_policy: DeliverPolicy.All,
    ...(from.filterSubject ? { filter_subject: from.filterSubject } : {}),
  }
  if (from.fromSeq !== undefined) {
    cfg.deliver_policy = DeliverPolicy.StartSequence
    cfg.opt_start_seq = Math.max(1, from.fromSeq)
  } else if (from.fromTime) {
    cfg.deliver_policy = DeliverPolicy.StartTime
    cfg.opt_start_time = from.fromTime.toISOString()
  }
  const ci = await jsm.consumers.add(stream, cfg)
  try {
    let remaining = ci.num_pending
    if (remaining === 0) return 0
    const messages = await js.consumers.getConsumerFromInfo(ci).consume({ max_messages: Math.min(remaining, 256) })
    let count = 0
    try {
      for await (const m of messages) {
        await onMessage(m)
        count++
        if (--remaining === 0 || m.info.pending === 0) break
      }
    } finally {
      messages.stop()
    }
    return count
  } finally {
    await jsm.consumers.delete(stream, ci.name).catch(() => undefined)
  }
}
