/**
 * The console's HTTP client: same origin, the access token in memory only (never web storage), one refresh on a
 * 401 then one retry, every failure an ApiError carrying the fleet's error body (docs/api.md §5).
 */

export interface ErrorBody {
  error: string
  message: string
  code: string
  request_id?: string
}

export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly requestId: string | undefined
  /** the whole body: some errors carry more (login's 400 IDENTITY_SCOPE_REQUIRED carries `scopes`) */
  readonly body: Partial<ErrorBody> & Record<string, unknown>

  constructor(status: number, body: Partial<ErrorBody> & Record<string, unknown>) {
    super(body.message || body.error || `HTTP ${status}`)
    this.name = 'ApiError'
    this.status = status
    this.code = body.code || (status === 0 ? 'NETWORK_ERROR' : `HTTP_${status}`)
    this.requestId = body.request_id
    this.body = body
  }
}

export interface RequestOptions {
  method?: string
  query?: Record<string, string | number | boolean | undefined | null>
  body?: unknown
  headers?: Record<string, string>
  signal?: AbortSignal
  /** false: send no token and never refresh (login, refresh itself) */
  auth?: boolean
}

let accessToken: string | null = null
let refresher: (() => Promise<string | null>) | null = null
let inFlightRefresh: Promise<string | null> | null = null
const expiredListeners = new Set<() => void>()

export function setAccessToken(token: string | null): void {
  accessToken = token
}

export function getAccessToken(): string | null {
  return accessToken
}

/**
 * Installed by the AuthProvider: gets a new access token — null when the refresh was refused (the session is
 * over), a thrown error when the server could not answer (no reason to log out).
 */
export function setRefresher(fn: (() => Promise<string | null>) | null): void {
  refresher = fn
}

/** Called when a 401 survives a refresh: the session ended (revoked, expired). */
export function onSessionExpired(listener: () => void): () => void {
  expiredListeners.add(listener)
  return () => expiredListeners.delete(listener)
}

/** The session is over (a refresh refused): every listener (the AuthProvider) logs this tab out. */
export function expireSession(): void {
  for (const listener of expiredListeners) listener()
}

/**
 * Concurrent 401s share one refresh: a refresh rotates the pair, a second one would present a spent token. */
export function refreshAccessToken(): Promise<string | null> {
  if (!refresher) return Promise.resolve(null)
  inFlightRefresh ??= refresher().finally(() => {
    inFlightRefresh = null
  })
  return inFlightRefresh
}

export function buildUrl(path: string, query?: RequestOptions['query']): string {
  const url = new URL(path, window.location.origin)
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value))
  }
  return url.pathname + url.search
}

async function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  if (token) headers.authorization = `Bearer ${token}`
  try {
    return await fetch(buildUrl(path, options.query), {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal ?? null,
    })
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err
    throw new ApiError(0, { error: 'network', message: 'The server could not be reached.' })
  }
}

async function parse<T>(response: Response): Promise<T> {
  const text = await response.text()
  let body: unknown = null
  if (text) {
    try {
      body = JSON.parse(text)
    } catch {
      body = { message: text.slice(0, 200) }
    }
  }
  if (!response.ok) throw new ApiError(response.status, (body ?? {}) as Partial<ErrorBody> & Record<string, unknown>)
  return body as T
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const useAuth = options.auth !== false
  let response = await send(path, options, useAuth ? accessToken : null)
  if (response.status === 401 && useAuth && refresher) {
    const token = await refreshAccessToken()
    if (!token) {
      expireSession()
      return parse<T>(response)
    }
    response = await send(path, options, token)
    if (response.status === 401) expireSession()
  }
  return parse<T>(response)
}

/** A page as the fleet's list routes answer (packages/platform pageOf). */
export interface Page<T> {
  data: T[]
  total: number
  page: number
  page_size: number
  pages: number
}
