import type { PermissionTable, RouteClass } from '@switchboard/auth'
import type { FastifyInstance, HTTPMethods } from 'fastify'
import type { AuditSink } from '../audit/audit-sink.ts'
import { GatewayErrors } from '../errors.ts'
import type { GatewayMetrics } from '../metrics.ts'
import { CLASS_PATTERNS, WEBSOCKET_PATHS } from '../routing/route-classes.ts'
import { isCanonicalPath, type ServiceTable } from '../routing/service-table.ts'
import { type AuthDeps, installAuthentication } from './authenticate.ts'
import { LARGE_BODY_PATTERNS } from './body-limit.ts'
import { installPermissionCheck } from './permission.ts'
import { installRefusalAudit } from './refusal-audit.ts'
import { installScopeGuard } from './scope-guard.ts'

const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

export interface RoutesDeps {
  auth: AuthDeps
  /** where the management context's refusal records go */
  audit: AuditSink
  metrics: GatewayMetrics
  permissionTable: PermissionTable | undefined
  pick: (service: string) => string | undefined
  table: ServiceTable
  /** the body limit of the routes that carry files (LARGE_BODY_PATTERNS) */
  uploadBodyLimit: number
}

/** First policy of every proxied context: which service (404 if none), and is the path unambiguous. */
export function installRouting(app: FastifyInstance, table: ServiceTable) {
  app.addHook('onRequest', (request, _reply, done) => {
    const q = request.url.indexOf('?')
    const path = q === -1 ? request.url : request.url.slice(0, q)
    if (!isCanonicalPath(path)) return done(new GatewayErrors.PathInvalid())
    const service = table.serviceFor(path)
    if (!service) return done(new GatewayErrors.RouteNotFound(path))
    request.gw.service = service
    done()
  })
}

/**
 * One encapsulated context per route class; what guards a route is which context it is in (docs/conventions.md §5).
 * Hook order inside a context: routing → authentication → principal kind → scope → permission → proxy.
 */
export async function proxiedRoutes(app: FastifyInstance, deps: RoutesDeps) {
  const register = (cls: RouteClass, policies: (ctx: FastifyInstance) => void) =>
    app.register(async (ctx) => {
      installRouting(ctx, deps.table)
      policies(ctx)
      for (const url of CLASS_PATTERNS[cls]) {
        if ((WEBSOCKET_PATHS as readonly string[]).includes(url)) continue // websocket/proxy.ts's own context
        ctx.route({
          method: METHODS,
          url,
          config: { routeClass: cls },
          ...(LARGE_BODY_PATTERNS.includes(url) ? { bodyLimit: deps.uploadBodyLimit } : {}),
          handler: async (request, reply) => {
            const service = request.gw.service!
            const base = deps.pick(service)
            if (!base) {
              deps.metrics.upstreamErrors.inc({ service, kind: 'not_configured' })
              throw new GatewayErrors.UpstreamNotConfigured(service)
            }
            return app.proxyTo(request, reply, base)
          },
        })
      }
    })

  register('anonymous', () => {})
  // a token when present (verified, scoped, forwarded), anonymous otherwise: the service decides who may read what
  register('optional', (ctx) => {
    installAuthentication(ctx, 'optional', deps.auth)
    installScopeGuard(ctx, deps.permissionTable, { anonymous: true })
  })
  for (const cls of ['authenticated', 'staff', 'service'] as const) {
    register(cls, (ctx) => {
      installAuthentication(ctx, cls, deps.auth)
      installScopeGuard(ctx, deps.permissionTable)
    })
  }
  register('management', (ctx) => {
    installRefusalAudit(ctx, deps.audit)
    installAuthentication(ctx, 'management', deps.auth)
    installScopeGuard(ctx, deps.permissionTable)
    installPermissionCheck(ctx)
  })
}
