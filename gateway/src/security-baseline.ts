import type { GatewayConfig } from './config.ts'

export interface Finding {
  id: string
  severity: 'high' | 'medium'
  message: string
}

/** Values that ship in examples and must never guard a deployment. */
const DEFAULT_SECRETS = new Set(['', 'change-me', 'changeme', 'dev-secret', 'secret', 'jwt-secret', '<JWT_SECRET>'])

/** Path families the spec requires an own rate limit for (Authentication §11). */
export const REQUIRED_LIMIT_PREFIXES = [
  '/public/',
  '/public/kb/',
  '/public/csat/',
  '/api/v1/auth/',
  '/api/v1/ws',
  '/uploads/',
  '/api/v1/metrics/ingest',
  '/api/',
] as const

type BaselineInput = Pick<GatewayConfig, 'jwt' | 'cors_origins' | 'rate_limits' | 'providers'>

/**
 * The security baseline (spec Authentication §11) as a pure function: the CLI's `security-baseline
 * --strict` fails on any finding; the gateway logs each as a warning at start-up.
 */
export function securityBaseline(config: BaselineInput): Finding[] {
  const out: Finding[] = []
  const secrets = [config.jwt.secret, ...config.jwt.previous_secrets]
  if (secrets.some((s) => DEFAULT_SECRETS.has(s.trim()))) {
    out.push({ id: 'jwt_default_secret', severity: 'high', message: 'JWT_SECRET is empty or a default value' })
  } else if (config.jwt.secret.length < 32) {
    out.push({ id: 'jwt_weak_secret', severity: 'medium', message: 'JWT_SECRET is shorter than 32 characters' })
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
