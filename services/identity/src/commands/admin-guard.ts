import { otherActiveAdmins } from '../db/admins.repository.ts'
import { type Binding, listBindings } from '../db/bindings.repository.ts'
import { USER_STATUS, type UserRow } from '../db/users.repository.ts'
import {
  type AdminGrant,
  callerReach,
  grantRefusal,
  isAdmin,
  losesAdmin,
  mayGrantAdmin,
  staffBindingRefusal,
} from '../domain/admin-reach.ts'
import { IdentityErrors } from '../errors.ts'
import type { IdentityTx } from './identity-tx.ts'

/*
 * Steps every change of an operator's role or status runs inside its unit of work (operators.commands.ts,
 * security-users.commands.ts): who may change whom, and the last administrator rule.
 */

/**
 * Serialises changes that could remove administrators: two admins demoting each other at once must not both see
 * the other as "another admin".
 */
export async function lockAdministrators(tx: IdentityTx): Promise<void> {
  await tx.advisoryLock('identity.admins')
}

const tenantsOf = (bindings: readonly Binding[]) => [...new Set(bindings.map((b) => b.tenant_id))]

/** 403 IDENTITY_ROLE_NOT_GRANTABLE unless the caller may change `target` (into `next`, for a role change). */
export async function requireManageable(tx: IdentityTx, target: UserRow, next?: AdminGrant): Promise<void> {
  if (next && isAdmin(next) && !mayGrantAdmin(tx.caller.principal?.kind)) {
    throw new IdentityErrors.RoleNotGrantable('only an administrator or a service grants admin')
  }
  const refusal = grantRefusal(
    callerReach(tx.caller.principal),
    target,
    next,
    tenantsOf(await listBindings(tx.db, target.id)),
  )
  if (refusal) throw new IdentityErrors.RoleNotGrantable(refusal)
}

/**
 * 409 IDENTITY_LAST_ADMIN when `before` (an active administrator) would stop being one (demoted, narrowed,
 * deactivated: `after` undefined) and no other active administrator keeps its reach: the platform's, or its tenant's.
 */
export async function requireAnotherAdmin(tx: IdentityTx, before: UserRow, after?: AdminGrant): Promise<void> {
  if (before.status !== USER_STATUS.active || !losesAdmin(before, after)) return
  const reach = before.admin_tenant_id
  if ((await otherActiveAdmins(tx.db, reach, before.id)) > 0) return
  throw new IdentityErrors.LastAdmin(
    reach
      ? `the last active administrator of tenant ${reach} cannot be demoted or deactivated`
      : 'the last active platform administrator cannot be demoted or deactivated',
  )
}

/** 409 IDENTITY_AGENT_REQUIRED when `next` is a staff role the user could not sign in as (no agent record). */
export async function requireStaffBinding(tx: IdentityTx, target: UserRow, next: AdminGrant): Promise<void> {
  const refusal = staffBindingRefusal(
    next,
    (await listBindings(tx.db, target.id)).map((b) => b.kind),
  )
  if (refusal) throw new IdentityErrors.AgentRequired(refusal)
}
