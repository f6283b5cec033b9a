import type { GatewayConfig } from './config.ts'

export interface Finding {
  id: string
  severity: 'high' | 'medium'
  message: string
}

/** Values that ship in examples and must never guard a deployment (the earlier system's defaults included). */
const DEFAULT_SECRETS = new Set([
  '',
  'change-me',
  'changeme',
  'dev-secret',
  'secret',
  'jwt-secret',
  '<JWT_SECRET>',
  'dev-secret-key-change-in-production',
  'default-secret-key-change-in-production',
])
/** Words that mark a value as a placeholder, however long it is. */
const PLACEHOLDER = /change[-_ ]?(me|it|this)|in[-_ ]production|placeholder|example|default|dev[-_]?secret|your[-_ ]/i

/** Shannon entropy of the value's characters, in bits per character. */
export function bitsPerChar(value: string): number {
  const counts = new Map<string, number>()
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1)
  let bits = 0
  for (const n of counts.values()) bits -= (n / value.length) * Math.log2(n / value.length)
  return bits
}

/**
 * A secret fit to sign tokens: not a known default or placeholder, at least 32 characters, and not repetitive
 * (under 3 bits per character — `aaaa…`, `abababab…` — or fewer than 10 distinct characters). 32 random
 * base64url characters carry about 5.
 */
export function secretProblem(value: string): { id: 'default' | 'weak'; message: string } | undefined {
  const v = value.trim()
  if (DEFAULT_SECRETS.has(v) || PLACEHOLDER.test(v))
    return { id: 'default', message: 'is empty, a default or a placeholder' }
  if (v.length < 32) return { id: 'weak', message: 'is shorter than 32 characters' }
  if (bitsPerChar(v) < 3 || new Set(v).size < 10) return { id: 'weak', message: 'is low-entropy (repetitive)' }
  return undefined
}

/** Path families that must each have a rate limit of their own (docs/api.md §9). */
export const REQUIRED_LIMIT_PREFIXES = [
  '/public/',
  '/public/kb/',
  '/public/csat/',
  '/public/widget/',
  '/public/widget/tickets',
  '/help/',
  '/csat/',
  '/api/v1/auth/',
  '/api/v1/ws',
  '/uploads/',
  '/api/v1/metrics/ingest',
  '/api/',
] as const

type BaselineInput = Pick<GatewayConfig, 'jwt' | 'internal_secret' | 'cors_origins' | 'rate_limits' | 'providers'>

/**
 * The security baseline (docs/api.md §9) as a pure function: the CLI's `security-baseline
 * --strict` fails on any finding; the gateway logs each as a warning at start-up.
 */
export function securityBaseline(config: BaselineInput): Finding[] {
  const out: Finding[] = []
  const secrets: Array<[name: string, prefix: string, value: string]> = [
    ['JWT_SECRET', 'jwt', config.jwt.secret],
    ...config.jwt.previous_secrets.map((v): [string, string, string] => ['JWT_PREVIOUS_SECRETS', 'jwt', v]),
    ['INTERNAL_SECRET', 'internal', config.internal_secret],
  ]
  for (const [name, prefix, value] of secrets) {
    const problem = secretProblem(value)
    if (!problem) continue
    out.push({
      id: `${prefix}_${problem.id}_secret`,
      severity: problem.id === 'default' ? 'high' : 'medium',
      message: `${name} ${problem.message}`,
    })
  }
  if (config.cors_origins.includes('*')) {
    out.push({ id: 'cors_open', severity: 'high', message: 'CORS_ORIGINS allows any origin (*)' })
  }
  if (!config.rate_limits.enabled) {
    out.push({ id: 'rate_limit_disabled', severity: 'high', message: 'rate limiting is disabled' })
  } else {
    const own = new Set(config.rate_limits.prefixes.map((p) => p.prefix))
    for (const prefix of REQUIRED_LIMIT_PREFIXES) {
      if (!own.has(prefix)) {
        out.push({ id: 'rate_limit_missing_prefix', severity: 'high', message: `no own rate limit for ${prefix}` })
      }
    }
  }
  for (const p of config.providers) {
    if (p.enabled && p.api_key.trim() === '') {
      out.push({
        id: 'provider_key_empty',
        severity: 'high',
        message: `provider ${p.name} is enabled without an API key`,
      })
    }
  }
  return out
}
