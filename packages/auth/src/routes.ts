import type { PrincipalKind } from '@switchboard/contracts'

/**
 * Who may call a path, before any resource permission:
 * - anonymous: no token needed (a token, if sent, is ignored and never forwarded)
 * - optional: a token is verified when present (the public WebSocket, uploads: anonymous widget visitors too)
 * - authenticated: any verified principal, end users included (auth self-service)
 * - staff: agent, admin or service (AI, real-time management)
 * - service: service principals only (metrics ingest)
 * - management: /api/* — end users refused, then the resource permission applies
 */
export type RouteClass = 'anonymous' | 'optional' | 'authenticated' | 'staff' | 'service' | 'management'

const ANONYMOUS_EXACT = new Set([
  '/health',
  '/ready',
  '/metrics',
  '/docs',
  '/openapi.json',
  '/api/v1/auth/register',
  '/api/v1/auth/login',
  '/api/v1/auth/refresh',
  '/api/v1/auth/logout',
  '/api/v1/auth/set-password',
])

function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`)
}

/** Classifies a path (without query string). Unknown /api/v1 areas default to staff: closed, not open. */
export function routeClass(path: string): RouteClass {
  if (ANONYMOUS_EXACT.has(path) || under(path, '/public') || under(path, '/docs')) {
    return 'anonymous'
  }
  if (path === '/api/v1/ws' || under(path, '/uploads')) return 'optional'
  if (under(path, '/api/v1/auth')) return 'authenticated'
  if (under(path, '/api/v1/metrics/ingest')) return 'service'
  if (under(path, '/api/v1')) return 'staff'
  if (under(path, '/api')) return 'management'
  return 'anonymous'
}

const ALLOWED: Record<RouteClass, readonly PrincipalKind[]> = {
  anonymous: ['end_user', 'agent', 'admin', 'service'],
  optional: ['end_user', 'agent', 'admin', 'service'],
  authenticated: ['end_user', 'agent', 'admin', 'service'],
  staff: ['agent', 'admin', 'service'],
  service: ['service'],
  management: ['agent', 'admin', 'service'],
}

export function kindAllowed(cls: RouteClass, kind: PrincipalKind): boolean {
  return ALLOWED[cls].includes(kind)
}

/** Every class that verifies a token is scope-guarded: /api/* and the protected /api/v1/* (docs/api.md §4). */
export function scopeGuarded(cls: RouteClass): boolean {
  return cls !== 'anonymous'
}
