import { REQUEST_ID_HEADER } from '@switchboard/contracts'
import {
  installErrorHandling,
  installHealth,
  installHttpTracing,
  type Logger,
  lazyChildLogger,
  type ReadinessCheck,
  requestIdOf,
  type StartupSource,
  sendError,
} from '@switchboard/platform'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify'
import type { GatewayConfig } from './config.ts'
import type { GatewayMetrics } from './metrics.ts'
import { routeClassOf } from './routing/route-classes.ts'

/**
 * The gateway's Fastify instance. Not platform's createApp: the public entry needs `trustProxy` (client
 * addresses behind a load balancer) and a latency histogram by route class rather than by route template
 * (every proxied path shares one wildcard template). Error body, health and metrics registry are platform's.
 */
export function createGatewayApp(
  config: GatewayConfig,
  logger: Logger,
  metrics: GatewayMetrics,
  readiness: Record<string, ReadinessCheck>,
  startup: StartupSource = {},
) {
  const fastify = Fastify({
    loggerInstance: logger.child({ service: 'gateway' }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger as never,
    bodyLimit: config.body_limit_bytes,
    // Fastify accepts a hop count too; its types only list the other forms.
    trustProxy: config.trust_proxy as boolean,
    requestIdHeader: false,
    genReqId: requestIdOf,
    forceCloseConnections: true,
    return503OnClosing: true,
    routerOptions: { maxParamLength: 500 },
    // A path whose percent-encoding is not UTF-8 (`%ED%A0%80`, an encoded lone surrogate) is refused by the router
    // before any hook: answered like any other path not in canonical form, in the fleet's error body.
    frameworkErrors: (error, request, reply) => {
      if (error.code === 'FST_ERR_BAD_URL') {
        reply.header(REQUEST_ID_HEADER, request.id)
        return sendError(reply, 400, 'PATH_INVALID', 'path is not in canonical form')
      }
      return sendError(reply, 400, 'BAD_REQUEST', error.message)
    },
    requestTimeout: config.server.request_timeout_ms,
    keepAliveTimeout: config.server.keep_alive_timeout_ms,
  })
  // Node's default (60 s) lets a client trickle its headers for a minute per socket.
  fastify.server.headersTimeout = config.server.headers_timeout_ms
  const app: FastifyInstance = fastify
  // first: the gateway's span is the root of a request's trace, and its traceparent goes upstream with the request
  installHttpTracing(app, 'gateway')
  // Synchronous hooks (done callback) on the hot path: an async hook costs a promise and a microtask turn.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id)
    done()
  })
  installErrorHandling(app, metrics.errorsTotal)
  installHealth(app, readiness, config.ready_timeout_ms + 500, {}, startup)
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpDuration.observe(
      { method: request.method, route: routeClassOf(request), status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    )
    done()
  })
  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', metrics.registry.contentType)
    return metrics.registry.metrics()
  })
  return app
}
