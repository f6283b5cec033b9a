import type { Caller } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { consumePasswordToken, insertPasswordToken } from '../db/password-tokens.repository.ts'
import { findUserById, updateUserPassword } from '../db/users.repository.ts'
import { hashSetPasswordToken, newSetPasswordToken, SET_PASSWORD_TTL_MS } from '../domain/set-password.ts'
import { IdentityErrors } from '../errors.ts'
import type { IdentityTx } from './identity-tx.ts'
import { revokeUserTokens } from './revocation.ts'

/** A one-time set-password link for a new operator account (valid 24 h); only the token's hash is stored. */
export async function issueSetPasswordLink(tx: IdentityTx, userId: string) {
  const { token, hash } = newSetPasswordToken()
  const now = new Date()
  const expiresAt = new Date(now.getTime() + SET_PASSWORD_TTL_MS).toISOString()
  await insertPasswordToken(tx.db, {
    token_hash: hash,
    user_id: userId,
    created_by: tx.caller.actor.user_id,
    expires_at: expiresAt,
    now: now.toISOString(),
  })
  return { token, expires_at: expiresAt }
}

/**
 * POST /api/v1/auth/set-password: redeems a link once. The password is made current and every token the user
 * had is revoked (token_version + 1), so the account starts clean; the user then logs in.
 */
export async function setPasswordWithToken(
  svc: IdentityService,
  caller: Caller,
  body: { token: string; password: string },
) {
  const passwordHash = await svc.passwords.hash(body.password)
  return svc.transaction(caller, async (tx) => {
    const now = new Date().toISOString()
    const used = await consumePasswordToken(tx.db, hashSetPasswordToken(body.token), now)
    const user = used ? await findUserById(tx.db, used.user_id) : undefined
    if (!user) throw new IdentityErrors.SetPasswordTokenInvalid()
    await updateUserPassword(tx.db, user.id, passwordHash, now)
    await revokeUserTokens(tx, user.id, 'password_set')
    return { user_id: user.id, username: user.username }
  })
}
