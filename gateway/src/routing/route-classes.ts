import type { RouteClass } from '@switchboard/auth'
import type { FastifyRequest } from 'fastify'

/**
 * The route patterns of each policy context. Fastify's router prefers the longest static prefix, so
 * `/api/v1/auth/login` (anonymous) beats `/api/v1/auth/*` (authenticated) beats `/api/v1/*` (staff) beats
 * `/api/*` (management). Must agree with routeClass() of packages/auth (checked by a test).
 * Class "optional": `/api/v1/ws` is the WebSocket upgrade (its context is websocket/proxy.ts); `/uploads` is
 * HTTP (plugins/routes.ts): a token is verified when present, an anonymous visitor passes without a principal.
 */
export const WEBSOCKET_PATHS = ['/api/v1/ws'] as const
export const CLASS_PATTERNS: Record<RouteClass, readonly string[]> = {
  optional: ['/api/v1/ws', '/uploads', '/uploads/*'],
  anonymous: [
    '/public/*',
    // server-rendered public pages: the help centre (ai-orchestrator) and the CSAT page (tickets)
    '/help/*',
    '/csat/*',
    '/api/v1/auth/login',
    '/api/v1/auth/register',
    '/api/v1/auth/refresh',
    '/api/v1/auth/logout',
    '/api/v1/auth/set-password',
  ],
  authenticated: ['/api/v1/auth/*'],
  staff: ['/api/v1/*'],
  service: ['/api/v1/metrics/ingest', '/api/v1/metrics/ingest/*'],
  // recording audio: its own route only for its larger body limit (plugins/body-limit.ts)
  management: ['/api/voice/recordings/:id/audio', '/api/*'],
}

/** Label for metrics: the class of a proxied route, `local` for the gateway's own, `unmatched` for 404s. */
export function routeClassOf(request: FastifyRequest): string {
  const cls = (request.routeOptions.config as { routeClass?: string } | undefined)?.routeClass
  if (cls) return cls
  return request.routeOptions.url ? 'local' : 'unmatched'
}
