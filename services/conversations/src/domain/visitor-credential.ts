import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * The secret an anonymous widget visitor holds for its session. Session ids travel in URLs, logs and socket
 * queries, so they never grant access by themselves: the visitor proves the session is theirs with this
 * credential, issued once when the session is created. Only its SHA-256 is stored (a random 256-bit secret needs
 * no slow hash: there is nothing to guess from the digest).
 */
export const VISITOR_CREDENTIAL_BYTES = 32

export interface IssuedCredential {
  /** returned to the visitor once, never stored */
  credential: string
  /** `sessions.visitor_secret_hash` */
  hash: string
}

export function issueVisitorCredential(): IssuedCredential {
  const credential = randomBytes(VISITOR_CREDENTIAL_BYTES).toString('base64url')
  return { credential, hash: hashVisitorCredential(credential) }
}

export function hashVisitorCredential(credential: string): string {
  return createHash('sha256').update(credential, 'utf8').digest('hex')
}

/** Compares digests of equal length in constant time, so timing tells nothing about the stored hash. */
export function visitorCredentialMatches(credential: string, storedHash: string | null): boolean {
  if (!storedHash || credential.length === 0) return false
  const given = createHash('sha256').update(credential, 'utf8').digest()
  const stored = Buffer.from(storedHash, 'hex')
  return stored.length === given.length && timingSafeEqual(given, stored)
}
