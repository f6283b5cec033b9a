import { type Static, Type } from '@sinclair/typebox'
import { UNITS, WIDGET_PRECHAT, WidgetOrigin, WidgetPrechat } from '@switchboard/contracts'
import {
  baseConfigFromEnv,
  configEncryptionKeys,
  parseConfig,
  ServiceBaseConfig,
  serviceUrlsFromEnv,
} from '@switchboard/platform'

// A widget origin and the pre-chat choices are shapes of the portal section: packages/contracts (config-sections.ts).
export { WIDGET_ORIGIN_PATTERN, WIDGET_PRECHAT, WidgetOrigin, WidgetPrechat } from '@switchboard/contracts'

/** The chat widget of a scope (issue 21): where it may be embedded and what it says before and without an agent. */
export const WidgetSettings = Type.Object(
  {
    /** the sites allowed to embed the widget; empty = any (development), which the security baseline reports */
    allowed_origins: Type.Array(WidgetOrigin, { maxItems: 100, default: [] }),
    prechat: Type.Union(
      WIDGET_PRECHAT.map((v) => Type.Literal(v)),
      { default: 'off' },
    ),
    greeting: Type.Union([Type.String({ maxLength: 500 }), Type.Null()], { default: null }),
    offline_message: Type.Union([Type.String({ maxLength: 1000 }), Type.Null()], { default: null }),
  },
  { default: {} },
)
export type WidgetSettings = Static<typeof WidgetSettings>

/** The portal's public face (`GET /public/portal/config`); every field may be overridden per scope. */
export const PortalSettings = Type.Object({
  brand_name: Type.String({ minLength: 1, maxLength: 120, default: 'Switchboard' }),
  logo_url: Type.Optional(Type.String({ maxLength: 2048 })),
  primary_color: Type.String({ default: '#4299e1' }),
  secondary_color: Type.String({ default: '#764ba2' }),
  default_locale: Type.String({ default: 'en-US' }),
  locales: Type.Array(Type.String(), { minItems: 1, default: ['en-US'] }),
  support_email: Type.Optional(Type.String({ maxLength: 320 })),
  widget: WidgetSettings,
})
export type PortalSettings = Static<typeof PortalSettings>

/** The runtime layer: any of the portal's fields, no defaults (an absent field leaves the layers below). */
const PortalRuntime = Type.Partial(
  Type.Object({
    brand_name: Type.String({ minLength: 1 }),
    logo_url: Type.String(),
    primary_color: Type.String(),
    secondary_color: Type.String(),
    default_locale: Type.String(),
    locales: Type.Array(Type.String(), { minItems: 1 }),
    support_email: Type.String(),
    widget: Type.Partial(
      Type.Object({
        allowed_origins: Type.Array(WidgetOrigin),
        prechat: WidgetPrechat,
        greeting: Type.String(),
        offline_message: Type.String(),
      }),
    ),
  }),
)

export const ConfigGovernanceConfig = Type.Composite([
  ServiceBaseConfig,
  Type.Object({
    /**
     * Key of the secrets stored at rest (AES-256-GCM; CONFIG_ENCRYPTION_KEY or _FILE, any string of 16+ characters,
     * hashed to 256 bits). Absent: derived from INTERNAL_SECRET (the embedded default and `npm run fleet`); the
     * service logs a warning at start when it runs on a derived key outside development.
     */
    encryption_key: Type.String({ minLength: 16 }),
    /** earlier keys still accepted for reading (CONFIG_ENCRYPTION_KEYS_PREVIOUS or _FILE, comma-separated): rotation */
    previous_encryption_keys: Type.Array(Type.String({ minLength: 16 }), { default: [] }),
    encryption_key_derived: Type.Boolean({ default: false }),
    /** the system layer of the portal (PORTAL_*), below tenant and workspace overrides */
    portal: PortalSettings,
    /** the runtime layer (PORTAL_RUNTIME_JSON): beats every stored override, spec precedence */
    portal_runtime: Type.Optional(PortalRuntime),
    /** how long a replica serves a scope's resolved portal from memory (a change is visible within it) */
    portal_cache_ms: Type.Integer({ minimum: 0, maximum: 1000, default: 250 }),
    /**
     * the owners of the other sections' system layers (UPSTREAM_IDENTITY: session risk; UPSTREAM_AI_ORCHESTRATOR:
     * LLM and knowledge provider), asked for a scope's effective view; absent: those sections are `unavailable`
     */
    identity_urls: Type.Array(Type.String({ pattern: '^https?://' }), { default: [] }),
    ai_orchestrator_urls: Type.Array(Type.String({ pattern: '^https?://' }), { default: [] }),
  }),
])
export type ConfigGovernanceConfig = Static<typeof ConfigGovernanceConfig>

const list = (v: string | undefined) =>
  v
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean)

function json(env: NodeJS.ProcessEnv, name: string): unknown {
  const raw = env[name]
  if (!raw) return undefined
  try {
    return JSON.parse(raw)
  } catch {
    throw new Error(`${name} is not valid JSON`)
  }
}

/** Pure: the environment in, a checked config out (docs/conventions.md §10). */
export function loadConfig(env: NodeJS.ProcessEnv): ConfigGovernanceConfig {
  const base = baseConfigFromEnv(env, UNITS['config-governance'])
  const keys = configEncryptionKeys(env, base.internal_secret)
  return parseConfig(ConfigGovernanceConfig, {
    ...base,
    encryption_key: keys.current,
    encryption_key_derived: keys.derived,
    previous_encryption_keys: keys.previous,
    portal: {
      brand_name: env.PORTAL_BRAND_NAME,
      logo_url: env.PORTAL_LOGO_URL,
      primary_color: env.PORTAL_PRIMARY_COLOR,
      secondary_color: env.PORTAL_SECONDARY_COLOR,
      default_locale: env.PORTAL_DEFAULT_LOCALE,
      locales: list(env.PORTAL_LOCALES),
      support_email: env.PORTAL_SUPPORT_EMAIL,
      widget: {
        allowed_origins: list(env.PORTAL_WIDGET_ALLOWED_ORIGINS),
        prechat: env.PORTAL_WIDGET_PRECHAT,
        greeting: env.PORTAL_WIDGET_GREETING,
        offline_message: env.PORTAL_WIDGET_OFFLINE_MESSAGE,
      },
    },
    portal_runtime: json(env, 'PORTAL_RUNTIME_JSON'),
    portal_cache_ms: env.PORTAL_CACHE_MS,
    identity_urls: serviceUrlsFromEnv(env, 'identity'),
    ai_orchestrator_urls: serviceUrlsFromEnv(env, 'ai-orchestrator'),
  })
}
