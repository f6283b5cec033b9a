import {
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
} from '@opentelemetry/api'
import { tracingActive } from '@switchboard/events'
import type { FastifyInstance, FastifyRequest } from 'fastify'

/** Probes and scrapes: not traced (a span per probe would be most of what a sampled trace store holds). Nor upgrades. */
const UNTRACED = new Set(['/health', '/ready', '/metrics'])

const spans = new WeakMap<FastifyRequest, Span>()

/**
 * A SERVER span per request, child of the W3C `traceparent` the request came with (the gateway's, on a proxied
 * request), active for everything the request does (its queries, Redis calls, outbox rows). The span's own context
 * replaces the request's `traceparent` header, so a gateway that forwards the client's headers upstream passes its
 * span on. Installed only when tracing is on: off, a request pays nothing. `unit` is the span's
 * `switchboard.unit` (the embedded mode runs every unit in one process, under one `service.name`).
 *
 * What a request of a trace that is not sampled pays, at most: where the trace starts (the gateway), the sampler's
 * decision and its ids, and the `traceparent` (flags `00`) written into the request's headers for the services it
 * reaches; under a caller's unsampled `traceparent`, not even a span — the caller's context is made active as it came
 * (log lines carry its trace id) and the header goes on untouched. The span's name and attributes are built only
 * for a span that records (the ratio sampler decides on the trace id alone).
 */
export function installHttpTracing(app: FastifyInstance<any, any, any, any, any>, unit: string): void {
  if (!tracingActive()) return
  const tracer = trace.getTracer('@switchboard/platform')
  // Synchronous hooks: the rest of the request runs inside `context.with`, as `done` is called there.
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched'
    // a WebSocket upgrade is not one request but a socket's lifetime: its span would never end, and everything the
    // socket's frames caused would hang under it in one endless trace
    if (UNTRACED.has(route) || request.headers.upgrade !== undefined) return done()
    const headers = request.headers
    const parent = headers.traceparent ? propagation.extract(ROOT_CONTEXT, headers) : ROOT_CONTEXT
    const given = trace.getSpanContext(parent)
    if (given !== undefined && (given.traceFlags & TraceFlags.SAMPLED) === 0) return context.with(parent, done)
    const span = tracer.startSpan('HTTP', { kind: SpanKind.SERVER }, parent)
    if (span.isRecording()) {
      span.updateName(`${request.method} ${route}`)
      span.setAttributes({
        'http.request.method': request.method,
        'http.route': route,
        'url.path': request.url.split('?', 1)[0] ?? '',
        'switchboard.unit': unit,
        'switchboard.request_id': String(request.id),
      })
      spans.set(request, span)
    }
    const ctx = trace.setSpan(parent, span)
    // the span's context replaces the caller's (assigned over it: deleting a header slows every later read of them)
    if (headers.tracestate !== undefined && span.spanContext().traceState === undefined) delete headers.tracestate
    propagation.inject(ctx, headers)
    context.with(ctx, done)
  })
  const end = (request: FastifyRequest, status: number | undefined) => {
    const span = spans.get(request)
    if (!span) return
    spans.delete(request)
    if (status !== undefined) span.setAttribute('http.response.status_code', status)
    if (status === undefined || status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
    span.end()
  }
  app.addHook('onResponse', (request, reply, done) => {
    end(request, reply.statusCode)
    done()
  })
  app.addHook('onRequestAbort', (request, done) => {
    end(request, undefined)
    done()
  })
}

/**
 * Would a tracedStep here make a span (tracing on, inside a span that records)? A hot caller asks first, so that an
 * untraced step builds neither its attributes nor its closure (the hub's frame to a socket: every frame).
 */
export function stepTraced(): boolean {
  return tracingActive() && trace.getSpan(context.active())?.isRecording() === true
}

/**
 * Runs `fn` in a span of its own when it runs inside a sampled span (a delivery's, a request's); otherwise just runs
 * it. For a step worth seeing in a trace that no wrapper covers, e.g. the hub's frame written to a socket.
 */
export function tracedStep<T>(name: string, attributes: Record<string, string | number | boolean>, fn: () => T): T {
  if (!stepTraced()) return fn()
  const parent = context.active()
  const span = trace.getTracer('@switchboard/platform').startSpan(name, { attributes }, parent)
  try {
    return context.with(trace.setSpan(parent, span), fn)
  } finally {
    span.end()
  }
}
