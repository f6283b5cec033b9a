import {
  type AccessLifetimes,
  accessLifetimeLimit,
  createTokenVerifier,
  type Keyring,
  kindAllowed,
  principalKind,
  type RouteClass,
  TokenError,
  TokenErrorReason,
} from '@switchboard/auth'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { GatewayErrors, TokenRefused } from '../errors.ts'
import type { GatewayMetrics } from '../metrics.ts'
import { type TokenState, TokenStateUnavailableError } from '../token-state/token-state.ts'

export interface AuthDeps {
  keys: Keyring
  maxTokenBytes: number
  /** how long users' and services' access tokens may live (packages/auth/src/lifetimes.ts) */
  lifetimes: AccessLifetimes
  tokenState: TokenState
  metrics: GatewayMetrics
}

/** Where a request carries its access token; '' when it carries none. */
export type TokenSource = (request: FastifyRequest) => string

/** The scheme name is case-insensitive (RFC 7235 §2.1): `bearer` and `BEARER` are Bearer. */
export function bearer(request: FastifyRequest): string {
  const h = request.headers.authorization
  if (typeof h !== 'string') return ''
  const m = /^Bearer +(\S+)\s*$/i.exec(h)
  return m?.[1] ?? (h.trim() === '' ? '' : 'malformed')
}

/** A token in the URL ends up in access logs, proxies and browser history, so it is refused outright. */
function tokenInQuery(request: FastifyRequest): boolean {
  const q = request.url.indexOf('?')
  return q !== -1 && new URLSearchParams(request.url.slice(q + 1)).has('access_token')
}

/**
 * Authentication then the principal-kind check, as the first policies of a protected context:
 * a verified access token (packages/auth), accepted by the token-state rules, of a kind this class admits.
 * Class `optional` (the public WebSocket) lets a request without any token through as anonymous
 * (no claims, no principal); a token that is present is held to every rule.
 */
export function installAuthentication(
  app: FastifyInstance,
  cls: RouteClass,
  deps: AuthDeps,
  tokenOf: TokenSource = bearer,
) {
  const verify = createTokenVerifier(deps.keys, {
    expectedUse: 'access',
    maxTokenBytes: deps.maxTokenBytes,
    maxLifetimeSeconds: accessLifetimeLimit(deps.lifetimes),
  })
  app.addHook('onRequest', async (request) => {
    if (tokenInQuery(request)) {
      deps.metrics.tokenRefusals.inc({ code: 'TOKEN_IN_QUERY' })
      throw new GatewayErrors.TokenInQuery()
    }
    const token = tokenOf(request)
    if (token === '' && cls === 'optional') return
    try {
      const claims = await verify(token)
      const kind = principalKind(claims)
      const check = await deps.tokenState.check(claims, kind)
      if (!check.ok) {
        deps.metrics.tokenRefusals.inc({ code: 'TOKEN_REVOKED' })
        throw new GatewayErrors.TokenRevoked(check.message)
      }
      request.gw.claims = claims
      request.gw.kind = kind
    } catch (err) {
      if (err instanceof TokenStateUnavailableError) throw new GatewayErrors.TokenStateUnavailable()
      if (!(err instanceof TokenError)) throw err
      deps.metrics.tokenRefusals.inc({ code: err.reason })
      const E = TokenRefused[err.reason] ?? TokenRefused[TokenErrorReason.invalid]
      throw new E(err.reason === TokenErrorReason.missing ? 'authentication required' : err.message)
    }
  })
  app.addHook('onRequest', (request, _reply, done) => {
    const kind = request.gw.kind
    if (kind === undefined) return done() // anonymous, only reachable in class `optional`
    done(kindAllowed(cls, kind) ? undefined : new GatewayErrors.PrincipalKindForbidden(kind))
  })
}
