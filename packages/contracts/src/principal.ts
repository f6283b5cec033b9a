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
