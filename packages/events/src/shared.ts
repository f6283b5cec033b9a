import type { Envelope } from '@switchboard/contracts'
import type { DeadLetter, StreamDef } from './port.ts'

/** Logical dead-letter stream; an adapter prefixes it like any other stream. */
export const DLQ_STREAM: StreamDef = { name: 'DLQ', subjects: ['dlq.>'] }

export const DEFAULTS = {
  maxDeliver: 5,
  backoffMs: [200, 1000, 5000, 15000],
  ackWaitMs: 30_000,
  duplicateWindowMs: 120_000,
} as const

/** Headers a dead letter carries so that it can be inspected and sent back where it came from. */
export const DLQ_HEADERS = {
  originSubject: 'Sb-Origin-Subject',
  originStream: 'Sb-Origin-Stream',
  originSeq: 'Sb-Origin-Seq',
  consumer: 'Sb-Consumer',
  error: 'Sb-Error',
  deliveries: 'Sb-Deliveries',
  failedAt: 'Sb-Failed-At',
} as const

export const MSG_ID_HEADER = 'Nats-Msg-Id'

export interface DeadLetterOrigin {
  subject: string
  stream: string
  seq: number
  consumer: string
  deliveries: number
  error: unknown
}

/**
 * What a handler throws for a message that no retry can ever apply (it breaks its contract): the bus dead-letters
 * it on this delivery instead of redelivering it `maxDeliver` times, and counts it in `eventbus_poison_total`.
 * Anything else thrown (a database that is down) is retried as usual.
 */
export class PoisonMessageError extends Error {
  readonly poison = true
  override name = 'PoisonMessageError'
}

/** By property rather than `instanceof`: the bus and a handler may load this module from two places. */
export const isPoison = (err: unknown): boolean => (err as { poison?: unknown } | null)?.poison === true

/** Nak delay for the attempt that just failed; the last configured delay repeats. */
export function backoffDelay(backoffMs: readonly number[], deliveryCount: number): number {
  if (backoffMs.length === 0) return 0
  return backoffMs[Math.min(Math.max(deliveryCount - 1, 0), backoffMs.length - 1)]!
}

/** NATS subject matching: `*` is one token, `>` the rest (one token at least). */
export function subjectMatches(filter: string, subject: string): boolean {
  const f = filter.split('.')
  const s = subject.split('.')
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return s.length > i
    if (i >= s.length) return false
    if (f[i] !== '*' && f[i] !== s[i]) return false
  }
  return f.length === s.length
}

/** Header values travel on one protocol line: no CR/LF, and kept short. */
export function errorText(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err)
  return text.replace(/[\r\n]+/g, ' ').slice(0, 1000)
}

/** The dead-letter subject groups by origin stream and consumer (neither may contain dots). */
export function deadLetterSubject(origin: Pick<DeadLetterOrigin, 'stream' | 'consumer'>): string {
  return `dlq.${origin.stream}.${origin.consumer}`
}

/** Stable id so that a retried dead-letter publish is swallowed by the duplicate window. */
export function deadLetterMsgId(origin: Pick<DeadLetterOrigin, 'stream' | 'consumer' | 'seq'>): string {
  return `dlq:${origin.stream}:${origin.consumer}:${origin.seq}`
}

export function deadLetterHeaders(origin: DeadLetterOrigin, now = new Date()): Record<string, string> {
  return {
    [DLQ_HEADERS.originSubject]: origin.subject,
    [DLQ_HEADERS.originStream]: origin.stream,
    [DLQ_HEADERS.originSeq]: String(origin.seq),
    [DLQ_HEADERS.consumer]: origin.consumer,
    [DLQ_HEADERS.error]: errorText(origin.error),
    [DLQ_HEADERS.deliveries]: String(origin.deliveries),
    [DLQ_HEADERS.failedAt]: now.toISOString(),
  }
}

export function parseDeadLetter(seq: number, headers: Record<string, string>, envelope: Envelope): DeadLetter {
  return {
    seq,
    origin_subject: headers[DLQ_HEADERS.originSubject] ?? '',
    origin_stream: headers[DLQ_HEADERS.originStream] ?? '',
    origin_seq: Number(headers[DLQ_HEADERS.originSeq] ?? 0),
    consumer: headers[DLQ_HEADERS.consumer] ?? '',
    error: headers[DLQ_HEADERS.error] ?? '',
    failed_at: headers[DLQ_HEADERS.failedAt] ?? '',
    deliveries: Number(headers[DLQ_HEADERS.deliveries] ?? 0),
    envelope,
    headers: carriedHeaders(headers),
  }
}

/** Headers of the original message worth keeping on a dead letter (not the adapter's own). */
export function carriedHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers)) {
    if (k === MSG_ID_HEADER || k.startsWith('Sb-') || k.startsWith('Nats-')) continue
    out[k] = v
  }
  return out
}

/** New id for a replayed dead letter: the original id is still inside the duplicate window. */
export function replayMsgId(envelopeId: string, dlqSeq: number): string {
  return `${envelopeId}:replay:${dlqSeq}`
}

export function selectDeadLetters(
  all: DeadLetter[],
  opts: { limit?: number; consumer?: string; seqs?: number[] } = {},
): DeadLetter[] {
  const seqs = opts.seqs ? new Set(opts.seqs) : undefined
  const picked = all.filter((d) => (!opts.consumer || d.consumer === opts.consumer) && (!seqs || seqs.has(d.seq)))
  return opts.limit === undefined ? picked : picked.slice(0, opts.limit)
}
