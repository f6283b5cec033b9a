import { createHash, randomBytes } from 'node:crypto'

/** How long a set-password link works. */
export const SET_PASSWORD_TTL_MS = 24 * 3600 * 1000

/** Where a set-password token is redeemed (anonymous). */
export const SET_PASSWORD_PATH = '/api/v1/auth/set-password'

/** Only this is stored: a leaked table does not let anyone set a password. */
export const hashSetPasswordToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex')

/** A new one-time token (256 random bits) and the hash that is stored for it. */
export function newSetPasswordToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, hash: hashSetPasswordToken(token) }
}
