import { type Static, Type } from '@sinclair/typebox'
import { CONFIG_SECTIONS } from './events/config.ts'

/**
 * The sections of a scope's configuration overrides (the spec's scoped configuration): what config-governance stores,
 * validates (`PUT /api/security/config/{kind}`) and announces in `config.scope.changed`, and what the owning services
 * apply — identity `session_risk`, ai-orchestrator `llm` and `knowledge_provider`, config-governance the `portal`.
 * One home for their shapes; each service's own system settings (its environment, with defaults) stay in its
 * `config.ts`, and session risk, whose keys identity's system config shares, is made from one table below.
 *
 * Every field of a section is optional in a document: a section holds only what the scope overrides. Unknown fields
 * are refused (400 naming the path), so a typo is not stored silently.
 */

/**
 * An origin a page may embed the widget from: scheme, host and optional port, nothing else (no path, no trailing
 * slash, no credentials) — what a browser sends as `Origin` and what `frame-ancestors` lists.
 */
export const WIDGET_ORIGIN_PATTERN =
  '^https?://(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)(:[0-9]{1,5})?$'
export const WidgetOrigin = Type.String({ pattern: WIDGET_ORIGIN_PATTERN, maxLength: 300 })
export const WIDGET_PRECHAT = ['off', 'name', 'name_email'] as const
export const WidgetPrechat = Type.Union(WIDGET_PRECHAT.map((v) => Type.Literal(v)))

const strict = { additionalProperties: false } as const
const Url = Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2048 })
const Secret = Type.String({ minLength: 1, maxLength: 4096 })
const Color = Type.String({ pattern: '^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$' })
const Locale = Type.String({ pattern: '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$' })
const TimeoutMs = Type.Integer({ minimum: 100, maximum: 300_000 })
const Count = (max: number) => Type.Integer({ minimum: 1, maximum: max })

/**
 * The widget's part of the portal: each allowed origin `http(s)://host[:port]` (no path; 400 naming the item),
 * listed once; `greeting` / `offline_message` `null` fall back to the layer below.
 */
export const WidgetSection = Type.Object(
  {
    allowed_origins: Type.Array(WidgetOrigin, { maxItems: 100, uniqueItems: true }),
    prechat: WidgetPrechat,
    greeting: Type.Union([Type.String({ minLength: 1, maxLength: 500 }), Type.Null()]),
    offline_message: Type.Union([Type.String({ minLength: 1, maxLength: 1000 }), Type.Null()]),
  },
  strict,
)

export const PortalSection = Type.Object(
  {
    brand_name: Type.String({ minLength: 1, maxLength: 120 }),
    logo_url: Url,
    primary_color: Color,
    secondary_color: Color,
    default_locale: Locale,
    locales: Type.Array(Locale, { minItems: 1, maxItems: 20, uniqueItems: true }),
    support_email: Type.String({ format: 'email', maxLength: 320 }),
    widget: Type.Partial(WidgetSection),
  },
  strict,
)

export const LlmSection = Type.Object(
  {
    base_url: Url,
    api_key: Secret,
    model: Type.String({ minLength: 1, maxLength: 200 }),
    temperature: Type.Number({ minimum: 0, maximum: 2 }),
    max_tokens: Count(200_000),
    timeout_ms: TimeoutMs,
  },
  strict,
)

const PrimaryProvider = Type.Object(
  {
    enabled: Type.Boolean(),
    base_url: Url,
    api_key: Secret,
    dataset_id: Type.String({ minLength: 1, maxLength: 200 }),
    timeout_ms: TimeoutMs,
    search: Type.Partial(
      Type.Object(
        {
          top_k: Count(100),
          score_threshold: Type.Number({ minimum: 0, maximum: 1 }),
          search_method: Type.Union(
            ['semantic_search', 'full_text_search', 'hybrid_search', 'keyword_search'].map((m) => Type.Literal(m)),
          ),
          reranking_enable: Type.Boolean(),
        },
        strict,
      ),
    ),
  },
  strict,
)

const CompatibilityProvider = Type.Object(
  {
    enabled: Type.Boolean(),
    base_url: Url,
    api_key: Secret,
    tenant_id: Type.String({ minLength: 1, maxLength: 200 }),
    knowledge_base_id: Type.String({ minLength: 1, maxLength: 200 }),
    timeout_ms: TimeoutMs,
    max_retries: Type.Integer({ minimum: 0, maximum: 10 }),
    search: Type.Partial(
      Type.Object(
        {
          default_limit: Count(100),
          score_threshold: Type.Number({ minimum: 0, maximum: 1 }),
          strategy: Type.Union(['hybrid', 'vector', 'keyword'].map((m) => Type.Literal(m))),
        },
        strict,
      ),
    ),
    health_check: Type.Partial(Type.Object({ interval_seconds: Count(86_400), timeout_ms: TimeoutMs }, strict)),
  },
  strict,
)

export const KnowledgeProviderSection = Type.Object(
  {
    /** which external provider is asked first; the other one follows, the local knowledge base last */
    preferred: Type.Union([Type.Literal('primary'), Type.Literal('compatibility')]),
    primary: Type.Partial(PrimaryProvider),
    compatibility: Type.Partial(CompatibilityProvider),
  },
  strict,
)

/**
 * Session risk's thresholds and windows, one row per key: its code default, and the bounds of each use — `system`
 * the floor identity's own configuration accepts (`security.session_risk`, `SESSION_RISK_*`: no ceiling, a score may
 * be 0), `override` the range a tenant or workspace may store (at least 1, at most a sane ceiling). The limits differ
 * on purpose: the operator's system value is trusted, a scope's override is bounded.
 */
export const SESSION_RISK_KEYS = {
  hot_refresh_window_minutes: { default: 10, system: { minimum: 1 }, override: { minimum: 1, maximum: 10_080 } },
  recent_refresh_window_minutes: { default: 30, system: { minimum: 1 }, override: { minimum: 1, maximum: 10_080 } },
  today_refresh_window_hours: { default: 24, system: { minimum: 1 }, override: { minimum: 1, maximum: 720 } },
  rapid_change_window_hours: { default: 12, system: { minimum: 1 }, override: { minimum: 1, maximum: 720 } },
  stale_activity_window_days: { default: 14, system: { minimum: 1 }, override: { minimum: 1, maximum: 365 } },
  multi_public_ip_threshold: { default: 2, system: { minimum: 1 }, override: { minimum: 1, maximum: 100 } },
  many_sessions_threshold: { default: 3, system: { minimum: 1 }, override: { minimum: 1, maximum: 1000 } },
  hot_refresh_family_threshold: { default: 2, system: { minimum: 1 }, override: { minimum: 1, maximum: 100 } },
  medium_risk_score: { default: 2, system: { minimum: 0 }, override: { minimum: 1, maximum: 20 } },
  high_risk_score: { default: 4, system: { minimum: 0 }, override: { minimum: 1, maximum: 20 } },
} as const
export type SessionRiskKey = keyof typeof SESSION_RISK_KEYS
type SessionRiskFields = { [K in SessionRiskKey]: ReturnType<typeof Type.Integer> }

/**
 * The session-risk section with one use's limits: `system` (every key, its default, identity's floor) or `override`
 * (a stored section: the bounded range, no default, unknown keys refused; made partial by `ConfigDocument`).
 */
export function sessionRiskSchema(limits: 'system' | 'override') {
  const fields = {} as SessionRiskFields
  for (const [key, row] of Object.entries(SESSION_RISK_KEYS) as [
    SessionRiskKey,
    (typeof SESSION_RISK_KEYS)[SessionRiskKey],
  ][]) {
    fields[key] = Type.Integer(limits === 'system' ? { ...row.system, default: row.default } : { ...row.override })
  }
  return limits === 'system' ? Type.Object(fields) : Type.Object(fields, strict)
}

/** Every session-risk key with its value (the policy identity resolves). */
export const SessionRiskPolicy = sessionRiskSchema('system')
export type SessionRiskPolicy = Static<typeof SessionRiskPolicy>

/** The code defaults, the lowest layer of every scope's session-risk policy. */
export const DEFAULT_SESSION_RISK_POLICY: Readonly<SessionRiskPolicy> = Object.freeze(
  Object.fromEntries(Object.entries(SESSION_RISK_KEYS).map(([k, row]) => [k, row.default])) as SessionRiskPolicy,
)

export const SessionRiskSection = sessionRiskSchema('override')

/** A stored document: the sections a scope overrides. `null` for a section in a PUT removes its override. */
export const ConfigDocument = Type.Object(
  {
    portal: Type.Optional(Type.Partial(PortalSection)),
    llm: Type.Optional(Type.Partial(LlmSection)),
    knowledge_provider: Type.Optional(Type.Partial(KnowledgeProviderSection)),
    session_risk: Type.Optional(Type.Partial(SessionRiskSection)),
  },
  strict,
)
export type ConfigDocument = Static<typeof ConfigDocument>

/** The sections a document may hold, each once (`CONFIG_SECTIONS`, also the sections an effective view answers). */
export const ConfigSectionName = Type.Union(CONFIG_SECTIONS.map((s) => Type.Literal(s)))
