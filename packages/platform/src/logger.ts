import { trace } from '@opentelemetry/api'
import { tracingActive } from '@switchboard/events'
import pino, { type Logger } from 'pino'

export type { Logger }

/** `trace_id` and `span_id` of the span a line is logged in, when tracing is on (nothing when off or outside one). */
function traceFields(): object {
  // a new object each time: pino merges the line's fields into it (only lines logged pay, not requests)
  if (!tracingActive()) return {}
  const span = trace.getActiveSpan()
  if (!span) return {}
  const { traceId, spanId } = span.spanContext()
  return { trace_id: traceId, span_id: spanId }
}

/**
 * One root logger per process; services take a `child({ service })`. Credentials never reach the log. A line
 * logged inside a traced request or delivery carries its `trace_id` (and `span_id`).
 */
export function createRootLogger(opts: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  return pino(
    {
      level: opts.level ?? 'info',
      mixin: traceFields,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-switchboard-principal"]',
          'req.headers["x-api-key"]',
          '*.password',
          '*.refresh_token',
          '*.token',
        ],
        censor: '[REDACTED]',
      },
    },
    opts.destination,
  )
}

type LogArgs = Parameters<Logger['info']>

/**
 * A request's logger for Fastify's `childLoggerFactory`: binds the request id without building the pino
 * child until something is logged (pino's child() serialises and redacts its bindings, about 2 µs, and
 * almost no request logs anything).
 */
class LazyChildLogger {
  #parent: Logger
  #bindings: pino.Bindings
  #opts: pino.ChildLoggerOptions
  #child: Logger | undefined
  constructor(parent: Logger, bindings: pino.Bindings, opts: pino.ChildLoggerOptions) {
    this.#parent = parent
    this.#bindings = bindings
    this.#opts = opts
  }
  get #log(): Logger {
    this.#child ??= this.#parent.child(this.#bindings, this.#opts)
    return this.#child
  }
  fatal(...args: LogArgs) {
    this.#log.fatal(...args)
  }
  error(...args: LogArgs) {
    this.#log.error(...args)
  }
  warn(...args: LogArgs) {
    this.#log.warn(...args)
  }
  info(...args: LogArgs) {
    this.#log.info(...args)
  }
  debug(...args: LogArgs) {
    this.#log.debug(...args)
  }
  trace(...args: LogArgs) {
    this.#log.trace(...args)
  }
  silent() {}
  child(bindings: pino.Bindings, opts?: pino.ChildLoggerOptions) {
    return this.#log.child(bindings, opts)
  }
  isLevelEnabled(level: string) {
    return this.#log.isLevelEnabled(level)
  }
  bindings() {
    return this.#log.bindings()
  }
  get level() {
    return this.#log.level
  }
  set level(level: string) {
    this.#log.level = level
  }
}

export function lazyChildLogger(parent: Logger, bindings: pino.Bindings, opts: pino.ChildLoggerOptions): Logger {
  return new LazyChildLogger(parent, bindings, opts) as unknown as Logger
}
