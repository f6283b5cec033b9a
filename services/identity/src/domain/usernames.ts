import { randomBytes } from 'node:crypto'

/** A login name from the email's local part plus a random suffix, in the register schema's alphabet. */
export function usernameFromEmail(email: string): string {
  const local = (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9_.-]/g, '').replace(/^[^A-Za-z0-9]+/, '')
  return `${(local || 'customer').slice(0, 48)}-${randomBytes(3).toString('hex')}`
}

/** A password nobody knows: a directory-made account without one exists for the directory until reset. */
export const unknowablePassword = () => randomBytes(24).toString('base64url')

/** A demo password, printed once by the seed. */
export const generatedPassword = () => randomBytes(12).toString('base64url')

/**
 * The stored "hash" of an account made as a contact (a widget visitor's customer): not an argon2 string, so no
 * password ever verifies against it (passwords.ts treats it as a failed login, at a real verify's cost).
 */
export const CONTACT_PASSWORD_HASH = '!contact-no-password'

/** A contact account's login e-mail: unique by its username, in the reserved `.invalid` TLD (RFC 2606). */
export const contactLoginEmail = (username: string) => `${username}@contact.invalid`
