import { randomUUID } from 'node:crypto'
import {
  ADMIN_REACH_PLATFORM,
  type Claims,
  expandPermissions,
  issueToken,
  type Keyring,
  STAFF_ROLES,
  verifyToken,
} from '@switchboard/auth'
import type { PrincipalKind } from '@switchboard/contracts'
import type { Binding } from './scope-selection.ts'

export interface TokenTtls {
  access_ttl_seconds: number
  refresh_ttl_seconds: number
}

/**
 * An explicit principal_kind only where the role alone would say something else: a staff user signed in
 * through a customer binding acts as an end user in that scope, with no staff permissions.
 */
export function principalKindOverride(
  role: string,
  binding: Pick<Binding, 'kind'> | undefined,
): PrincipalKind | undefined {
  if (binding?.kind === 'customer' && STAFF_ROLES.includes(role)) return 'end_user'
  return undefined
}

/** What tokens are issued from and checked against of a user: the users table's row fits it. */
export interface TokenUser {
  id: string
  role: string
  status: string
  token_version: number
  token_valid_after: string | null
  /** for role admin: '' platform-wide, else the one tenant administered */
  admin_tenant_id: string
}

/** What tokens are issued from and checked against of an auth session: the auth_sessions row fits it. */
export interface TokenSession {
  id: string
  user_id: string
  status: string
  token_version: number
  tenant_id: string
  workspace_id: string
  refresh_jti: string | null
}

/** The user as a token response shows it (the command passes it: users' `userView`). */
export interface TokenUserView {
  id: string
  username: string
  email: string
  name: string
  role: string
  status: string
}

export interface IssueInput {
  user: TokenUser
  session: TokenSession
  /** the user as the response shows it */
  view: TokenUserView
  /** the jti the session row already records as its current refresh token */
  refreshJti: string
  principalKind?: PrincipalKind | undefined
  now?: number
}

/**
 * A platform-wide administrator (role admin, `admin_tenant_id` '') acting as one: its access tokens say so with
 * `admin_reach: 'platform'` whatever their scope (a platform admin with one binding gets a scoped token), so the
 * gateway's ops surface can tell it from a tenant administrator, whose tokens also hold `*`.
 */
export function platformAdmin(user: Pick<TokenUser, 'role' | 'admin_tenant_id'>, kind: PrincipalKind | undefined) {
  return user.role === 'admin' && user.admin_tenant_id === '' && kind === undefined
}

/** Access and refresh token of one session; both carry the session's current token_version. */
export async function issueTokenPair(keys: Keyring, ttls: TokenTtls, input: IssueInput) {
  const { user, session } = input
  const roles = [user.role]
  const base = {
    user_id: user.id,
    token_version: Number(user.token_version),
    session_id: session.id,
    session_token_version: Number(session.token_version),
    roles,
    tenant_id: session.tenant_id,
    workspace_id: session.workspace_id,
    ...(input.principalKind ? { principal_kind: input.principalKind } : {}),
  }
  const permissions = input.principalKind === 'end_user' ? [] : expandPermissions(roles)
  const now = input.now === undefined ? {} : { now: input.now }
  const reach = platformAdmin(user, input.principalKind) ? { admin_reach: ADMIN_REACH_PLATFORM } : {}
  const access = await issueToken(
    keys,
    { ...base, permissions, ...reach },
    { ttlSeconds: ttls.access_ttl_seconds, tokenUse: 'access', ...now },
  )
  // The refresh token carries no permissions: it is never accepted as an access token (token_use).
  const refresh = await issueToken(
    keys,
    { ...base, jti: input.refreshJti },
    { ttlSeconds: ttls.refresh_ttl_seconds, tokenUse: 'refresh', ...now },
  )
  return {
    access,
    refresh,
    response: {
      token: access.token,
      expires_in: ttls.access_ttl_seconds,
      refresh_token: refresh.token,
      refresh_expires_in: ttls.refresh_ttl_seconds,
      token_type: 'Bearer' as const,
      user: input.view,
    },
  }
}

// A jti names a token, not a row: random (UUIDv4), so a token's id says nothing about when it was minted.
export const newJti = () => randomUUID()

/** JWT `iat` has whole-second resolution: a token issued in the same second as a revoke is caught by token_version. */
export function wholeSeconds(d: Date): string {
  return new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString()
}

/**
 * Signature, algorithm, expiry, token_use=refresh and a lifetime no longer than the configured refresh lifetime
 * (`maxLifetimeSeconds`, JWT_REFRESH_TTL_SECONDS); the database checks come after (tokens.service).
 */
export function verifyRefreshToken(keys: Keyring, token: string, maxLifetimeSeconds: number): Promise<Claims> {
  return verifyToken(keys, token, { expectedUse: 'refresh', maxLifetimeSeconds })
}

/** The refusal of an ended session's refresh: its own code, IDENTITY_SESSION_REVOKED (the client is logged out). */
export const SESSION_REVOKED = 'auth session is revoked'

/**
 * Token acceptance (docs/api.md §2) for a refresh token against the database state: user active, token_version,
 * not before token_valid_after, session active and at this version, jti not denied. Returns the refusal reason,
 * or undefined when the token is acceptable; re-use is reported apart.
 */
export function refreshRefusal(
  claims: Claims,
  user: TokenUser | undefined,
  session: TokenSession | undefined,
  denied: boolean,
): 'reused' | string | undefined {
  if (!user || !session || session.user_id !== user.id || claims.sub !== user.id) return 'unknown session'
  if (denied) return 'token is revoked'
  if (user.status !== 'active') return 'user is not active'
  if (claims.token_version < Number(user.token_version)) return 'token version is outdated'
  if (user.token_valid_after && claims.iat * 1000 < Date.parse(user.token_valid_after)) {
    return 'token was issued before the user revoke'
  }
  if (session.status !== 'active') return SESSION_REVOKED
  if (claims.session_token_version < Number(session.token_version) || claims.jti !== session.refresh_jti)
    return 'reused'
  if (claims.session_token_version !== Number(session.token_version)) return 'session version mismatch'
  return undefined
}
