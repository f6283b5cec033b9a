import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'

export interface SigningKey {
  kid: string
  secret: string
}

/** Current key signs; previous keys only verify, so a JWT_SECRET rotation doesn't log everyone out. */
export interface Keyring {
  current: SigningKey
  previous: SigningKey[]
}

/** The kid of a secret: the first 8 hex chars of its SHA-256, so the kid reveals nothing usable. */
export function kidOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 8)
}

export function signingKey(secret: string): SigningKey {
  return { kid: kidOf(secret), secret }
}

export function buildKeyring(current: string, previous: readonly string[] = []): Keyring {
  if (current === '') throw new Error('JWT secret is empty')
  const seen = new Set([current])
  const prev: SigningKey[] = []
  for (const s of previous) {
    if (s === '' || seen.has(s)) continue
    seen.add(s)
    prev.push(signingKey(s))
  }
  return { current: signingKey(current), previous: prev }
}

function splitSecrets(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean)
}

type ReadFile = (path: string) => string

const readText: ReadFile = (path) => readFileSync(path, 'utf8')

/**
 * Keyring from the environment: JWT_SECRET or JWT_SECRET_FILE (the file wins, as is usual for mounted
 * secrets), plus JWT_PREVIOUS_SECRETS (comma separated) and/or JWT_PREVIOUS_SECRETS_FILE (one per line
 * or comma separated). `readFile` is injectable so config loading stays testable.
 */
export function keyringFromEnv(env: Record<string, string | undefined>, readFile: ReadFile = readText): Keyring {
  const current = env.JWT_SECRET_FILE ? readFile(env.JWT_SECRET_FILE).trim() : (env.JWT_SECRET ?? '')
  const previous = [
    ...splitSecrets(env.JWT_PREVIOUS_SECRETS ?? ''),
    ...(env.JWT_PREVIOUS_SECRETS_FILE ? splitSecrets(readFile(env.JWT_PREVIOUS_SECRETS_FILE)) : []),
  ]
  return buildKeyring(current, previous)
}
