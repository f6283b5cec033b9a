export * from './inbox.ts'
export * from './jetstream.ts'
export type { RetentionLimits, StreamRetention } from './jetstream-streams.ts'
export * from './ledger-introspection.ts'
export * from './memory.ts'
export * from './metrics.ts'
export * from './migrations.ts'
export * from './outbox.ts'
export type * from './port.ts'
export {
  backoffDelay,
  DEFAULTS as EVENT_BUS_DEFAULTS,
  DLQ_HEADERS,
  DLQ_STREAM,
  isPoison,
  PoisonMessageError,
  subjectMatches,
} from './shared.ts'
export {
  maybeTraced,
  setTracingActive,
  TRACE_HEADERS,
  tracedBus,
  tracingActive,
  untraced,
  withTraceHeaders,
} from './tracing.ts'
