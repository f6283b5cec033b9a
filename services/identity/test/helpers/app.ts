import { principalKind } from '@switchboard/auth'
import type { Principal } from '@switchboard/contracts'
import { principalHeader, type StorageMode, serviceApp, testPrincipal } from '@switchboard/testing'
import type { Test } from 'tap'
import { identity } from '../../src/build.ts'

export const INTERNAL_SECRET = 'identity-test-internal-secret-0123456789'
export const JWT_SECRET = 'identity-test-jwt-secret-0123456789abcdef'

/** Identity's default caller: the platform service, unscoped, holding every permission. */
const PLATFORM_SERVICE: Principal = {
  user_id: 'svc',
  kind: 'service',
  roles: [],
  permissions: ['*'],
  tenant_id: '',
  workspace_id: '',
  session_id: '',
  jti: 'jti-svc',
  token_tenant_id: '',
  token_workspace_id: '',
}

export const principal = (overrides: Partial<Principal> = {}) => testPrincipal(overrides, PLATFORM_SERVICE)

/** The header the gateway would add for this principal. */
export const as = (p: Principal) => principalHeader(INTERNAL_SECRET, p)

/** The password every test user is given (registered, created through the directory, or logged in with). */
export const PASSWORD = 'correct horse battery'

/** Test env: cheap argon2 costs so suites stay fast on 2 cores (production defaults are in config.ts). */
export const TEST_ENV = {
  INTERNAL_SECRET,
  JWT_SECRET,
  LOG_LEVEL: 'silent',
  ARGON2_MEMORY_COST_KIB: '1024',
  ARGON2_TIME_COST: '1',
}

/** An identity app on isolated storage, ready, closed and cleaned up when the test ends; `svc` is its context. */
export function identityApp(t: Test, mode: StorageMode, env: Record<string, string> = {}) {
  return serviceApp(t, identity, mode, { label: 'id', env: { ...TEST_ENV, ...env } })
}

/** The payload of a JWT, unverified (tests only read what identity issued). */
export function claimsOf(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'))
}

export type App = Awaited<ReturnType<typeof identityApp>>['app']

export interface TokenBody {
  token: string
  refresh_token: string
  expires_in: number
  refresh_expires_in: number
  token_type: string
  user: { id: string; username: string; email: string; name: string; role: string; status: string }
}

/** The principal the gateway derives from an access token (what services receive). */
export async function principalHeaders(token: string) {
  const c = claimsOf(token)
  return as(
    principal({
      user_id: c.sub,
      kind: principalKind({ roles: c.roles, principal_kind: c.principal_kind }),
      roles: c.roles,
      permissions: c.permissions ?? [],
      tenant_id: c.tenant_id ?? '',
      workspace_id: c.workspace_id ?? '',
      session_id: c.session_id,
      jti: c.jti,
    }),
  )
}

export async function registerUser(app: App, username: string, extra: Record<string, unknown> = {}, headers = {}) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    headers,
    payload: { username, email: `${username}@example.com`, password: PASSWORD, ...extra },
  })
  return { res, body: res.json() as TokenBody }
}

export async function loginUser(app: App, username: string, headers: Record<string, string> = {}, extra = {}) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers,
    payload: { username, password: PASSWORD, ...extra },
  })
  return { res, body: res.json() as TokenBody }
}

export async function tokenState(app: App, q: { user_id?: string; session_id?: string }) {
  const res = await app.inject({
    method: 'GET',
    url: '/internal/token-state',
    query: q,
    headers: await as(principal()),
  })
  return res.json() as {
    user: {
      user_id: string
      active: boolean
      token_version: number
      token_valid_after: string | null
      seq: number
    } | null
    session: { session_id: string; user_id: string; active: boolean; token_version: number } | null
  }
}
