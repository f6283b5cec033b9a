import { existsSync } from 'node:fs'
import { type Static, Type } from '@sinclair/typebox'
import { UNITS } from '@switchboard/contracts'
import {
  baseConfigFromEnv,
  ConfigError,
  configEncryptionKeys,
  parseConfig,
  ServiceBaseConfig,
  secretFromEnv,
  serviceUrlsFromEnv,
} from '@switchboard/platform'
import { parseAllowList } from './outbound/address-guard.ts'

const TimeoutMs = (d: number) => Type.Integer({ minimum: 50, maximum: 300_000, default: d })

/** The OpenAI-compatible LLM (`POST {base_url}/chat/completions`); without a base_url the answer is the best passage. */
export const LlmSettings = Type.Object({
  base_url: Type.String({ default: '' }),
  api_key: Type.String({ default: '' }),
  model: Type.String({ default: 'gpt-4.1-mini' }),
  temperature: Type.Number({ minimum: 0, maximum: 2, default: 0.7 }),
  max_tokens: Type.Integer({ minimum: 1, maximum: 200_000, default: 1000 }),
  timeout_ms: TimeoutMs(30_000),
})
export type LlmSettings = Static<typeof LlmSettings>

/** The primary knowledge provider (Dify-style knowledge API, bearer key; base_url includes its `/v1`). */
export const PrimarySettings = Type.Object({
  enabled: Type.Boolean({ default: false }),
  base_url: Type.String({ default: '' }),
  api_key: Type.String({ default: '' }),
  dataset_id: Type.String({ default: '' }),
  timeout_ms: TimeoutMs(10_000),
  top_k: Type.Integer({ minimum: 1, maximum: 100, default: 5 }),
  score_threshold: Type.Number({ minimum: 0, maximum: 1, default: 0.5 }),
  search_method: Type.String({ default: 'semantic_search' }),
  reranking_enable: Type.Boolean({ default: false }),
})
export type PrimarySettings = Static<typeof PrimarySettings>

/** The compatibility provider (WeKnora-style: `X-API-Key`, optional `X-Tenant-ID`). */
export const CompatibilitySettings = Type.Object({
  enabled: Type.Boolean({ default: false }),
  base_url: Type.String({ default: '' }),
  api_key: Type.String({ default: '' }),
  tenant_id: Type.String({ default: '' }),
  knowledge_base_id: Type.String({ default: '' }),
  timeout_ms: TimeoutMs(10_000),
  max_retries: Type.Integer({ minimum: 0, maximum: 10, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 5 }),
  threshold: Type.Number({ minimum: 0, maximum: 1, default: 0.5 }),
  strategy: Type.String({ default: 'hybrid' }),
})
export type CompatibilitySettings = Static<typeof CompatibilitySettings>

/** One breaker per provider and one for the LLM; state shared by every replica (Redis; memory when embedded). */
export const BreakerSettings = Type.Object({
  enabled: Type.Boolean({ default: true }),
  /** consecutive failures that open it */
  max_failures: Type.Integer({ minimum: 1, maximum: 1000, default: 5 }),
  /** how long it stays open before trial calls are let through */
  reset_timeout_ms: Type.Integer({ minimum: 100, maximum: 86_400_000, default: 60_000 }),
  /** trial calls let through while half-open */
  half_open_max_requests: Type.Integer({ minimum: 1, maximum: 100, default: 3 }),
})
export type BreakerSettings = Static<typeof BreakerSettings>

export const AiConfig = Type.Composite([
  ServiceBaseConfig,
  Type.Object({
    llm: LlmSettings,
    primary: PrimarySettings,
    compatibility: CompatibilitySettings,
    /** which external provider is asked first; the other follows, the local knowledge base is always last */
    preferred: Type.Union([Type.Literal('primary'), Type.Literal('compatibility')], { default: 'primary' }),
    breaker: BreakerSettings,
    /** words that hand a conversation to a human (case-insensitive substrings) */
    handoff_words: Type.Array(Type.String({ minLength: 1 }), {
      default: ['human', 'agent', 'manual', 'complaint', 'real person', '人工', '客服', '转人工', '投诉'],
    }),
    /**
     * AI replies in conversations (AI_REPLIES_ENABLED): off by default, so that a desk turns the AI on for its
     * customers deliberately; on, every customer message in a session no human handles gets an answer or a hand-over
     */
    replies_enabled: Type.Boolean({ default: false }),
    /** an AI answer below this confidence hands the conversation to a human instead */
    min_confidence: Type.Number({ minimum: 0, maximum: 1, default: 0.5 }),
    /**
     * the fleet's configuration key (CONFIG_ENCRYPTION_KEY, as config-governance's; derived from INTERNAL_SECRET
     * without one): opens the LLM and provider keys a tenant or workspace stored (`config.scope.changed`)
     */
    config_encryption_key: Type.String({ minLength: 16 }),
    previous_config_encryption_keys: Type.Array(Type.String({ minLength: 16 }), { default: [] }),
    /** how long a replica keeps a scope's effective settings (a change is effective on every replica within it) */
    scoped_settings_cache_ms: Type.Integer({ minimum: 0, maximum: 1000, default: 250 }),
    /** conversations' replicas (UPSTREAM_CONVERSATIONS): AI replies are written through its internal API */
    conversations_urls: Type.Array(Type.String({ pattern: '^https?://' }), { default: [] }),
    /**
     * hosts a tenant's or workspace's own endpoints may reach although not public (AI_OUTBOUND_ALLOWED_HOSTS: host
     * names, addresses, CIDR ranges); every other non-public address is refused to them (outbound/address-guard.ts).
     * The system's endpoints (this environment's) are not restricted.
     */
    outbound_allowed_hosts: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    /** deliveries of one event to a consumer before it is dead-lettered */
    consumer_max_deliver: Type.Integer({ minimum: 1, maximum: 100, default: 5 }),
    /**
     * the lease of an AI reply's claim (AI_REPLY_LEASE_MS): renewed while its attempt works, so it runs out only
     * when that attempt died; then another attempt takes the message over (consumers/conversation-replies.consumer.ts)
     */
    reply_lease_ms: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 60_000 }),
  }),
])
export type AiConfig = Static<typeof AiConfig>

/**
 * The LLM's and providers' keys are optional: a `*_FILE` naming a file that is not there (an optional key absent
 * from the mounted secret) means "no key", not a failed start. JWT and internal secrets stay strict elsewhere.
 */
function optionalSecret(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const file = env[`${name}_FILE`]
  if (file && !existsSync(file)) return env[name]
  return secretFromEnv(env, name)
}

const list = (v: string | undefined) =>
  v
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean)

/** Pure: the environment in, a checked config out (docs/conventions.md §10). */
export function loadConfig(env: NodeJS.ProcessEnv): AiConfig {
  const base = baseConfigFromEnv(env, UNITS['ai-orchestrator'])
  const keys = configEncryptionKeys(env, base.internal_secret)
  const config = parseConfig(AiConfig, {
    ...base,
    config_encryption_key: keys.current,
    previous_config_encryption_keys: keys.previous,
    scoped_settings_cache_ms: env.AI_SCOPED_SETTINGS_CACHE_MS,
    llm: {
      base_url: env.LLM_BASE_URL,
      api_key: optionalSecret(env, 'LLM_API_KEY'),
      model: env.LLM_MODEL,
      temperature: env.LLM_TEMPERATURE,
      max_tokens: env.LLM_MAX_TOKENS,
      timeout_ms: env.LLM_TIMEOUT_MS,
    },
    primary: {
      enabled: env.PRIMARY_PROVIDER_ENABLED,
      base_url: env.PRIMARY_PROVIDER_BASE_URL,
      api_key: optionalSecret(env, 'PRIMARY_PROVIDER_API_KEY'),
      dataset_id: env.PRIMARY_PROVIDER_DATASET_ID,
      timeout_ms: env.PRIMARY_PROVIDER_TIMEOUT_MS,
      top_k: env.PRIMARY_PROVIDER_TOP_K,
      score_threshold: env.PRIMARY_PROVIDER_SCORE_THRESHOLD,
      search_method: env.PRIMARY_PROVIDER_SEARCH_METHOD,
    },
    compatibility: {
      enabled: env.COMPAT_PROVIDER_ENABLED,
      base_url: env.COMPAT_PROVIDER_BASE_URL,
      api_key: optionalSecret(env, 'COMPAT_PROVIDER_API_KEY'),
      tenant_id: env.COMPAT_PROVIDER_TENANT_ID,
      knowledge_base_id: env.COMPAT_PROVIDER_KNOWLEDGE_BASE_ID,
      timeout_ms: env.COMPAT_PROVIDER_TIMEOUT_MS,
      max_retries: env.COMPAT_PROVIDER_MAX_RETRIES,
      limit: env.COMPAT_PROVIDER_LIMIT,
      threshold: env.COMPAT_PROVIDER_THRESHOLD,
      strategy: env.COMPAT_PROVIDER_STRATEGY,
    },
    preferred: env.KNOWLEDGE_PROVIDER_PREFERRED,
    breaker: {
      enabled: env.AI_BREAKER_ENABLED,
      max_failures: env.AI_BREAKER_MAX_FAILURES,
      reset_timeout_ms: env.AI_BREAKER_RESET_TIMEOUT_MS,
      half_open_max_requests: env.AI_BREAKER_HALF_OPEN_MAX_REQUESTS,
    },
    handoff_words: list(env.AI_HANDOFF_WORDS),
    replies_enabled: env.AI_REPLIES_ENABLED,
    min_confidence: env.AI_MIN_CONFIDENCE,
    consumer_max_deliver: env.AI_CONSUMER_MAX_DELIVER,
    conversations_urls: serviceUrlsFromEnv(env, 'conversations'),
    outbound_allowed_hosts: list(env.AI_OUTBOUND_ALLOWED_HOSTS),
    reply_lease_ms: env.AI_REPLY_LEASE_MS,
  })
  try {
    parseAllowList(config.outbound_allowed_hosts)
  } catch (err) {
    throw new ConfigError(`invalid configuration: AI_OUTBOUND_ALLOWED_HOSTS: ${(err as Error).message}`)
  }
  return config
}
