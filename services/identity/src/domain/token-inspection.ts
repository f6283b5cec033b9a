import { type Claims, isTokenError, type Keyring, TokenErrorReason, verifyToken } from '@switchboard/auth'

/** Reads a segment without trusting it: only to pick what to verify against, never to decide. */
function unverifiedPayload(token: string): Record<string, unknown> {
  const part = token.split('.')[1]
  if (!part) return {}
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

export class TokenNotOursError extends Error {
  override name = 'TokenNotOursError'
}

/**
 * Verifies that `token` was signed by one of our keys and returns its claims, expired or not: an expired
 * token can still be denylisted (harmless, and it makes the record explicit). jose checks the signature
 * before the claims, so "expired" proves the signature; the claims are then read with the clock pinned at
 * the token's own issue time. Anything forged, malformed or of unknown use throws TokenNotOursError.
 */
export async function inspectOwnToken(keys: Keyring, token: string): Promise<Claims> {
  const raw = unverifiedPayload(token)
  const expectedUse = raw.token_use === 'refresh' ? 'refresh' : 'access'
  try {
    return await verifyToken(keys, token, { expectedUse })
  } catch (err) {
    if (!isTokenError(err)) throw err
    if (err.reason === TokenErrorReason.expired && typeof raw.iat === 'number') {
      try {
        return await verifyToken(keys, token, { expectedUse, now: raw.iat })
      } catch (again) {
        throw new TokenNotOursError(isTokenError(again) ? again.reason : 'invalid', { cause: again })
      }
    }
    throw new TokenNotOursError(err.reason, { cause: err })
  }
}
