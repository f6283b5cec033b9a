import { REFRESH_COOKIE, REFRESH_COOKIE_PATH } from '@switchboard/contracts'

/**
 * The refresh token's cookie for browser clients (docs/api.md §2 "Browser clients"). HttpOnly: no script reads
 * it; SameSite=Strict: no cross-site request carries it; Path: only the auth routes receive it; Secure when the
 * client reached us over https. A JWT is base64url and dots only, so it needs no encoding.
 */
export function refreshCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  const parts = [
    `${REFRESH_COOKIE}=${token}`,
    `Path=${REFRESH_COOKIE_PATH}`,
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
  ]
  if (secure) parts.push('Secure')
  return parts.join('; ')
}

/** The same cookie, expired: the browser drops it (logout). */
export const clearedRefreshCookie = (secure: boolean) => refreshCookie('', 0, secure)

/** The refresh cookie's value in a Cookie header (RFC 6265 §5.4 `name=value; name=value`), '' when absent. */
export function readRefreshCookie(header: string | string[] | undefined): string {
  const all = Array.isArray(header) ? header.join('; ') : (header ?? '')
  for (const pair of all.split(';')) {
    const eq = pair.indexOf('=')
    if (eq > 0 && pair.slice(0, eq).trim() === REFRESH_COOKIE) return pair.slice(eq + 1).trim()
  }
  return ''
}
