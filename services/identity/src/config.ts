import { type Static, Type } from '@sinclair/typebox'
import { ACCESS_TTL_SECONDS, REFRESH_TTL_SECONDS } from '@switchboard/auth'
import { SessionRiskPolicy, UNITS } from '@switchboard/contracts'
import { baseConfigFromEnv, parseConfig, ServiceBaseConfig, secretFromEnv } from '@switchboard/platform'

/**
 * security.session_risk: every key with its code default and the system floor — the session-risk table of
 * packages/contracts (config-sections.ts), whose `override` limits bound what a scope may store.
 */
export { SessionRiskPolicy }

/** security.session_risk_profiles.{environment}: the keys an environment profile may override. */
export const SessionRiskProfile = Type.Partial(
  Type.Pick(SessionRiskPolicy, [
    'hot_refresh_window_minutes',
    'recent_refresh_window_minutes',
    'rapid_change_window_hours',
    'stale_activity_window_days',
    'high_risk_score',
  ]),
)
export type SessionRiskProfile = Static<typeof SessionRiskProfile>

export const SessionIpIntelligence = Type.Object({
  enabled: Type.Boolean({ default: false }),
  /** `{ip}` is replaced by the client address */
  base_url: Type.String({ default: '' }),
  api_key: Type.String({ default: '' }),
  auth_header: Type.String({ default: 'Authorization' }),
  timeout_ms: Type.Integer({ minimum: 1, maximum: 60_000, default: 1500 }),
})
export type SessionIpIntelligence = Static<typeof SessionIpIntelligence>

export const IdentityOwnConfig = Type.Object({
  jwt: Type.Object({
    secret: Type.String({ minLength: 1 }),
    /** verify-only keys after a rotation (JWT_PREVIOUS_SECRETS) */
    previous_secrets: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    /** the gateway reads the same JWT_ACCESS_TTL_SECONDS to bound access tokens (packages/auth/src/lifetimes.ts) */
    access_ttl_seconds: Type.Integer({
      minimum: ACCESS_TTL_SECONDS.min,
      maximum: ACCESS_TTL_SECONDS.max,
      default: ACCESS_TTL_SECONDS.default,
    }),
    /** also the longest a refresh token may have lived to be accepted at /refresh */
    refresh_ttl_seconds: Type.Integer({
      minimum: REFRESH_TTL_SECONDS.min,
      maximum: REFRESH_TTL_SECONDS.max,
      default: REFRESH_TTL_SECONDS.default,
    }),
  }),
  /** argon2id costs; the defaults are OWASP's minimum for argon2id (19 MiB, 2 passes, 1 lane) */
  passwords: Type.Object({
    memory_cost_kib: Type.Integer({ minimum: 8, default: 19_456 }),
    time_cost: Type.Integer({ minimum: 1, default: 2 }),
    parallelism: Type.Integer({ minimum: 1, maximum: 16, default: 1 }),
  }),
  security: Type.Object({
    refresh_reuse_revokes_session: Type.Boolean({ default: false }),
    session_risk: SessionRiskPolicy,
    session_risk_profiles: Type.Record(Type.String(), SessionRiskProfile, { default: {} }),
    /**
     * the runtime layer (SESSION_RISK_RUNTIME_JSON): beats every stored tenant/workspace override (spec precedence);
     * SESSION_RISK_* are the system layer, below them. Keys of session_risk; others are ignored when resolving.
     */
    session_risk_runtime: Type.Optional(Type.Record(Type.String(), Type.Number({ minimum: 0 }))),
    session_ip_intelligence: SessionIpIntelligence,
    /** peers whose X-Forwarded-For is believed (the gateway); CIDRs */
    trusted_proxies: Type.Array(Type.String(), { default: ['127.0.0.0/8', '::1/128'] }),
  }),
  seed: Type.Object({
    /** seed the demo tenant on start (the embedded default turns it on) */
    enabled: Type.Boolean({ default: false }),
    admin_username: Type.String({ minLength: 1, default: 'admin' }),
    /** empty: a random one is generated and logged once */
    admin_password: Type.String({ default: '' }),
    agent_username: Type.String({ minLength: 1, default: 'agent' }),
    agent_password: Type.String({ default: '' }),
  }),
  workers: Type.Object({
    denylist_cleanup_interval_seconds: Type.Integer({ minimum: 1, default: 300 }),
  }),
})

export const IdentityConfig = Type.Composite([ServiceBaseConfig, IdentityOwnConfig])
export type IdentityConfig = Static<typeof IdentityConfig>

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined
  return value
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean)
}

function json(env: NodeJS.ProcessEnv, name: string): unknown {
  const text = env[name]
  if (text === undefined || text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    // parseConfig reports the path; a string where an object belongs names the variable's key.
    return `invalid JSON in ${name}`
  }
}

const riskKeys = Object.keys(SessionRiskPolicy.properties) as Array<keyof SessionRiskPolicy>

/** Pure: the environment in, a checked config out (or a ConfigError listing every problem). */
export function loadConfig(env: NodeJS.ProcessEnv): IdentityConfig {
  const sessionRisk: Record<string, string | undefined> = {}
  for (const k of riskKeys) sessionRisk[k] = env[`SESSION_RISK_${k.toUpperCase()}`]
  return parseConfig(IdentityConfig, {
    ...baseConfigFromEnv(env, UNITS.identity),
    jwt: {
      secret: secretFromEnv(env, 'JWT_SECRET') ?? '',
      previous_secrets: list(secretFromEnv(env, 'JWT_PREVIOUS_SECRETS')),
      access_ttl_seconds: env.JWT_ACCESS_TTL_SECONDS,
      refresh_ttl_seconds: env.JWT_REFRESH_TTL_SECONDS,
    },
    passwords: {
      memory_cost_kib: env.ARGON2_MEMORY_COST_KIB,
      time_cost: env.ARGON2_TIME_COST,
      parallelism: env.ARGON2_PARALLELISM,
    },
    security: {
      refresh_reuse_revokes_session: env.REFRESH_REUSE_REVOKES_SESSION,
      session_risk: sessionRisk,
      session_risk_profiles: json(env, 'SESSION_RISK_PROFILES_JSON'),
      session_risk_runtime: json(env, 'SESSION_RISK_RUNTIME_JSON'),
      session_ip_intelligence: {
        enabled: env.SESSION_IP_INTELLIGENCE_ENABLED,
        base_url: env.SESSION_IP_INTELLIGENCE_BASE_URL,
        api_key: secretFromEnv(env, 'SESSION_IP_INTELLIGENCE_API_KEY'),
        auth_header: env.SESSION_IP_INTELLIGENCE_AUTH_HEADER,
        timeout_ms: env.SESSION_IP_INTELLIGENCE_TIMEOUT_MS,
      },
      trusted_proxies: list(env.TRUSTED_PROXIES),
    },
    seed: {
      enabled: env.SEED_DEMO,
      admin_username: env.ADMIN_USERNAME || undefined,
      admin_password: secretFromEnv(env, 'ADMIN_PASSWORD'),
      agent_username: env.AGENT_USERNAME || undefined,
      agent_password: secretFromEnv(env, 'AGENT_PASSWORD'),
    },
    workers: { denylist_cleanup_interval_seconds: env.DENYLIST_CLEANUP_INTERVAL_SECONDS },
  })
}
