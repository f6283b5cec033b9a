import type { Claims } from './claims.ts'
import { principalKind } from './principal.ts'

/**
 * The lifetimes (`exp − iat`) of the tokens the fleet signs, and the bounds of their settings (docs/api.md §2).
 * Verification refuses a token that lived longer than its kind may, so a token minted with a wrong or stolen
 * lifetime setting (or by a tool that forgot one) is not good for weeks.
 * - access tokens of users (identity): JWT_ACCESS_TTL_SECONDS, read by identity and the gateway alike;
 * - refresh tokens (identity): JWT_REFRESH_TTL_SECONDS, checked by identity's /refresh;
 * - service tokens (`switchboard token mint`): at most JWT_SERVICE_TTL_MAX_SECONDS, checked by the gateway and by
 *   the CLI before it mints.
 * Set-password links and the CSAT survey links are random tokens kept as hashes, not JWTs; the gateway's internal
 * principal (INTERNAL_SECRET, 60 s) is another token type, verified apart (internal.ts).
 */
export const ACCESS_TTL_SECONDS = { min: 900, max: 86_400, default: 3600 } as const
export const REFRESH_TTL_SECONDS = { min: 60, max: 90 * 86_400, default: 7 * 86_400 } as const
/** Service tokens are minted by operators for automation: 30 days unless the fleet says otherwise. */
export const SERVICE_TTL_MAX_SECONDS = { min: 60, max: 366 * 86_400, default: 30 * 86_400 } as const
/** Clock skew tolerated between the units (exp, nbf, iat in the future, and a lifetime's limit). */
export const CLOCK_SKEW_SECONDS = 5

export interface AccessLifetimes {
  access_ttl_seconds: number
  service_ttl_max_seconds: number
}

/** The longest an access token of this principal may live: a service's limit for service tokens, else the users'. */
export function accessLifetimeLimit(limits: AccessLifetimes): (claims: Claims) => number {
  return (claims) => (principalKind(claims) === 'service' ? limits.service_ttl_max_seconds : limits.access_ttl_seconds)
}

/** JWT_SERVICE_TTL_MAX_SECONDS as a number, the default when unset; anything else unusable throws. */
export function serviceTtlMaxFromEnv(env: Record<string, string | undefined>): number {
  const raw = env.JWT_SERVICE_TTL_MAX_SECONDS
  if (raw === undefined || raw.trim() === '') return SERVICE_TTL_MAX_SECONDS.default
  const n = Number(raw)
  if (!Number.isInteger(n) || n < SERVICE_TTL_MAX_SECONDS.min || n > SERVICE_TTL_MAX_SECONDS.max) {
    throw new Error(
      `JWT_SERVICE_TTL_MAX_SECONDS must be a whole number of seconds from ${SERVICE_TTL_MAX_SECONDS.min} to ${SERVICE_TTL_MAX_SECONDS.max}`,
    )
  }
  return n
}
