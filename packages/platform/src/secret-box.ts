import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto'
import { secretFromEnv } from './config.ts'

/**
 * Secrets at rest and in events: AES-256-GCM under the fleet's configuration key (CONFIG_ENCRYPTION_KEY; see
 * `configEncryptionKeys`). config-governance seals the LLM and provider keys it stores and sends them sealed in
 * `config.scope.changed`; ai-orchestrator opens them with the same key. A sealed value reads
 * `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url); the key id picks the key among the current and the previous
 * ones, so a rotation is: start every replica with the new key and the old one in CONFIG_ENCRYPTION_KEYS_PREVIOUS;
 * every write of a scope reseals its secrets under the new key (`stale` tells which still need it); drop the old
 * key once none is left (services/config-governance/README.md, Secrets).
 *
 * Fingerprints (`sha256:<12 hex>`, an HMAC under the current key) tell an operator whether two values are the same
 * secret without showing either.
 */
export interface SecretBox {
  seal(plain: string): string
  open(sealed: string): string
  /** is the value sealed under a key other than the current one (a rotation left it behind) */
  stale(sealed: string): boolean
  fingerprint(plain: string): string
}

const VERSION = 'v1'
const keyOf = (secret: string) => createHash('sha256').update(secret).digest()
const idOf = (key: Buffer) => createHash('sha256').update(key).digest('base64url').slice(0, 8)

export class SecretUnreadable extends Error {}

export function createSecretBox(current: string, previous: readonly string[] = []): SecretBox {
  const key = keyOf(current)
  const currentId = idOf(key)
  const keys = new Map<string, Buffer>([[currentId, key]])
  for (const p of previous) {
    const k = keyOf(p)
    if (!keys.has(idOf(k))) keys.set(idOf(k), k)
  }
  const fingerprintKey = createHmac('sha256', key).update('fingerprint').digest()
  return {
    seal(plain) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'))
      return [VERSION, currentId, ...parts].join('.')
    },
    open(sealed) {
      const [version, id, iv, tag, body] = sealed.split('.')
      const k = id ? keys.get(id) : undefined
      if (version !== VERSION || !k || !iv || !tag || body === undefined) {
        throw new SecretUnreadable('a stored secret is sealed under a key this replica does not have')
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', k, Buffer.from(iv, 'base64url'))
        decipher.setAuthTag(Buffer.from(tag, 'base64url'))
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
      } catch {
        throw new SecretUnreadable('a stored secret failed its integrity check')
      }
    },
    stale: (sealed) => sealed.split('.')[1] !== currentId,
    fingerprint: (plain) => `sha256:${createHmac('sha256', fingerprintKey).update(plain).digest('hex').slice(0, 12)}`,
  }
}

/**
 * The configuration key and the earlier ones still read: CONFIG_ENCRYPTION_KEY (or _FILE) and
 * CONFIG_ENCRYPTION_KEYS_PREVIOUS (or _FILE, comma-separated). Without one the key is derived from INTERNAL_SECRET,
 * the same on every unit of a fleet (the embedded default, `npm run fleet`); production sets its own
 * (`switchboard security-baseline --strict` reports a derived one).
 */
export function configEncryptionKeys(
  env: NodeJS.ProcessEnv,
  internalSecret: string,
): { current: string; previous: string[]; derived: boolean } {
  // an empty value counts as unset
  const explicit = secretFromEnv(env, 'CONFIG_ENCRYPTION_KEY') || undefined
  const previous = (secretFromEnv(env, 'CONFIG_ENCRYPTION_KEYS_PREVIOUS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  return {
    current: explicit ?? `derived:config-governance:${internalSecret}`,
    previous,
    derived: explicit === undefined,
  }
}
