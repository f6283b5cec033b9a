import { IdentityEvents } from '@switchboard/contracts'
import { type DeniedRow, deniedToken, insertDenied } from '../db/denylist.repository.ts'
import { activeSessionIds, revokeSessionRow, type SessionRow, sessionTokenState } from '../db/sessions.repository.ts'
import {
  bumpUserTokenVersion,
  findUserById,
  type UserRow,
  updateUserRole,
  updateUserStatus,
  userTokenState,
} from '../db/users.repository.ts'
import { type EventContext, emit, emitUserRoleChanged } from '../events/publish.ts'

/**
 * Every change of token state, whoever asks for it (self-service logout, refresh, the security surface,
 * agent/customer revoke), goes through these functions: the row change and its token-state event are written
 * in the caller's transaction (`ctx.trx`), and the caller kicks the outbox after commit (`inTransaction`).
 */
export interface RevocationContext extends EventContext {
  /** tests pin it */
  now?: Date
}

const nowOf = (ctx: RevocationContext) => ctx.now ?? new Date()

/** JWT `iat` has whole-second resolution: a token issued in the same second as a revoke is caught by token_version. */
export function wholeSeconds(d: Date): string {
  return new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString()
}

export function publishUserTokenState(ctx: RevocationContext, user: UserRow, reason: string) {
  return emit(ctx, IdentityEvents.userTokenState, { user: userTokenState(user), reason })
}

export function publishSessionTokenState(ctx: RevocationContext, session: SessionRow, reason: string) {
  return emit(ctx, IdentityEvents.sessionTokenState, { session: sessionTokenState(session), reason })
}

/**
 * User revoke: token_version + 1, token_valid_after = now, seq + 1. Every token issued before is refused.
 * Undefined when the user does not exist.
 */
export async function revokeUserTokens(ctx: RevocationContext, userId: string, reason: string) {
  const now = nowOf(ctx)
  const user = await bumpUserTokenVersion(ctx.trx, userId, wholeSeconds(now), now.toISOString())
  if (!user) return undefined
  await publishUserTokenState(ctx, user, reason)
  return { user, state: userTokenState(user) }
}

/**
 * Revokes one auth session (status revoked, token_version + 1). `changed` is false when it was not active
 * (already revoked): the current row is returned and no event is written. Undefined when it does not exist
 * or belongs to another user than `userId` (when given).
 */
export async function revokeSession(
  ctx: RevocationContext,
  sessionId: string,
  reason: string,
  userId?: string,
): Promise<{ session: SessionRow; changed: boolean } | undefined> {
  const now = nowOf(ctx).toISOString()
  const current = await ctx.trx.selectFrom('auth_sessions').selectAll().where('id', '=', sessionId).executeTakeFirst()
  if (!current || (userId !== undefined && current.user_id !== userId)) return undefined
  const revoked = await revokeSessionRow(ctx.trx, sessionId, reason, now)
  if (!revoked) return { session: current, changed: false }
  await publishSessionTokenState(ctx, revoked, reason)
  return { session: revoked, changed: true }
}

/** Revokes all active sessions of a user, optionally keeping one; returns those it revoked. */
export async function revokeUserSessions(
  ctx: RevocationContext,
  userId: string,
  opts: { exceptSessionId?: string; reason: string },
): Promise<SessionRow[]> {
  const ids = await activeSessionIds(ctx.trx, userId, opts.exceptSessionId ?? '')
  const out: SessionRow[] = []
  for (const id of ids) {
    const r = await revokeSession(ctx, id, opts.reason, userId)
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
export async function denyToken(
  ctx: RevocationContext,
  input: DenyInput,
): Promise<{ row: DeniedRow; created: boolean }> {
  const result = await insertDenied(ctx.trx, { ...input, now: nowOf(ctx).toISOString() })
  if (result.created) await emit(ctx, IdentityEvents.tokenDenied, deniedToken(result.row))
  return result
}

/** Activation/deactivation: the gateway refuses every token of an inactive user. */
export async function setUserStatus(ctx: RevocationContext, userId: string, status: string, reason: string) {
  const user = await updateUserStatus(ctx.trx, userId, status, nowOf(ctx).toISOString())
  if (!user) return undefined
  await publishUserTokenState(ctx, user, reason)
  return user
}

/**
 * Role change (e.g. a customer made an agent). Tokens carry roles, so the old ones are revoked as well:
 * the user logs in again and gets the new permissions.
 */
export async function setUserRole(ctx: RevocationContext, userId: string, role: string, reason = 'role_changed') {
  const before = await findUserById(ctx.trx, userId)
  if (!before) return undefined
  if (before.role === role) return before
  await updateUserRole(ctx.trx, userId, role, nowOf(ctx).toISOString())
  const revoked = await revokeUserTokens(ctx, userId, reason)
  if (!revoked) return undefined
  await emitUserRoleChanged(ctx, revoked.user)
  return revoked.user
}
