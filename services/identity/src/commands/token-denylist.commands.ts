import type { Claims } from '@switchboard/auth'
import type { Caller } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { isUserVisible } from '../db/scoped-users.repository.ts'
import { inspectOwnToken, TokenNotOursError } from '../domain/token-inspection.ts'
import { IdentityErrors } from '../errors.ts'
import { denyToken } from './revocation.ts'

/** The claims of a token we signed, expired or not; anything else is a 400 (IDENTITY_TOKEN_INVALID). */
export function ownTokenClaims(svc: IdentityService, token: string): Promise<Claims> {
  return inspectOwnToken(svc.keys, token).catch((err) => {
    if (err instanceof TokenNotOursError) throw new IdentityErrors.TokenNotOurs(err.message)
    throw err
  })
}

/**
 * Puts one token on the denylist until its own expiry (idempotent: `created` is false when it already was).
 * A token of a user outside the caller's scope is as unknown as a missing user.
 */
export function denyTokenCommand(svc: IdentityService, caller: Caller, claims: Claims, reason: string | undefined) {
  return svc.transaction(caller, async (tx) => {
    if (!(await isUserVisible(tx.db, claims.user_id, tx.caller.scope))) throw new IdentityErrors.UserNotFound()
    return denyToken(tx, {
      jti: claims.jti,
      user_id: claims.user_id,
      session_id: claims.session_id,
      token_use: claims.token_use,
      expires_at: new Date(claims.exp * 1000).toISOString(),
      revoked_by: caller.actor.user_id,
      reason: reason ?? '',
    })
  })
}
