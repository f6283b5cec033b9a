import { BROWSER_CLIENT_HEADER } from '@switchboard/contracts'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { type Cidr, trusted } from '../domain/fingerprint.ts'
import { clearedRefreshCookie, readRefreshCookie, refreshCookie } from '../domain/refresh-cookie.ts'
import { IdentityErrors } from '../errors.ts'

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim() ?? ''

/** Cookie mode: the request says `X-Switchboard-Client: browser` (docs/api.md §2 "Browser clients"). */
export const isBrowser = (request: FastifyRequest) =>
  first(request.headers[BROWSER_CLIENT_HEADER]).toLowerCase() === 'browser'

/**
 * Whether the client reached the fleet over https: our own TLS, or the gateway's X-Forwarded-Proto (which honours
 * its TRUST_PROXY) believed only from a trusted peer, like X-Forwarded-For.
 */
export function isHttps(request: FastifyRequest, cidrs: readonly Cidr[]): boolean {
  if (request.protocol === 'https') return true
  const peer = request.socket.remoteAddress ?? ''
  return trusted(peer, cidrs) && first(request.headers['x-forwarded-proto']).toLowerCase() === 'https'
}

/** A browser's token answer: the refresh token goes into the cookie and out of the body a script can read. */
export function browserAnswer<R extends { refresh_token: string; refresh_expires_in: number }>(
  reply: FastifyReply,
  pair: { response: R },
  secure: boolean,
): Omit<R, 'refresh_token'> {
  const { refresh_token, ...visible } = pair.response
  reply.header('set-cookie', refreshCookie(refresh_token, pair.response.refresh_expires_in, secure))
  reply.header('cache-control', 'no-store')
  return visible
}

export const clearCookie = (reply: FastifyReply, secure: boolean) =>
  reply.header('set-cookie', clearedRefreshCookie(secure))

/**
 * The refresh token a refresh or logout acts on: the body's (JSON clients), else the cookie's, which is used only
 * with the browser header (CSRF: 403 `IDENTITY_BROWSER_HEADER_REQUIRED`). A browser request reads the cookie only.
 */
export function presentedRefreshToken(request: FastifyRequest, body: { refresh_token?: string | undefined }): string {
  const cookie = readRefreshCookie(request.headers.cookie)
  if (isBrowser(request)) {
    if (!cookie) throw new IdentityErrors.InvalidRefreshToken('no refresh cookie')
    return cookie
  }
  if (body.refresh_token) return body.refresh_token
  if (cookie) throw new IdentityErrors.BrowserHeaderRequired()
  throw new IdentityErrors.InvalidInput(
    'body.refresh_token: required (or the refresh cookie with X-Switchboard-Client: browser)',
  )
}
