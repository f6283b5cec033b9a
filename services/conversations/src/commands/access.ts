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
  const guard = postGuard(p)
  return guard !== undefined && (guard.agent_id === undefined || guard.agent_id === session.agent_id)
}

/**
 * mayPost as a condition on the session: none (`{}`: admins, services, supervisors post in any), the session's agent
 * (`{ agent_id }`), or undefined (this principal posts in no session as an agent).
 */
export function postGuard(p: Pick<Principal, 'kind' | 'user_id' | 'permissions'>): { agent_id?: string } | undefined {
  if (p.kind === 'admin' || p.kind === 'service') return {}
  if (p.kind !== 'agent') return undefined
  return hasPermission(p.permissions, SUPERVISE_PERMISSION) ? {} : { agent_id: p.user_id }
}

/** A party the realtime hub asks about before joining a socket to a session. */
export type Party =
  | { kind: 'customer'; customer_id: string }
  | { kind: 'visitor'; credential: string }
  | { kind: 'agent'; user_id: string; permissions: readonly string[] }
  | { kind: 'service'; service_id: string }

/**
 * How a party joins: `supervisor` is an agent (or admin) present through the permission, not the assignment;
 * `observer` an agent of the scope who may read the session (as over `/api/omni`) but neither post nor signal.
 */
export type JoinRole = 'customer' | 'visitor' | 'agent' | 'supervisor' | 'observer' | 'service'

/** The permission to read sessions over `/api/omni` (the gateway checks it there; the hub forwards it here). */
export const READ_SESSIONS_PERMISSION = 'workspace.read'

/**
 * How `party` may join `session`, or undefined: the owning customer; the visitor holding the credential issued
 * with the session (never the bare id); the assigned agent, one with the supervisor permission, or any agent who
 * may read the workspace's sessions (an observer); a service.
 */
export function joinRole(session: SessionRow, party: Party): JoinRole | undefined {
  switch (party.kind) {
    case 'customer':
      return session.customer_id !== null && session.customer_id === party.customer_id ? 'customer' : undefined
    case 'visitor':
      return visitorCredentialMatches(party.credential, session.visitor_secret_hash) ? 'visitor' : undefined
    case 'agent':
      if (session.agent_id === party.user_id) return 'agent'
      if (hasPermission(party.permissions, SUPERVISE_PERMISSION)) return 'supervisor'
      return hasPermission(party.permissions, READ_SESSIONS_PERMISSION) ? 'observer' : undefined
    case 'service':
      return 'service'
  }
}
