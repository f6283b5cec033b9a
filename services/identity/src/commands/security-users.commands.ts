import type { Caller } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { isUserVisible } from '../db/scoped-users.repository.ts'
import { findSession, type SessionRow } from '../db/sessions.repository.ts'
import { findUserById, USER_STATUS, type UserRow } from '../db/users.repository.ts'
import { IdentityErrors } from '../errors.ts'
import { lockAdministrators, requireAnotherAdmin, requireManageable } from './admin-guard.ts'
import type { IdentityTx } from './identity-tx.ts'
import { revokeSession, revokeUserSessions, setUserStatus } from './revocation.ts'

/** A user of the caller's scope, or the same 404 as a missing one. */
async function requireVisible(tx: IdentityTx, userId: string): Promise<void> {
  if (!(await isUserVisible(tx.db, userId, tx.caller.scope))) throw new IdentityErrors.UserNotFound()
}

/** An operator ends one session of a user; an already revoked one answers with its current state (idempotent). */
export function revokeUserSessionCommand(
  svc: IdentityService,
  caller: Caller,
  userId: string,
  input: { session_id: string; reason?: string | undefined },
): Promise<{ before: SessionRow; after: SessionRow }> {
  return svc.transaction(caller, async (tx) => {
    await requireVisible(tx, userId)
    const before = await findSession(tx.db, input.session_id)
    const r = await revokeSession(tx, input.session_id, input.reason ?? 'security.session_revoke', userId)
    if (!r || !before) throw new IdentityErrors.SessionNotFound()
    return { before, after: r.session }
  })
}

/** An operator ends every active session of a user, optionally but one; answers those it ended. */
export function revokeAllUserSessionsCommand(
  svc: IdentityService,
  caller: Caller,
  userId: string,
  input: { except_session_id?: string | undefined; reason?: string | undefined },
): Promise<SessionRow[]> {
  return svc.transaction(caller, async (tx) => {
    await requireVisible(tx, userId)
    return revokeUserSessions(tx, userId, {
      exceptSessionId: input.except_session_id ?? '',
      reason: input.reason ?? 'security.sessions_revoke_all',
    })
  })
}

/**
 * Activates or deactivates a user. The change and its token-state event commit together, so every gateway
 * replica refuses an inactive user's tokens at once. Operators cannot deactivate themselves, a tenant administrator
 * cannot touch an administrator of wider reach (403), and the last active administrator stays (409).
 */
export async function setUserStatusCommand(
  svc: IdentityService,
  caller: Caller,
  userId: string,
  input: { status: string; reason?: string | undefined },
): Promise<{ before: UserRow; after: UserRow }> {
  const { status, reason } = input
  if (status === USER_STATUS.inactive && userId === caller.actor.user_id)
    throw new IdentityErrors.CannotDeactivateSelf()
  return svc.transaction(caller, async (tx) => {
    await lockAdministrators(tx)
    const before = (await isUserVisible(tx.db, userId, tx.caller.scope)) ? await findUserById(tx.db, userId) : undefined
    if (!before) throw new IdentityErrors.UserNotFound()
    if (before.status === status) return { before, after: before }
    await requireManageable(tx, before)
    if (status === USER_STATUS.inactive) await requireAnotherAdmin(tx, before)
    const after = await setUserStatus(tx, userId, status, reason ?? `status_${status}`)
    return { before, after: after ?? before }
  })
}
