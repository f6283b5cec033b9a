import type { RetentionLimits } from './jetstream-streams.ts'
import type { ReplayFrom, StreamDef } from './port.ts'
import { DLQ_STREAM, MSG_ID_HEADER, subjectMatches } from './shared.ts'

export interface StoredMessage {
  seq: number
  subject: string
  /** the envelope as JSON: every delivery parses its own copy, so handlers cannot share mutations */
  data: string
  headers: Record<string, string>
  time: number
}

/** Messages kept per stream, once every durable of it acknowledged them, when nothing else is configured. */
export const DEFAULT_MEMORY_MAX_MESSAGES = 10_000

/**
 * What the in-process bus keeps. Only messages every durable consumer of their stream has acknowledged are ever
 * dropped by these limits (a stream's own age, HUB's 60 s, is absolute as on JetStream). `maxBytes` is not applied.
 */
export interface MemoryRetention {
  /** per stream but the dead letters: acknowledged messages kept for replay (default 10,000); 0: no limit */
  maxMessages?: number
  /** the streams declared without an age of their own; `maxAgeMs` 0 or unset: no age */
  streams?: RetentionLimits
  /** the dead-letter stream, which no count limit touches; `maxAgeMs` 0 or unset: kept until removed */
  deadLetters?: RetentionLimits
}

export interface MemoryStoreOptions {
  /** dedup window by message id */
  duplicateWindowMs: number
  now?: () => number
  retention?: MemoryRetention
  /**
   * The lowest sequence of a stream some durable consumer still needs (not delivered yet, in flight or waiting for
   * redelivery); the limits drop nothing from there on. Infinity when the stream has no durable.
   */
  ackFloor?: (stream: string) => number
}

interface MemoryStream {
  def: StreamDef
  /** sorted by seq; the held messages are those from `head` on (dropped ones are cut off in batches) */
  messages: StoredMessage[]
  head: number
  lastSeq: number
  /** msg id → seq, in insertion (time) order so that expiry trims from the head */
  dedup: Map<string, { seq: number; at: number }>
}

export type StoreResult =
  | { stream: string; seq: number; duplicate: true }
  | { stream: string; seq: number; duplicate: false; message: StoredMessage }

/** Dropped slots cut off the array once they are this many, or half of it: amortised O(1) per message. */
const COMPACT_AT = 1024

/** In-memory streams: limits retention (age, acknowledged count), sequence numbers, a dedup window by message id. */
export function createMemoryStore(opts: MemoryStoreOptions) {
  const { duplicateWindowMs, retention = {}, ackFloor = () => Number.POSITIVE_INFINITY } = opts
  const now = opts.now ?? Date.now
  const maxMessages = retention.maxMessages ?? DEFAULT_MEMORY_MAX_MESSAGES
  const streams = new Map<string, MemoryStream>()

  /** The limits a stream takes: its own age wins over the configured one; the dead letters have no count limit. */
  const limitsOf = (name: string, s: MemoryStream) => {
    const dlq = name === DLQ_STREAM.name
    const configuredAge = (dlq ? retention.deadLetters : retention.streams)?.maxAgeMs || undefined
    return { count: dlq ? 0 : maxMessages, ageMs: s.def.maxAgeMs ? undefined : configuredAge }
  }

  const prune = (name: string, s: MemoryStream) => {
    const t = now()
    if (s.def.maxAgeMs) {
      const oldest = t - s.def.maxAgeMs
      while (s.head < s.messages.length && s.messages[s.head]!.time < oldest) s.head++
    }
    const { count, ageMs } = limitsOf(name, s)
    const over = () => {
      const first = s.messages[s.head]
      if (!first) return false
      return (count > 0 && s.messages.length - s.head > count) || (ageMs !== undefined && first.time < t - ageMs)
    }
    if (over()) {
      const floor = ackFloor(name)
      while (s.messages[s.head] && s.messages[s.head]!.seq < floor && over()) s.head++
    }
    if (s.head > 0 && (s.head >= COMPACT_AT || s.head * 2 >= s.messages.length)) {
      s.messages = s.messages.slice(s.head)
      s.head = 0
    }
    const window = s.def.maxAgeMs ? Math.min(duplicateWindowMs, s.def.maxAgeMs) : duplicateWindowMs
    for (const [id, entry] of s.dedup) {
      if (entry.at >= t - window) break
      s.dedup.delete(id)
    }
  }

  const streamFor = (subject: string): [string, MemoryStream] | undefined => {
    for (const entry of streams) if (entry[1].def.subjects.some((f) => subjectMatches(f, subject))) return entry
    return undefined
  }

  /** Index of the first held message with seq >= `seq` (messages are sorted by seq). */
  const lowerBound = (s: MemoryStream, seq: number): number => {
    let lo = s.head
    let hi = s.messages.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (s.messages[mid]!.seq < seq) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  const get = (name: string): MemoryStream => {
    const s = streams.get(name)
    if (!s) throw new Error(`stream not found: ${name}`)
    prune(name, s)
    return s
  }

  return {
    ensure(def: StreamDef) {
      const existing = streams.get(def.name)
      if (existing) existing.def = { ...def, subjects: [...def.subjects] }
      else
        streams.set(def.name, {
          def: { ...def, subjects: [...def.subjects] },
          messages: [],
          head: 0,
          lastSeq: 0,
          dedup: new Map(),
        })
    },

    has: (name: string) => streams.has(name),

    append(subject: string, data: string, msgId: string, headers: Record<string, string>): StoreResult {
      const found = streamFor(subject)
      // Same failure as JetStream without a stream for the subject: the publisher must know.
      if (!found) throw new Error(`no stream matches subject ${subject}`)
      const [name, s] = found
      prune(name, s)
      const seen = s.dedup.get(msgId)
      if (seen) return { stream: name, seq: seen.seq, duplicate: true }
      const message: StoredMessage = {
        seq: ++s.lastSeq,
        subject,
        data,
        headers: { ...headers, [MSG_ID_HEADER]: msgId },
        time: now(),
      }
      s.messages.push(message)
      s.dedup.set(msgId, { seq: message.seq, at: message.time })
      // again after the push: the count limit holds with the new message in
      prune(name, s)
      return { stream: name, seq: message.seq, duplicate: false, message }
    },

    bySeq(name: string, seq: number): StoredMessage | undefined {
      const s = get(name)
      const m = s.messages[lowerBound(s, seq)]
      return m?.seq === seq ? m : undefined
    },

    /** The first message after `seq` whose subject matches one of the filters (all when none). */
    nextAfter(name: string, seq: number, filters: readonly string[]): StoredMessage | undefined {
      const s = get(name)
      for (let i = lowerBound(s, seq + 1); i < s.messages.length; i++) {
        const m = s.messages[i]!
        if (filters.length === 0 || filters.some((f) => subjectMatches(f, m.subject))) return m
      }
      return undefined
    },

    /** The sequence of the stream's newest message (0 before the first). */
    lastSeq: (name: string): number => get(name).lastSeq,

    /** A snapshot from a point to the current end. */
    read(name: string, from: ReplayFrom): StoredMessage[] {
      const s = get(name)
      if (from.fromSeq !== undefined) return s.messages.slice(lowerBound(s, from.fromSeq))
      const held = s.messages.slice(s.head)
      if (from.fromTime) {
        const t = from.fromTime.getTime()
        return held.filter((m) => m.time >= t)
      }
      return held
    },

    remove(name: string, seq: number): boolean {
      const s = get(name)
      const i = lowerBound(s, seq)
      if (s.messages[i]?.seq !== seq) return false
      s.messages.splice(i, 1)
      return true
    },

    clear() {
      streams.clear()
    },
  }
}

export type MemoryStore = ReturnType<typeof createMemoryStore>
