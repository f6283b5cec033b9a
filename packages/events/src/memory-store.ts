import type { ReplayFrom, StreamDef } from './port.ts'
import { MSG_ID_HEADER, subjectMatches } from './shared.ts'

export interface StoredMessage {
  seq: number
  subject: string
  /** the envelope as JSON: every delivery parses its own copy, so handlers cannot share mutations */
  data: string
  headers: Record<string, string>
  time: number
}

interface MemoryStream {
  def: StreamDef
  messages: StoredMessage[]
  lastSeq: number
  /** msg id → seq, in insertion (time) order so that expiry trims from the head */
  dedup: Map<string, { seq: number; at: number }>
}

export type StoreResult =
  | { stream: string; seq: number; duplicate: true }
  | { stream: string; seq: number; duplicate: false; message: StoredMessage }

/** In-memory streams: Limits retention by age, sequence numbers, a dedup window by message id. */
export function createMemoryStore(duplicateWindowMs: number, now: () => number = Date.now) {
  const streams = new Map<string, MemoryStream>()

  const prune = (s: MemoryStream) => {
    const t = now()
    if (s.def.maxAgeMs) {
      const oldest = t - s.def.maxAgeMs
      let drop = 0
      while (drop < s.messages.length && s.messages[drop]!.time < oldest) drop++
      if (drop > 0) s.messages.splice(0, drop)
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

  /** Index of the first message with seq >= `seq` (messages are sorted by seq). */
  const lowerBound = (messages: StoredMessage[], seq: number): number => {
    let lo = 0
    let hi = messages.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (messages[mid]!.seq < seq) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  const get = (name: string): MemoryStream => {
    const s = streams.get(name)
    if (!s) throw new Error(`stream not found: ${name}`)
    prune(s)
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
      prune(s)
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
      return { stream: name, seq: message.seq, duplicate: false, message }
    },

    bySeq(name: string, seq: number): StoredMessage | undefined {
      const { messages } = get(name)
      const m = messages[lowerBound(messages, seq)]
      return m?.seq === seq ? m : undefined
    },

    /** The first message after `seq` whose subject matches one of the filters (all when none). */
    nextAfter(name: string, seq: number, filters: readonly string[]): StoredMessage | undefined {
      const { messages } = get(name)
      for (let i = lowerBound(messages, seq + 1); i < messages.length; i++) {
        const m = messages[i]!
        if (filters.length === 0 || filters.some((f) => subjectMatches(f, m.subject))) return m
      }
      return undefined
    },

    /** A snapshot from a point to the current end. */
    read(name: string, from: ReplayFrom): StoredMessage[] {
      const { messages } = get(name)
      if (from.fromSeq !== undefined) return messages.slice(lowerBound(messages, from.fromSeq))
      if (from.fromTime) {
        const t = from.fromTime.getTime()
        return messages.filter((m) => m.time >= t)
      }
      return [...messages]
    },

    remove(name: string, seq: number): boolean {
      const { messages } = get(name)
      const i = lowerBound(messages, seq)
      if (messages[i]?.seq !== seq) return false
      messages.splice(i, 1)
      return true
    },

    clear() {
      streams.clear()
    },
  }
}

export type MemoryStore = ReturnType<typeof createMemoryStore>
