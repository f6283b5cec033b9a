import {
  JetStreamApiCodes,
  type JetStreamManager,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
} from '@nats-io/jetstream'
import { nanos } from '@nats-io/transport-node'
import { isApiError } from './jetstream-support.ts'

/**
 * Limits an operator sets on streams. A limit left out is not touched: the stream keeps what it has (a hand-set
 * `nats stream edit --max-age` survives a unit's start), a new stream has none. 0 means "no limit", applied.
 */
export interface RetentionLimits {
  /** how long a message is kept, ms; 0: until removed */
  maxAgeMs?: number
  /** the stream's size in bytes, past which its oldest messages are dropped; 0: no limit */
  maxBytes?: number
}

/** What the operator configured, by kind of stream (`EVENTS_RETENTION_DAYS`, `EVENTS_DLQ_RETENTION_DAYS`, …). */
export interface StreamRetention {
  /** the streams declared without an age of their own: the domain streams (`STREAMS`) */
  streams?: RetentionLimits
  /** the dead-letter stream */
  deadLetters?: RetentionLimits
}

export interface StreamSpec {
  name: string
  subjects: string[]
  /** undefined: the stream's own (none for a new one) */
  maxAgeMs: number | undefined
  /** undefined: the stream's own (none for a new one) */
  maxBytes: number | undefined
  duplicateWindowMs: number
}

type Limited = Pick<StreamConfig, 'subjects' | 'max_age' | 'max_bytes' | 'duplicate_window'>

/** The settings a unit owns on a stream, given what the stream has now (undefined: it does not exist yet). */
export function wantedStreamConfig(spec: StreamSpec, existing: Limited | undefined): Limited {
  const maxAge = spec.maxAgeMs === undefined ? (existing?.max_age ?? 0) : nanos(spec.maxAgeMs)
  const maxBytes = spec.maxBytes === undefined ? (existing?.max_bytes ?? -1) : spec.maxBytes > 0 ? spec.maxBytes : -1
  // The server refuses a duplicate window longer than the max age.
  const window = nanos(spec.duplicateWindowMs)
  const dupWindow = maxAge > 0 ? Math.min(window, maxAge) : window
  return { subjects: spec.subjects, max_age: maxAge, max_bytes: maxBytes, duplicate_window: dupWindow }
}

const sameConfig = (a: Limited, b: Limited) =>
  a.max_age === b.max_age &&
  a.max_bytes === b.max_bytes &&
  a.duplicate_window === b.duplicate_window &&
  a.subjects.length === b.subjects.length &&
  a.subjects.every((s, i) => s === b.subjects[i])

/** Creates or updates a stream so that several replicas may call it at start-up at the same time. */
export async function ensureStream(jsm: JetStreamManager, spec: StreamSpec, attempt = 0): Promise<void> {
  let existing: StreamConfig | undefined
  try {
    existing = (await jsm.streams.info(spec.name)).config
  } catch (err) {
    if (!isApiError(err, JetStreamApiCodes.StreamNotFound)) throw err
  }
  const wanted = wantedStreamConfig(spec, existing)
  if (existing) {
    if (!sameConfig(existing, wanted)) await jsm.streams.update(spec.name, { ...existing, ...wanted })
    return
  }
  try {
    await jsm.streams.add({ name: spec.name, retention: RetentionPolicy.Limits, storage: StorageType.File, ...wanted })
  } catch (addErr) {
    // Another replica created it between our info and add: take the update path once.
    if (attempt > 0) throw addErr
    await ensureStream(jsm, spec, attempt + 1)
  }
}
