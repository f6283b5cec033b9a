import { IdentityEvents } from '@switchboard/contracts'
import { type Caller, concreteScope, newId } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import type { AgentRow } from '../db/agents.repository.ts'
import { insertAgentBinding } from '../db/bindings.repository.ts'
import { agentFacts, registeredFacts } from '../db/event-facts.ts'
import { isUserVisible } from '../db/scoped-users.repository.ts'
import { findUserById, insertUser, ROLES, takenIdentifiers, type UserRow } from '../db/users.repository.ts'
import { callerReach, mayGrantAdmin, PLATFORM } from '../domain/admin-reach.ts'
import { unknowablePassword } from '../domain/usernames.ts'
import { IdentityErrors } from '../errors.ts'
import type { CreateOperatorBody, RoleBody } from '../schemas/operators.schemas.ts'
import { lockAdministrators, requireAnotherAdmin, requireManageable, requireStaffBinding } from './admin-guard.ts'
import { publishUserTokenState, setUserRole } from './revocation.ts'
import { ensureScopeForRecords } from './scope-registry.ts'
import { issueSetPasswordLink } from './set-password.commands.ts'

export interface OperatorCreated {
  user: UserRow
  /** the agent record in the request's workspace; none for a platform admin created without a scope */
  agent: AgentRow | undefined
  /** when no password was given: the one-time token for POST /api/v1/auth/set-password */
  setPassword: { token: string; expires_at: string } | undefined
}

const notPlatformRole = () =>
  new IdentityErrors.InvalidInput('body.platform_admin: only role admin can be platform-wide')
const notGrantable = () =>
  new IdentityErrors.RoleNotGrantable('a tenant administrator cannot grant a platform-wide administrator')

/**
 * POST /api/security/users: an operator account (admin, supervisor or agent) with an agent record in the request's
 * workspace, so it signs in there. A platform administrator (`platform_admin`, platform callers only) needs no
 * workspace; any other admin administers the request's tenant. Without a password the answer carries a one-time
 * set-password token (24 h).
 */
export async function createOperator(
  svc: IdentityService,
  caller: Caller,
  body: CreateOperatorBody,
): Promise<OperatorCreated> {
  const platformAdmin = body.platform_admin === true
  if (platformAdmin && body.role !== ROLES.admin) throw notPlatformRole()
  if (body.role === ROLES.admin && !mayGrantAdmin(caller.principal?.kind)) {
    throw new IdentityErrors.RoleNotGrantable('only an administrator or a service grants admin')
  }
  if (platformAdmin && callerReach(caller.principal) !== PLATFORM) throw notGrantable()
  // Only a platform admin may exist without a workspace; with selectors it is bound there like everyone else.
  const scope = platformAdmin && !caller.scope.tenant_id ? undefined : concreteScope(caller)
  const adminTenant = body.role === ROLES.admin && !platformAdmin ? (scope?.tenant_id ?? '') : ''
  const email = body.email.toLowerCase()
  const passwordHash = await svc.passwords.hash(body.password ?? unknowablePassword())
  return svc.transaction(caller, async (tx) => {
    if (scope) await ensureScopeForRecords(tx, scope)
    const taken = await takenIdentifiers(tx.db, body.username, email)
    if (taken.length > 0) throw new IdentityErrors.DuplicateUser(taken.join(' and '))
    const now = new Date().toISOString()
    const user = await insertUser(tx.db, {
      id: newId(),
      username: body.username,
      email,
      password_hash: passwordHash,
      name: body.name ?? body.username,
      phone: '',
      role: body.role,
      admin_tenant_id: adminTenant,
      now,
    })
    await tx.emit(IdentityEvents.userRegistered, registeredFacts(user))
    await publishUserTokenState(tx, user, 'registered')
    let agent: AgentRow | undefined
    if (scope) {
      agent = await insertAgentBinding(tx.db, {
        id: newId(),
        user_id: user.id,
        ...scope,
        name: user.name,
        department: '',
        now,
      })
      await tx.emit(IdentityEvents.agentUpserted, agentFacts(agent), scope)
    }
    const setPassword = body.password ? undefined : await issueSetPasswordLink(tx, user.id)
    return { user, agent, setPassword }
  })
}

/** The admin reach a role change gives: platform-wide on request, else the caller's tenant, else the current one. */
function nextReach(caller: Caller, before: UserRow, body: RoleBody): string {
  if (body.role !== ROLES.admin) return ''
  if (body.platform_admin) return PLATFORM
  const reach = callerReach(caller.principal)
  if (reach !== PLATFORM) return reach
  if (caller.scope.tenant_id) return caller.scope.tenant_id
  if (before.role === ROLES.admin) return before.admin_tenant_id
  throw new IdentityErrors.InvalidInput(
    'body.platform_admin: name the tenant the admin administers (X-Tenant-ID), or set platform_admin',
  )
}

/**
 * PUT /api/security/users/:id/role. The user's tokens are revoked (token_version + 1: old tokens carried the old
 * permissions) and identity.user.role_changed is announced. The last active administrator of the platform or of a
 * tenant stays (409); a tenant administrator changes users of its tenant only (others 404) and grants no wider
 * admin (403); a staff role needs an agent record to sign in with (409 IDENTITY_AGENT_REQUIRED: a customer is bound
 * with POST /api/agents first). The same role and reach again changes nothing.
 */
export function changeUserRole(svc: IdentityService, caller: Caller, userId: string, body: RoleBody) {
  if (body.platform_admin && body.role !== ROLES.admin) throw notPlatformRole()
  return svc.transaction(caller, async (tx): Promise<{ before: UserRow; after: UserRow }> => {
    await lockAdministrators(tx)
    const before = (await isUserVisible(tx.db, userId, tx.caller.scope)) ? await findUserById(tx.db, userId) : undefined
    if (!before) throw new IdentityErrors.UserNotFound()
    const next = { role: body.role, admin_tenant_id: nextReach(tx.caller, before, body) }
    if (next.admin_tenant_id === PLATFORM && next.role === ROLES.admin && callerReach(caller.principal) !== PLATFORM)
      throw notGrantable()
    await requireManageable(tx, before, next)
    if (before.role === next.role && before.admin_tenant_id === next.admin_tenant_id) return { before, after: before }
    await requireStaffBinding(tx, before, next)
    await requireAnotherAdmin(tx, before, next)
    const after = await setUserRole(tx, userId, next.role, body.reason ?? 'role_changed', next.admin_tenant_id)
    return { before, after: after ?? before }
  })
}
