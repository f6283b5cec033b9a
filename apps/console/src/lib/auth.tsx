/**
 * Sessions in the browser. The access token lives in http.ts's memory; the refresh token in identity's HttpOnly
 * cookie (cookie mode) — or, against an identity without cookie mode, in this module's memory only: a reload then
 * logs out, but nothing secret ever reaches web storage.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import { ApiError, api, onSessionExpired, setAccessToken, setRefresher } from './http.ts'
import { queryClient } from './query.ts'

export interface User {
  id: string
  username: string
  email: string
  name: string | null
  role: 'admin' | 'agent' | 'customer' | string
  status: string
  tenant_id?: string | null
  workspace_id?: string | null
  session_id?: string | null
}

interface TokenResponse {
  token: string
  expires_in: number
  refresh_token?: string
  user?: User
}

/** One tenant/workspace the account may log in to (login's 400 IDENTITY_SCOPE_REQUIRED lists them in `scopes`). */
export interface ScopeChoice {
  tenant_id: string
  workspace_id: string
  tenant_name?: string
  workspace_name?: string
  kind?: string
}

export interface LoginInput {
  username: string
  password: string
  tenant_id?: string
  workspace_id?: string
}

export type AuthStatus = 'restoring' | 'anonymous' | 'authenticated'

export interface AuthValue {
  status: AuthStatus
  user: User | null
  /** true for admins and supervisors: they see the All tab */
  isSupervisor: boolean
  login(input: LoginInput): Promise<void>
  logout(): Promise<void>
}

// asks identity for the cookie mode: the refresh token is set as an HttpOnly cookie instead of returned
const COOKIE_MODE = { 'x-switchboard-client': 'browser' }
let memoryRefreshToken: string | null = null

/** The refresh token to present: the one in memory (an identity without cookie mode), else the cookie. */
function presented(): { body: Record<string, string>; headers: Record<string, string> } {
  // a request with the browser header is answered from the cookie only, so the header goes without a body token
  return memoryRefreshToken
    ? { body: { refresh_token: memoryRefreshToken }, headers: {} }
    : { body: {}, headers: COOKIE_MODE }
}

/** A new pair; null when identity refused the refresh (no cookie, revoked, expired); throws when it did not answer. */
async function refreshTokens(): Promise<TokenResponse | null> {
  try {
    return await api<TokenResponse>('/api/v1/auth/refresh', { method: 'POST', ...presented(), auth: false })
  } catch (err) {
    if (err instanceof ApiError && err.status >= 400 && err.status < 500) return null
    throw err
  }
}

function keep(tokens: TokenResponse): void {
  setAccessToken(tokens.token)
  // a body that still carries the refresh token (no cookie mode): memory only
  memoryRefreshToken = tokens.refresh_token ?? null
}

async function fetchMe(): Promise<User> {
  return api<User>('/api/v1/auth/me')
}

// one restore per page load, shared (StrictMode runs effects twice; a second refresh would present a spent token)
let restoring: Promise<TokenResponse | null> | null = null

const AuthContext = createContext<AuthValue | null>(null)

export function AuthProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<AuthStatus>('restoring')
  const [user, setUser] = useState<User | null>(null)

  const endSession = useCallback(() => {
    setAccessToken(null)
    memoryRefreshToken = null
    queryClient.clear()
    setUser(null)
    setStatus('anonymous')
  }, [])

  useEffect(() => {
    setRefresher(async () => {
      const tokens = await refreshTokens()
      if (!tokens) return null
      keep(tokens)
      return tokens.token
    })
    const stop = onSessionExpired(endSession)
    let cancelled = false
    // restore on reload: the refresh cookie (if any) buys a new access token
    void (async () => {
      // a server that cannot answer at load: the login page (nothing to restore from yet)
      restoring ??= refreshTokens().catch(() => null)
      const tokens = await restoring
      if (cancelled) return
      if (!tokens) return setStatus('anonymous')
      keep(tokens)
      try {
        const me = await fetchMe()
        if (cancelled) return
        setUser(me)
        setStatus('authenticated')
      } catch {
        if (!cancelled) endSession()
      }
    })()
    return () => {
      cancelled = true
      stop()
      setRefresher(null)
    }
  }, [endSession])

  const login = useCallback(async (input: LoginInput) => {
    const body: LoginInput = { username: input.username, password: input.password }
    if (input.tenant_id) body.tenant_id = input.tenant_id
    if (input.workspace_id) body.workspace_id = input.workspace_id
    const tokens = await api<TokenResponse>('/api/v1/auth/login', { body, headers: COOKIE_MODE, auth: false })
    keep(tokens)
    const me = await fetchMe()
    setUser(me)
    setStatus('authenticated')
  }, [])

  const logout = useCallback(async () => {
    try {
      // revokes the auth session (every tab's tokens); the cookie-mode logout also clears the cookie
      await api('/api/v1/auth/logout', { method: 'POST', ...presented(), auth: false })
    } catch {
      try {
        await api('/api/v1/auth/sessions/logout-current', { method: 'POST', body: {} })
      } catch {
        // the session is gone either way for this tab
      }
    }
    endSession()
  }, [endSession])

  const value = useMemo<AuthValue>(
    () => ({ status, user, isSupervisor: user?.role === 'admin' || user?.role === 'supervisor', login, logout }),
    [status, user, login, logout],
  )
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}

export function useAuth(): AuthValue {
  const value = useContext(AuthContext)
  if (!value) throw new Error('useAuth outside AuthProvider')
  return value
}
