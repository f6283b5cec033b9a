import type { PrincipalKind } from '@switchboard/contracts'
import { TokenError, TokenErrorReason } from './errors.ts'

export type TokenUse = 'access' | 'refresh'

/**
 * Normalised JWT claims (docs/api.md §2). Absent scope is `''` (no restriction), so callers compare
 * strings and never juggle undefined/null/'' variants of "unscoped".
 */
export interface Claims {
  sub: string
  user_id: string
  jti: string
  iat: number
  exp: number
  nbf?: number
  token_use: TokenUse
  token_version: number
  session_id: string
  session_token_version: number
  roles: string[]
  tenant_id: string
  workspace_id: string
  principal_kind?: PrincipalKind
  permissions?: string[]
  /**
   * `'platform'` on the access token of a platform-wide administrator (role admin, `admin_tenant_id` ''), whatever
   * scope the token has: the gateway's ops surface (the whole bus's dead letters, the units' health) admits an admin
   * only with it. A tenant administrator's tokens never carry it; any other value is read as absent.
   */
  admin_reach?: AdminReach
}

export type AdminReach = 'platform'
export const ADMIN_REACH_PLATFORM: AdminReach = 'platform'

/** What a caller supplies to issueToken; iat, exp, jti and token_use are set there. */
export type ClaimsInput = Omit<Claims, 'sub' | 'iat' | 'exp' | 'jti' | 'token_use' | 'nbf'> & { jti?: string }

const KINDS: readonly string[] = ['end_user', 'agent', 'admin', 'service']

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  return undefined
}

/** Legacy tokens carried numbers as strings ("3"); anything not a finite integer is treated as absent. */
function int(v: unknown): number | undefined {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined
}

function list(v: unknown): string[] | undefined {
  if (Array.isArray(v)) return v.map(str).filter((s): s is string => s !== undefined && s !== '')
  const s = str(v)
  if (s === undefined) return undefined
  return s
    .split(/[,\s]+/)
    .map((x) => x.trim())
    .filter(Boolean)
}

function need<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new TokenError(TokenErrorReason.missingClaim, `claim ${name} is missing or malformed`)
  return value
}

/**
 * Reads a verified payload into Claims. Tolerates the earlier implementation's shapes: `user_id` without
 * `sub` (or the reverse), a single `role` string or a comma-separated `roles` string, numeric strings.
 * A payload whose `sub` and `user_id` disagree is refused: one of them was forged or mis-issued.
 */
export function normaliseClaims(payload: unknown): Claims {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new TokenError(TokenErrorReason.malformed, 'claims are not an object')
  }
  const p = payload as Record<string, unknown>
  const sub = str(p.sub)
  const userId = str(p.user_id)
  if (sub && userId && sub !== userId) throw new TokenError(TokenErrorReason.invalid, 'sub and user_id disagree')
  const user = need(sub || userId || undefined, 'sub')
  const use = str(p.token_use)
  const kind = str(p.principal_kind)
  const roles = list(p.roles) ?? list(p.role) ?? []
  const claims: Claims = {
    sub: user,
    user_id: user,
    jti: str(p.jti) ?? '',
    iat: need(int(p.iat), 'iat'),
    exp: need(int(p.exp), 'exp'),
    token_use: use === 'refresh' ? 'refresh' : 'access',
    token_version: int(p.token_version) ?? 0,
    session_id: str(p.session_id) ?? '',
    session_token_version: int(p.session_token_version) ?? 0,
    roles,
    tenant_id: str(p.tenant_id) ?? '',
    workspace_id: str(p.workspace_id) ?? '',
  }
  if (use !== undefined && use !== 'access' && use !== 'refresh') {
    throw new TokenError(TokenErrorReason.wrongUse, `unknown token_use ${use}`)
  }
  const nbf = int(p.nbf)
  if (nbf !== undefined) claims.nbf = nbf
  if (kind !== undefined) {
    if (!KINDS.includes(kind)) throw new TokenError(TokenErrorReason.invalid, 'unknown principal_kind')
    claims.principal_kind = kind as PrincipalKind
  }
  const permissions = list(p.permissions)
  if (permissions !== undefined) claims.permissions = permissions
  if (p.admin_reach === ADMIN_REACH_PLATFORM) claims.admin_reach = ADMIN_REACH_PLATFORM
  return claims
}

/** The raw token_use of a payload: verification compares this, not the defaulted normalised value. */
export function rawTokenUse(payload: Record<string, unknown>): string | undefined {
  return typeof payload.token_use === 'string' ? payload.token_use : undefined
}
