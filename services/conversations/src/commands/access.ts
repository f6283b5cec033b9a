import { hasPermission, SUPERVISE_PERMISSION } from '@switchboard/auth'
import type { Principal } from '@switchboard/contracts'
import type { SessionRow } from '../db/sessions.repository.ts'
import { visitorCredentialMatches } from '../domain/visitor-credential.ts'

/**
 * Who may read, post in and join a session (README "Rules", docs/architecture.md §5). Scope is not decided here:
 * callers load the session with the request's scope first, so anything outside it is already "not found".
 */

/** Staff reading `/api/omni`: agents read any session of their scope; admins and services too. */
export const mayRead = (p: Pick<Principal, 'kind'>) => p.kind === 'agent' || p.kind === 'admin' || p.kind === 'service'

/** Posting as an agent: the agent the session is assigned to, a supervisor (`workspace.supervise`), admins, services. */
export function mayPost(p: Pick<Principal, 'kind' | 'user_id' | 'permissions'>, session: Pick<SessionRow, 'agent_id'>) {
  if (p.kind === 'admin' || p.kind === 'service') return true
  if (p.kind !== 'agent') return false
  return session.agent_id === p.user_id || hasPermission(p.permissions, SUPERVISE_PERMISSION)
}

/** A party the realtime hub asks about before joining a socket to a session. */
export type Party =
  | { kind: 'customer'; customer_id: string }
  | { kind: 'visitor'; credential: string }
  | { kind: 'agent'; user_id: string; permissions: readonly string[] }
  | { kind: 'service'; service_id: string }

/** How a party joins: `supervisor` is an agent (or admin) present through the permission, not the assignment. */
export type JoinRole = 'customer' | 'visitor' | 'agent' | 'supervisor' | 'service'

/**
 * How `party` may join `session`, or undefined: the owning customer; the visitor holding the credential issued
 * with the session (never the bare id); the assigned agent or one with the supervisor permission; a service.
 */
export function joinRole(session: SessionRow, party: Party): JoinRole | undefined {
  switch (party.kind) {
    case 'customer':
      return session.customer_id !== null && session.customer_id === party.customer_id ? 'customer' : undefined
    case 'visitor':
      return visitorCredentialMatches(party.credential, session.visitor_secret_hash) ? 'visitor' : undefined
    case 'agent':
      if (session.agent_id === party.user_id) return 'agent'
      return hasPermission(party.permissions, SUPERVISE_PERMISSION) ? 'supervisor' : undefined
    case 'service':
      return 'service'
  }
}
