import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
} from '@opentelemetry/api'
import type { EventBus, Handler } from './port.ts'

/**
 * Trace context across the bus (docs/architecture.md §9). Everything here is a no-op until the process turns
 * tracing on (platform `startTracing` calls `setTracingActive`): the buses are then wrapped once, as they are made;
 * while off, the factories hand out the bare bus and the outbox writes no header, so the hot path pays nothing.
 */
let active = false

/** Set by the process's tracing setup (platform `startTracing`), before any unit is built. */
export function setTracingActive(on: boolean): void {
  active = on
}

export function tracingActive(): boolean {
  return active
}

const tracer = () => trace.getTracer('@switchboard/events')

/** W3C `traceparent` / `tracestate`: what an outbox row and a bus message carry of the trace that made the event. */
export const TRACE_HEADERS = ['traceparent', 'tracestate'] as const

/** The sampled bit of a span context's flags: the trace is kept; without it, nothing of it is recorded. */
export const sampled = (flags: number) => (flags & TraceFlags.SAMPLED) !== 0

/**
 * `headers` plus the trace context of the caller (the request that wrote the event), when tracing is on and the
 * caller is inside a trace; headers that already carry a `traceparent` keep theirs. A trace that is not sampled
 * travels too (flags `00`): parent-based sampling downstream follows it, so a consumer of an event from an unsampled
 * request records nothing either, instead of starting a trace of its own.
 */
export function withTraceHeaders(headers: Record<string, string> | undefined, ctx?: Context) {
  if (!active || headers?.traceparent) return headers
  const from = ctx ?? context.active()
  // not necessarily still open: an audit record is written as the response goes out, its span just ended
  if (trace.getSpan(from) === undefined) return headers
  const out: Record<string, string> = { ...headers }
  propagation.inject(from, out)
  return out
}

/** Runs `fn` outside any trace: background work (the relay's passes) is not part of the request that kicked it. */
export function untraced<T>(fn: () => T): T {
  return active ? context.with(ROOT_CONTEXT, fn) : fn()
}

function ended(span: Span, err?: unknown) {
  if (err !== undefined) {
    span.recordException(err as Error)
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) })
  }
  span.end()
}

/**
 * A handler whose every delivery runs in a CONSUMER span, child of the trace carried in the message's headers:
 * the consumer's own queries and publishes belong to the trace of the request that caused the event. A delivery of
 * a trace that is not sampled gets no span: it runs in the trace context it came with (its log lines carry the trace
 * id, what it publishes carries the context on). One with no trace context starts a trace, sampled at the ratio; its
 * name and attributes are built only when it is.
 */
function tracedHandler(handler: Handler, bus: string, attributes: Record<string, string>): Handler {
  return async (delivery) => {
    const parent = delivery.headers.traceparent ? propagation.extract(ROOT_CONTEXT, delivery.headers) : ROOT_CONTEXT
    const given = trace.getSpanContext(parent)
    if (given !== undefined && !sampled(given.traceFlags)) return context.with(parent, () => handler(delivery))
    const span = tracer().startSpan('process', { kind: SpanKind.CONSUMER }, parent)
    if (span.isRecording()) {
      span.updateName(`process ${delivery.subject}`)
      span.setAttributes({
        'messaging.system': bus,
        'messaging.operation.type': 'process',
        'messaging.destination.name': delivery.subject,
        'messaging.message.id': delivery.envelope.id,
        'switchboard.event.type': delivery.envelope.type,
        'switchboard.delivery.count': delivery.deliveryCount,
        ...attributes,
      })
    }
    try {
      await context.with(trace.setSpan(parent, span), () => handler(delivery))
      ended(span)
    } catch (err) {
      ended(span, err)
      throw err
    }
  }
}

/**
 * The bus with spans: a PRODUCER span per publish (child of the trace in the outbox row's headers, or of the caller),
 * whose context travels in the message's headers (NATS headers on JetStream, the delivery's headers in process); a
 * CONSUMER span per delivery handed to a handler (`consume`: named by its durable; `subscribe`: by its filter).
 */
export function tracedBus(bus: EventBus): EventBus {
  const system = bus.kind === 'jetstream' ? 'nats' : 'switchboard.memory'
  return Object.assign(Object.create(bus) as EventBus, {
    kind: bus.kind,
    ensureStreams: bus.ensureStreams.bind(bus),
    replay: bus.replay.bind(bus),
    deadLetters: bus.deadLetters.bind(bus),
    replayDeadLetters: bus.replayDeadLetters.bind(bus),
    removeDeadLetters: bus.removeDeadLetters.bind(bus),
    healthy: bus.healthy.bind(bus),
    close: bus.close.bind(bus),
    async publish(subject, envelope, opts = {}) {
      const given = opts.headers ?? {}
      const parent = given.traceparent ? propagation.extract(ROOT_CONTEXT, given) : context.active()
      const from = trace.getSpanContext(parent)
      if (from === undefined) return bus.publish(subject, envelope, opts)
      if (!sampled(from.traceFlags)) {
        // no span: the context travels as it is (an outbox row's headers already carry it)
        if (given.traceparent) return bus.publish(subject, envelope, opts)
        const headers: Record<string, string> = { ...given }
        propagation.inject(parent, headers)
        return bus.publish(subject, envelope, { ...opts, headers })
      }
      const span = tracer().startSpan(
        `publish ${subject}`,
        {
          kind: SpanKind.PRODUCER,
          attributes: {
            'messaging.system': system,
            'messaging.operation.type': 'send',
            'messaging.destination.name': subject,
            'messaging.message.id': envelope.id,
            'switchboard.event.type': envelope.type,
          },
        },
        parent,
      )
      const headers: Record<string, string> = { ...given }
      for (const name of TRACE_HEADERS) delete headers[name]
      propagation.inject(trace.setSpan(parent, span), headers)
      try {
        const result = await bus.publish(subject, envelope, { ...opts, headers })
        ended(span)
        return result
      } catch (err) {
        ended(span, err)
        throw err
      }
    },
    consume: (opts, handler) =>
      bus.consume(opts, tracedHandler(handler, system, { 'messaging.consumer.group.name': opts.durable })),
    subscribe: (filter, handler) =>
      bus.subscribe(filter, tracedHandler(handler, system, { 'messaging.destination.subscription.name': filter })),
  } satisfies EventBus)
}

/** The bus a factory hands out: wrapped when tracing is on, itself when off. */
export function maybeTraced(bus: EventBus): EventBus {
  return active ? tracedBus(bus) : bus
}
