import { IdentityEvents } from '@switchboard/contracts'
import { type DeniedRow, deniedToken, insertDenied } from '../db/denylist.repository.ts'
import {
  activeSessionIds,
  findSession,
  revokeSessionRow,
  type SessionRow,
  sessionTokenState,
} from '../db/sessions.repository.ts'
import {
  bumpUserTokenVersion,
  findUserById,
  type UserRow,
  updateUserRole,
  updateUserStatus,
  userTokenState,
} from '../db/users.repository.ts'
import { wholeSeconds } from '../domain/tokens.ts'
import type { IdentityTx } from './identity-tx.ts'

/*
 * Every change of token state, whoever asks for it (self-service logout, refresh, the security surface,
 * agent/customer revoke), goes through these steps: the row change and its token-state event are written in
 * the command's unit of work, so they commit together and every gateway replica hears of it.
 */

export function publishUserTokenState(tx: IdentityTx, user: UserRow, reason: string) {
  return tx.emit(IdentityEvents.userTokenState, { user: userTokenState(user), reason })
}

export function publishSessionTokenState(tx: IdentityTx, session: SessionRow, reason: string) {
  return tx.emit(IdentityEvents.sessionTokenState, { session: sessionTokenState(session), reason })
}

/**
 * User revoke: token_version + 1, token_valid_after = now, seq + 1. Every token issued before is refused.
 * Undefined when the user does not exist.
 */
export async function revokeUserTokens(tx: IdentityTx, userId: string, reason: string) {
  const now = new Date()
  const user = await bumpUserTokenVersion(tx.db, userId, wholeSeconds(now), now.toISOString())
  if (!user) return undefined
  await publishUserTokenState(tx, user, reason)
  return { user, state: userTokenState(user) }
}

/**
 * Revokes one auth session (status revoked, token_version + 1). `changed` is false when it was not active
 * (already revoked): the current row is returned and no event is written. Undefined when it does not exist
 * or belongs to another user than `userId` (when given).
 */
export async function revokeSession(
  tx: IdentityTx,
  sessionId: string,
  reason: string,
  userId?: string,
): Promise<{ session: SessionRow; changed: boolean } | undefined> {
  const current = await findSession(tx.db, sessionId)
  if (!current || (userId !== undefined && current.user_id !== userId)) return undefined
  const revoked = await revokeSessionRow(tx.db, sessionId, reason, new Date().toISOString())
  if (!revoked) return { session: current, changed: false }
  await publishSessionTokenState(tx, revoked, reason)
  return { session: revoked, changed: true }
}

/** Revokes all active sessions of a user, optionally keeping one; returns those it revoked. */
export async function revokeUserSessions(
  tx: IdentityTx,
  userId: string,
  opts: { exceptSessionId?: string; reason: string },
): Promise<SessionRow[]> {
  const ids = await activeSessionIds(tx.db, userId, opts.exceptSessionId ?? '')
  const out: SessionRow[] = []
  for (const id of ids) {
    const r = await revokeSession(tx, id, opts.reason, userId)
    if (r?.changed) out.push(r.session)
  }
  return out
}

export interface DenyInput {
  jti: string
  user_id: string
  session_id: string
  token_use: string
  /** the token's own expiry: after it the record protects nothing and is cleaned up */
  expires_at: string
  revoked_by: string
  reason: string
}

/** Puts a jti on the denylist (idempotent); the event goes out only for a new record. */
export async function denyToken(tx: IdentityTx, input: DenyInput): Promise<{ row: DeniedRow; created: boolean }> {
  const result = await insertDenied(tx.db, { ...input, now: new Date().toISOString() })
  if (result.created) await tx.emit(IdentityEvents.tokenDenied, deniedToken(result.row))
  return result
}

/** Activation/deactivation: the gateway refuses every token of an inactive user. */
export async function setUserStatus(tx: IdentityTx, userId: string, status: string, reason: string) {
  const user = await updateUserStatus(tx.db, userId, status, new Date().toISOString())
  if (!user) return undefined
  await publishUserTokenState(tx, user, reason)
  return user
}

/**
 * Role change (e.g. a customer made an agent, an operator promoted or demoted), with an admin's reach
 * (`adminTenantId`: '' platform-wide, else one tenant; '' for every other role). Tokens carry roles, so the old
 * ones are revoked as well (token_version + 1): the user logs in again and gets the new permissions.
 */
export async function setUserRole(
  tx: IdentityTx,
  userId: string,
  role: string,
  reason = 'role_changed',
  adminTenantId = '',
) {
  const before = await findUserById(tx.db, userId)
  if (!before) return undefined
  const reach = role === 'admin' ? adminTenantId : ''
  if (before.role === role && before.admin_tenant_id === reach) return before
  await updateUserRole(tx.db, userId, role, new Date().toISOString(), reach)
  const revoked = await revokeUserTokens(tx, userId, reason)
  if (!revoked) return undefined
  const { id, role: now, admin_tenant_id } = revoked.user
  // An admin's reach rides along; other roles have none.
  const data = now === 'admin' ? { user_id: id, role: now, admin_tenant_id } : { user_id: id, role: now }
  await tx.emit(IdentityEvents.userRoleChanged, data)
  return revoked.user
}
