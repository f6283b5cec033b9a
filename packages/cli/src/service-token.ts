import { buildKeyring, type Claims, issueToken, keyringFromEnv, serviceTtlMaxFromEnv } from '@switchboard/auth'
import { findSecret } from './secrets.ts'

export interface MintOptions {
  service: string
  permissions: string[]
  tenant_id?: string
  workspace_id?: string
  ttlSeconds?: number
  env?: NodeJS.ProcessEnv
  /** fall back to the secret an embedded start stored under DATA_DIR */
  dataDir?: string
}

const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/i

/**
 * A service-principal access token: principal_kind `service`, the permissions given (nothing implied by a
 * role), optionally scoped. Signed with the JWT keyring from the environment (JWT_SECRET or JWT_SECRET_FILE).
 */
export async function mintServiceToken(opts: MintOptions): Promise<{ token: string; claims: Claims }> {
  const env = opts.env ?? process.env
  if (!SLUG.test(opts.service)) throw new Error('--service must be a slug (letters, digits, - and _)')
  if (opts.permissions.length === 0) throw new Error('at least one --permission is required')
  if (opts.workspace_id && !opts.tenant_id) throw new Error('--workspace needs --tenant')
  const ttl = opts.ttlSeconds ?? 3600
  if (!Number.isInteger(ttl) || ttl <= 0) throw new Error('--ttl must be a positive number of seconds')
  // The gateway refuses a service token that lives longer (packages/auth/src/lifetimes.ts): never mint one.
  const max = serviceTtlMaxFromEnv(env)
  if (ttl > max) throw new Error(`--ttl must be at most ${max} seconds (JWT_SERVICE_TTL_MAX_SECONDS)`)
  let keys = env.JWT_SECRET || env.JWT_SECRET_FILE ? keyringFromEnv(env) : undefined
  if (!keys) {
    const stored = findSecret(env, 'JWT_SECRET', opts.dataDir ?? env.DATA_DIR ?? './data')
    if (!stored) throw new Error('no JWT secret: set JWT_SECRET or JWT_SECRET_FILE (or start the embedded mode once)')
    keys = buildKeyring(stored)
  }
  return issueToken(
    keys,
    {
      user_id: `service:${opts.service}`,
      roles: ['service'],
      principal_kind: 'service',
      permissions: [...new Set(opts.permissions)],
      token_version: 0,
      session_id: '',
      session_token_version: 0,
      tenant_id: opts.tenant_id ?? '',
      workspace_id: opts.workspace_id ?? '',
    },
    { ttlSeconds: ttl, tokenUse: 'access' },
  )
}
