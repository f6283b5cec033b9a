import { type Claims, isTokenError } from '@switchboard/auth'
import type { Caller } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { findSession } from '../db/sessions.repository.ts'
import { verifyRefreshToken } from '../domain/tokens.ts'
import { IdentityErrors } from '../errors.ts'
import { revokeSession, revokeUserSessions } from './revocation.ts'

// The caller's own sessions: the user and session come from the verified principal, never from the input.
const own = (caller: Caller) => ({ userId: caller.actor.user_id, sessionId: caller.principal?.session_id ?? '' })

/** Ends the session the caller's token belongs to; 401 when it is no longer active. */
export async function logoutCurrent(svc: IdentityService, caller: Caller) {
  const { userId, sessionId } = own(caller)
  const result = sessionId
    ? await svc.transaction(caller, (tx) => revokeSession(tx, sessionId, 'logout', userId))
    : undefined
  if (!result?.changed) throw new IdentityErrors.SessionNotActive()
  return { session_id: sessionId, token_version: Number(result.session.token_version) }
}

/** Ends every other active session of the caller; the current one must itself be active. */
export async function logoutOthers(svc: IdentityService, caller: Caller) {
  const { userId, sessionId } = own(caller)
  const current = sessionId ? await findSession(svc.db, sessionId) : undefined
  if (!current || current.user_id !== userId || current.status !== 'active') {
    throw new IdentityErrors.SessionNotActive()
  }
  const revoked = await svc.transaction(caller, (tx) =>
    revokeUserSessions(tx, userId, { exceptSessionId: sessionId, reason: 'logout_others' }),
  )
  return { current_session_id: sessionId, count: revoked.length }
}

/**
 * Logout by refresh token (`POST /api/v1/auth/logout`, the browser's cookie or a JSON client's body): works when the
 * access token is gone (a reload) or expired. Any refresh token we signed for the session ends it, a rotated one
 * too; an ended session answers the same (idempotent), so a second tab's logout is not an error.
 */
export async function logoutByRefreshToken(svc: IdentityService, caller: Caller, token: string) {
  let claims: Claims
  try {
    claims = await verifyRefreshToken(svc.keys, token, svc.config.jwt.refresh_ttl_seconds)
  } catch (err) {
    if (isTokenError(err)) throw new IdentityErrors.InvalidRefreshToken(err.message)
    throw err
  }
  const session = await findSession(svc.db, claims.session_id)
  if (!session || session.user_id !== claims.sub) throw new IdentityErrors.InvalidRefreshToken('unknown session')
  const scope = { tenant_id: session.tenant_id, workspace_id: session.workspace_id }
  const result = await svc.transaction({ ...caller, scope }, (tx) =>
    revokeSession(tx, session.id, 'logout', claims.sub),
  )
  return {
    session_id: session.id,
    status: 'revoked' as const,
    token_version: Number(result?.session.token_version ?? 0),
  }
}
