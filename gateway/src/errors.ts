import { TokenErrorReason } from '@switchboard/auth'
import { createError } from '@switchboard/platform'

/** The gateway's refusals. Each becomes the fleet error body through the platform error handler. */
export const GatewayErrors = {
  RouteNotFound: createError('ROUTE_NOT_FOUND', 'no service serves %s', 404),
  PathInvalid: createError('PATH_INVALID', 'path is not in canonical form', 400),
  UpstreamNotConfigured: createError('UPSTREAM_NOT_CONFIGURED', 'service %s is not configured', 503),
  UpstreamUnavailable: createError('UPSTREAM_UNAVAILABLE', 'service %s did not answer', 502),
  UpstreamTimeout: createError('UPSTREAM_TIMEOUT', 'service %s answered too slowly', 504),
  UpgradeRequired: createError('UPGRADE_REQUIRED', 'this path is a WebSocket: send an upgrade request', 426),
  WebsocketNotServed: createError('WEBSOCKET_NOT_SERVED', 'only /api/v1/ws accepts WebSocket upgrades', 400),
  WebsocketClientCapacity: createError(
    'WEBSOCKET_CLIENT_CAPACITY',
    'too many open WebSocket connections for this client',
    429,
  ),
  SubprotocolRequired: createError(
    'SUBPROTOCOL_REQUIRED',
    'offer a sub-protocol (e.g. switchboard.v1) next to the bearer entry',
    400,
  ),
  ShuttingDown: createError('SHUTTING_DOWN', 'this gateway replica is shutting down, retry', 503),
  WebsocketCapacity: createError('WEBSOCKET_CAPACITY', 'too many open WebSocket connections, retry later', 503),
  BodyTooLarge: createError('BODY_TOO_LARGE', 'request body is too large', 413),
  BodyTooDeep: createError('BODY_TOO_DEEP', 'body: JSON nested deeper than %d levels', 400),
  BodyInvalidJson: createError('BODY_INVALID_JSON', 'body: not a JSON document', 400),
  RateLimited: createError('RATE_LIMITED', 'rate limit exceeded (%s), retry in %d s', 429),
  TokenInQuery: createError('TOKEN_IN_QUERY', 'tokens are accepted only in the Authorization header', 401),
  TokenRevoked: createError('TOKEN_REVOKED', '%s', 401),
  TokenStateUnavailable: createError('TOKEN_STATE_UNAVAILABLE', 'token state could not be checked', 503),
  PrincipalKindForbidden: createError('PRINCIPAL_KIND_FORBIDDEN', '%s principals may not call this path', 403),
  PermissionDenied: createError('PERMISSION_DENIED', 'permission %s is required', 403),
}

/** One 401 class per token refusal reason, so the body's `code` says why (expired → refresh; else log in). */
export const TokenRefused = Object.fromEntries(
  Object.values(TokenErrorReason).map((reason) => [reason, createError(reason, '%s', 401)]),
) as Record<TokenErrorReason, ReturnType<typeof createError>>

/** Scope guard failures keep the status and code resolveScope chose (400 or 403). */
export function scopeError(status: 400 | 403, code: string, message: string) {
  const E = createError(code, '%s', status)
  return new E(message)
}
