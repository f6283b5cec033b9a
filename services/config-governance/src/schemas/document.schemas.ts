import { type Static, Type } from '@sinclair/typebox'
import { WidgetOrigin, WidgetPrechat } from '../config.ts'

/**
 * The sections of a scope's stored overrides (spec: Scoped configuration). Every field is optional: a section holds
 * only what the scope overrides. Unknown fields are refused (400 naming the path), so a typo is not stored silently.
 */
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

const Minutes = Type.Integer({ minimum: 1, maximum: 10_080 })
export const SessionRiskSection = Type.Object(
  {
    hot_refresh_window_minutes: Minutes,
    recent_refresh_window_minutes: Minutes,
    today_refresh_window_hours: Type.Integer({ minimum: 1, maximum: 720 }),
    rapid_change_window_hours: Type.Integer({ minimum: 1, maximum: 720 }),
    stale_activity_window_days: Type.Integer({ minimum: 1, maximum: 365 }),
    multi_public_ip_threshold: Count(100),
    many_sessions_threshold: Count(1000),
    hot_refresh_family_threshold: Count(100),
    medium_risk_score: Count(20),
    high_risk_score: Count(20),
  },
  strict,
)

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
