import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client'
import type { AnyApp } from './app.ts'

export interface ServiceMetrics {
  registry: Registry
  httpDuration: Histogram<'method' | 'route' | 'status'>
  errorsTotal: Counter<'severity' | 'category' | 'module'>
  dbQueries: Counter<'origin'>
}

/** One registry per service instance, labelled with the service name; nothing global. */
export function createMetrics(service: string, opts: { defaultMetrics?: boolean } = {}): ServiceMetrics {
  const registry = new Registry()
  registry.setDefaultLabels({ service })
  if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: registry })
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route template',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  })
  const errorsTotal = new Counter({
    name: 'errors_total',
    help: 'Errors by severity, category and module',
    labelNames: ['severity', 'category', 'module'] as const,
    registers: [registry],
  })
  const dbQueries = new Counter({
    name: 'db_queries_total',
    help: 'Database queries executed by this service instance, by origin (route template, or background)',
    labelNames: ['origin'] as const,
    registers: [registry],
  })
  return { registry, httpDuration, errorsTotal, dbQueries }
}

/** `GET /metrics` and the per-route histogram (route template, never the raw URL). */
export function installMetrics(app: AnyApp, metrics: ServiceMetrics, path = '/metrics') {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched'
    metrics.httpDuration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    )
    done()
  })
  app.get(path, async (_request, reply) => {
    reply.header('content-type', metrics.registry.contentType)
    return metrics.registry.metrics()
  })
}
