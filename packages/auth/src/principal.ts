import type { PrincipalKind } from '@switchboard/contracts'
import type { Claims } from './claims.ts'

/**
 * The principal kind of a token. An explicit claim wins; otherwise admin/agent roles map to their kind and
 * every other user is an end_user. `service` is never inferred from a role: only the CLI mints it, explicitly.
 */
export function principalKind(claims: Pick<Claims, 'roles' | 'principal_kind'>): PrincipalKind {
  if (claims.principal_kind) return claims.principal_kind
  if (claims.roles.includes('admin')) return 'admin'
  if (claims.roles.includes('agent')) return 'agent'
  return 'end_user'
}
