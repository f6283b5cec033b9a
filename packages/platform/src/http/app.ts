import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { REQUEST_ID_HEADER } from '@switchboard/contracts'
import Fastify, { type FastifyInstance, LogController } from 'fastify'
import { type Logger, lazyChildLogger } from '../logger.ts'
import type { StartupSource } from '../service/startup.ts'
import { installErrorHandling } from './errors.ts'
import { installHealth, type ReadinessCheck, type ReadyDetails } from './health.ts'
import { installInputGuard } from './input-guard.ts'
import { lazyCompilers } from './lazy-schemas.ts'
import { createMetrics, installMetrics, type ServiceMetrics } from './metrics.ts'
import { requestIdOf } from './request-id.ts'
import { installHttpTracing } from './tracing.ts'

export interface AppOptions {
  service: string
  logger: Logger
  bodyLimit?: number
  readiness?: Record<string, ReadinessCheck>
  /** `/ready`'s informational `details` (never fails readiness), filled in once the service exists */
  readyDetails?: ReadyDetails
  /** the unit's background start (`service/startup.ts`): `/ready` is 503 until it is done; filled in later */
  startup?: StartupSource
  metrics?: ServiceMetrics
}

/**
 * A Fastify instance with what every unit of the fleet shares: the request id (accepted when well formed,
 * generated otherwise, echoed on every response), the error body, `/health`, `/ready`, `/metrics`.
 */
export function createApp(opts: AppOptions) {
  const metrics = opts.metrics ?? createMetrics(opts.service)
  const compilers = lazyCompilers()
  const app = Fastify({
    loggerInstance: opts.logger.child({ service: opts.service }),
    // per-request access logs cost throughput on the hot path; 5xx are logged by the error handler
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger as never,
    bodyLimit: opts.bodyLimit ?? 1_048_576,
    requestIdHeader: false,
    genReqId: requestIdOf,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true, allErrors: false } },
    // each route's schemas compiled on its first use, not at start (lazy-schemas.ts)
    schemaController: { compilersFactory: compilers.compilersFactory as never },
    forceCloseConnections: true,
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>()
  app.decorate('metrics', metrics)
  app.decorate('compileSchemas', compilers.compilePending)
  installHttpTracing(app, opts.service) // first: every later hook runs in the request's span (when tracing is on)
  // Per-request hooks take the done callback when they have nothing to await: an async hook costs a
  // promise and a microtask turn on every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id)
    done()
  })
  installErrorHandling(app, metrics.errorsTotal)
  installInputGuard(app)
  installMetrics(app, metrics)
  installHealth(app, opts.readiness ?? {}, undefined, opts.readyDetails, opts.startup)
  return app
}

export type App = ReturnType<typeof createApp>

/** Any Fastify instance, whatever its logger and type provider: what the shared installers accept. */
export type AnyApp = FastifyInstance<any, any, any, any, any>

declare module 'fastify' {
  interface FastifyInstance {
    metrics: ServiceMetrics
    /** compiles every route schema not used yet (they compile on first use); throws the first that cannot */
    compileSchemas(): void
  }
}
