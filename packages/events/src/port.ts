import type { Envelope } from '@switchboard/contracts'

/** A stream definition: name (before prefixing) and subject filters (before prefixing). */
export interface StreamDef {
  name: string
  subjects: readonly string[]
  /**
   * the stream's own max age of messages, ms, always applied (HUB's 60 s). Without it the stream takes the bus's
   * configured retention, or keeps what it has: Limits retention, so projections can be rebuilt by replay
   */
  maxAgeMs?: number
}

export interface PublishResult {
  seq: number
  duplicate: boolean
}

export interface Delivery<T = unknown> {
  subject: string
  envelope: Envelope<T>
  /** stream sequence of this message */
  seq: number
  /** 1 on the first delivery */
  deliveryCount: number
  headers: Record<string, string>
}

export type Handler<T = unknown> = (delivery: Delivery<T>) => Promise<void>

export interface ConsumerOptions {
  /** durable consumer name; replicas sharing it share the work (queue semantics) */
  durable: string
  stream: string
  filterSubjects?: string[]
  /** deliveries before the message goes to the dead-letter stream (default 5) */
  maxDeliver?: number
  /** nak delays by attempt, ms (last one repeats); default [200, 1000, 5000, 15000] */
  backoffMs?: number[]
  ackWaitMs?: number
  /**
   * deliveries of this subscription handled at once, taken in stream order (default 1: the next only when one is
   * done): for a handler that gathers the deliveries it is given into ordered batches
   */
  inFlight?: number
}

export interface Subscription {
  stop(): Promise<void>
}

export interface DeadLetter {
  /** sequence in the dead-letter stream */
  seq: number
  origin_subject: string
  origin_stream: string
  origin_seq: number
  consumer: string
  error: string
  failed_at: string
  deliveries: number
  envelope: Envelope
  /** custom headers of the original message (not the bus's own); given back on replay */
  headers?: Record<string, string>
}

export interface ReplayFrom {
  fromSeq?: number
  fromTime?: Date
}

/**
 * The EventBus port. The JetStream adapter and the in-process adapter pass one contract suite
 * (packages/events/test/contract.ts): at-least-once, nak with delay, max_deliver → dead letters,
 * dedup by event id, replay from a point, dead-letter replay to origin.
 * Subjects and stream names given to these methods are logical; an adapter applies its prefix.
 */
export interface EventBus {
  readonly kind: 'jetstream' | 'memory'
  ensureStreams(streams: readonly StreamDef[]): Promise<void>
  /** publishes with dedup on `msgId` (default: the envelope id) inside the duplicate window */
  publish(
    subject: string,
    envelope: Envelope,
    opts?: { msgId?: string; headers?: Record<string, string> },
  ): Promise<PublishResult>
  /**
   * durable, at-least-once consumption; a throwing handler is redelivered after a delay. The stream
   * must exist (ensureStreams first); each call handles one message at a time, and calls sharing a
   * durable share its messages
   */
  consume(opts: ConsumerOptions, handler: Handler): Promise<Subscription>
  /**
   * every subscriber gets every new message on the filter (fan-out to all replicas), from now on, no
   * acks; the filter must lie within one stream
   */
  subscribe(filter: string, handler: Handler): Promise<Subscription>
  /** reads a stream from a point to its current end, in order */
  replay(stream: string, from: ReplayFrom, handler: Handler): Promise<number>
  deadLetters(opts?: { limit?: number; consumer?: string }): Promise<DeadLetter[]>
  /** republishes dead letters to their origin subject, removes them from the dead-letter stream */
  replayDeadLetters(opts?: {
    seqs?: number[]
    consumer?: string
    onProgress?: (done: number, total: number) => void
  }): Promise<number>
  /**
   * removes dead letters by their sequence in the dead-letter stream without replaying them (a person's erasure):
   * answers how many were removed; a sequence no longer held (replayed or removed meanwhile) is skipped. JetStream
   * erases the message's bytes on disk, not only its index entry
   */
  removeDeadLetters(seqs: readonly number[]): Promise<number>
  /** is the connection usable (for /ready) */
  healthy(): Promise<boolean>
  close(): Promise<void>
}
