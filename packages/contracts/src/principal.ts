import { type Static, Type } from '@sinclair/typebox'

export const PrincipalKind = Type.Union([
  Type.Literal('end_user'),
  Type.Literal('agent'),
  Type.Literal('admin'),
  Type.Literal('service'),
])
export type PrincipalKind = Static<typeof PrincipalKind>

/**
 * What the gateway hands a service after it has verified the caller: the normalised principal plus the
 * effective request scope (token scope, narrowed by selectors for admin/service principals).
 * An empty tenant_id/workspace_id means "no restriction" and only occurs for admin and service principals.
 */
export const Principal = Type.Object({
  user_id: Type.String(),
  kind: PrincipalKind,
  roles: Type.Array(Type.String()),
  permissions: Type.Array(Type.String()),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  session_id: Type.String(),
  jti: Type.String(),
  /** the token's own scope, before selectors narrowed it */
  token_tenant_id: Type.String(),
  token_workspace_id: Type.String(),
})
export type Principal = Static<typeof Principal>

export const PRINCIPAL_HEADER = 'x-switchboard-principal'
export const REQUEST_ID_HEADER = 'x-request-id'

/**
 * Browser sessions (docs/api.md §2 "Browser clients"): a request with `X-Switchboard-Client: browser` gets its
 * refresh token in this HttpOnly cookie, scoped to the auth paths; the header is also the CSRF guard of the
 * cookie's use (a cross-site form cannot send it, a cross-origin script needs a CORS preflight the gateway refuses).
 */
export const BROWSER_CLIENT_HEADER = 'x-switchboard-client'
export const REFRESH_COOKIE = 'switchboard_refresh'
/** Covers `/api/v1/auth/refresh` and `/api/v1/auth/logout`, the two routes that read the cookie. */
export const REFRESH_COOKIE_PATH = '/api/v1/auth'
