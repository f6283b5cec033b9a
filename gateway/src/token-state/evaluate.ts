import type { Claims } from '@switchboard/auth'
import type { PrincipalKind, SessionTokenState, UserTokenState } from '@switchboard/contracts'

export type Verdict = { kind: 'ok' } | { kind: 'stale' } | { kind: 'refuse'; message: string }

const OK: Verdict = { kind: 'ok' }
const STALE: Verdict = { kind: 'stale' }
const refuse = (message: string): Verdict => ({ kind: 'refuse', message })

/**
 * Token acceptance (docs/api.md §2: user active, not before token_valid_after, token_version, session active
 * and current, jti not denied) as one pure function. `stale` means the token is newer than the state we hold
 * (a refresh or login that our cache hasn't heard of yet): the caller refetches once and asks again.
 * Service principals (minted by the CLI, no identity user or auth session) are checked against
 * identity's state only where it has one.
 */
export function evaluate(
  claims: Claims,
  kind: PrincipalKind,
  user: UserTokenState | null,
  session: SessionTokenState | null,
): Verdict {
  let stale = false
  if (user) {
    if (!user.active) return refuse('user is not active')
    if (user.token_valid_after) {
      // iat has whole seconds: compare against the second of token_valid_after, or a token issued in the
      // same second right after a revoke would be refused (older tokens are caught by token_version).
      const validAfter = Math.floor(Date.parse(user.token_valid_after) / 1000)
      if (Number.isFinite(validAfter) && claims.iat < validAfter) return refuse('token issued before token_valid_after')
    }
    if (claims.token_version < user.token_version) return refuse('token version revoked')
    if (claims.token_version > user.token_version) stale = true
  } else if (kind !== 'service') {
    return refuse('user unknown')
  }
  if (claims.session_id) {
    if (!session) return refuse('auth session unknown')
    if (session.user_id !== claims.user_id) return refuse('auth session belongs to another user')
    if (!session.active) return refuse('auth session revoked')
    if (claims.session_token_version < session.token_version) return refuse('auth session token version revoked')
    if (claims.session_token_version > session.token_version) stale = true
  } else if (kind !== 'service') {
    return refuse('token carries no auth session')
  }
  return stale ? STALE : OK
}
