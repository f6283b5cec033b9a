import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Where the embedded mode keeps the secrets it generated, so tokens and logins survive a restart. */
export function secretsDir(dataDir: string): string {
  return join(dataDir, '.secrets')
}

export function randomSecret(bytes = 48): string {
  return randomBytes(bytes).toString('base64url')
}

export interface ResolvedSecret {
  value: string
  /** env (NAME), file (NAME_FILE), stored (read back from DATA_DIR), generated (new, now stored) */
  source: 'env' | 'file' | 'stored' | 'generated'
  /** the file it lives in, for stored and generated secrets */
  path?: string
}

/**
 * `NAME` or the file named by `NAME_FILE` when given; otherwise the value stored under DATA_DIR by an
 * earlier start, or a new random one written there (mode 0600).
 */
export function resolveSecret(
  env: NodeJS.ProcessEnv,
  name: string,
  dataDir: string,
  generate: () => string = randomSecret,
): ResolvedSecret {
  const file = env[`${name}_FILE`]
  if (file) return { value: readFileSync(file, 'utf8').trim(), source: 'file', path: file }
  const direct = env[name]
  if (direct) return { value: direct, source: 'env' }
  const dir = secretsDir(dataDir)
  const path = join(dir, name.toLowerCase())
  if (existsSync(path)) {
    const stored = readFileSync(path, 'utf8').trim()
    if (stored) return { value: stored, source: 'stored', path }
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const value = generate()
  writeFileSync(path, `${value}\n`, { mode: 0o600 })
  chmodSync(path, 0o600)
  return { value, source: 'generated', path }
}

/** Reads a secret without creating one: env, file, or what an embedded start stored under DATA_DIR. */
export function findSecret(env: NodeJS.ProcessEnv, name: string, dataDir?: string): string | undefined {
  const file = env[`${name}_FILE`]
  if (file) return readFileSync(file, 'utf8').trim()
  if (env[name]) return env[name]
  if (!dataDir) return undefined
  const path = join(secretsDir(dataDir), name.toLowerCase())
  return existsSync(path) ? readFileSync(path, 'utf8').trim() || undefined : undefined
}
