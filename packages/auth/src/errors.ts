/**
 * Reason codes of a refused token. Stable: the gateway puts them in the error body's `code`,
 * so clients and tests can tell an expired token (refresh it) from a forged one (log in again).
 */
export const TokenErrorReason = {
  missing: 'TOKEN_MISSING',
  tooLarge: 'TOKEN_TOO_LARGE',
  malformed: 'TOKEN_MALFORMED',
  invalid: 'TOKEN_INVALID',
  unknownKey: 'TOKEN_UNKNOWN_KEY',
  forbiddenHeader: 'TOKEN_FORBIDDEN_HEADER',
  expired: 'TOKEN_EXPIRED',
  notYetValid: 'TOKEN_NOT_YET_VALID',
  missingClaim: 'TOKEN_MISSING_CLAIM',
  wrongUse: 'TOKEN_WRONG_USE',
  /** `exp − iat` longer than tokens of its kind may live (lifetimes.ts) */
  lifetimeExceeded: 'TOKEN_LIFETIME_EXCEEDED',
  audience: 'TOKEN_AUDIENCE',
} as const
export type TokenErrorReason = (typeof TokenErrorReason)[keyof typeof TokenErrorReason]

/** The one error type this package throws for a refused token; jose's own errors never escape. */
export class TokenError extends Error {
  readonly reason: TokenErrorReason

  constructor(reason: TokenErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'TokenError'
    this.reason = reason
  }
}

export function isTokenError(err: unknown): err is TokenError {
  return err instanceof TokenError
}
