import type { PrincipalKind } from '@switchboard/contracts'
import type { Claims } from './claims.ts'

/** Roles whose users are staff of kind `agent`: agents and their supervisors (docs/api.md §3). */
export const AGENT_KIND_ROLES: readonly string[] = ['agent', 'supervisor']

/** Every staff role: the ones a user signed in through a customer record does not act as. */
export const STAFF_ROLES: readonly string[] = ['admin', ...AGENT_KIND_ROLES]

/**
 * The principal kind of a token. An explicit claim wins; otherwise admin maps to `admin`, agent and
 * supervisor to `agent` (a supervisor is staff with wider permissions, not another kind), and every other user
 * is an end_user. `service` is never inferred from a role: only the CLI mints it, explicitly.
 */
export function principalKind(claims: Pick<Claims, 'roles' | 'principal_kind'>): PrincipalKind {
  if (claims.principal_kind) return claims.principal_kind
  if (claims.roles.includes('admin')) return 'admin'
  if (claims.roles.some((role) => AGENT_KIND_ROLES.includes(role))) return 'agent'
  return 'end_user'
}
