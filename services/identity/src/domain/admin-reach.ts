import { STAFF_ROLES } from '@switchboard/auth'
import type { Principal } from '@switchboard/contracts'

/**
 * How far an administrator reaches: `''` platform-wide (every tenant), or the one tenant it administers. A user's
 * reach is its `admin_tenant_id` (meaningful for role admin only); a caller's is its token's own scope, so a
 * platform admin signed in to one workspace acts as that workspace's administrator there.
 */
export type Reach = string

export const PLATFORM: Reach = ''

/** The caller's reach: a principal whose token is unscoped (platform admin, service) reaches every tenant. */
export function callerReach(p: Pick<Principal, 'token_tenant_id'> | undefined): Reach {
  return p?.token_tenant_id ?? PLATFORM
}

/** What a user is as an administrator, when it is one. */
export interface AdminGrant {
  role: string
  admin_tenant_id: string
}

export const isAdmin = (g: Pick<AdminGrant, 'role'>) => g.role === 'admin'

/**
 * Only administrators and services grant admin: a staff principal given `security.write` by a custom permission
 * table manages accounts, but never makes anyone more than it is.
 */
export const mayGrantAdmin = (kind: string | undefined) => kind === 'admin' || kind === 'service'

/**
 * Whether a caller of `reach` may change `target` (its status, or with `next` its role), with the tenants the
 * target has records in; the reason when not. A tenant administrator works within its tenant only: it may not touch
 * an administrator of wider or other reach, change the role of a user who also lives in another tenant, or grant
 * admin beyond its tenant.
 */
export function grantRefusal(
  reach: Reach,
  target: AdminGrant,
  next: AdminGrant | undefined,
  targetTenants: readonly string[],
): string | undefined {
  if (reach === PLATFORM) return undefined
  if (isAdmin(target) && target.admin_tenant_id !== reach) {
    return 'a tenant administrator cannot manage an administrator of another or a wider reach'
  }
  if (!next) return undefined
  // A role is global: changing it would change what the user may do in that other tenant too.
  if (targetTenants.some((t) => t !== reach)) return 'the user has records in another tenant'
  if (isAdmin(next) && next.admin_tenant_id !== reach)
    return 'a tenant administrator can grant admin of its own tenant only'
  return undefined
}

/**
 * Whether removing `user`'s admin grant (demotion, a narrower reach, deactivation) needs another administrator to
 * remain: the last active platform administrator, and the last active administrator of a tenant, stay.
 */
export function losesAdmin(before: AdminGrant, after: AdminGrant | undefined): boolean {
  if (!isAdmin(before)) return false
  return !after || !isAdmin(after) || after.admin_tenant_id !== before.admin_tenant_id
}

/**
 * Why `next` (a staff role: agent, supervisor, admin) would leave the user without a place to sign in as staff, given
 * the kinds of its bindings; undefined when it would not. Staff act through an agent record: signed in through a
 * customer binding a staff role is an end user there, with no staff permissions (domain/tokens.ts), so a role change
 * does not make a customer staff — it is refused until `POST /api/agents` has bound the user (which makes a customer
 * an agent). A platform administrator with no binding at all signs in unscoped and needs none.
 */
export function staffBindingRefusal(next: AdminGrant, bindingKinds: readonly string[]): string | undefined {
  if (!STAFF_ROLES.includes(next.role) || bindingKinds.includes('agent')) return undefined
  if (isAdmin(next) && next.admin_tenant_id === PLATFORM && bindingKinds.length === 0) return undefined
  return `role ${next.role} needs an agent record: the user has none, so it would still sign in as a customer; bind it first with POST /api/agents`
}
