import { type Static, Type } from '@sinclair/typebox'
import { Nullable, PageQuery, Paginated, Timestamp } from '@switchboard/contracts'

/** A setting's name: what `config` and `config_schema.properties` are keyed by. */
export const SETTING_KEY = '^[A-Za-z][A-Za-z0-9_.-]{0,63}$'
/** The most settings one integration holds, and the longest text a setting or an enum value may be. */
export const MAX_SETTINGS = 64
export const MAX_SETTING_LENGTH = 4096

const Text = (maxLength: number) => Type.String({ maxLength })
// Enum values are checked against their property's type by the domain (schemaProblem): a string|number union here
// would let Ajv's type coercion turn 5 into "5" in the union's first branch.
const EnumValue = Type.Unknown({ description: "a string or a number, of the property's type" })

/**
 * One setting of `config_schema` (README "Integration settings" lists what is checked). `format: "password"` or
 * `"x-secret": true` marks a secret: sealed at rest, never shown. Anything outside this subset is refused (400 naming
 * it) rather than ignored, so an administrator never believes a rule is enforced when it is not.
 */
export const SettingSchema = Type.Object(
  {
    type: Type.Union([
      Type.Literal('string'),
      Type.Literal('number'),
      Type.Literal('integer'),
      Type.Literal('boolean'),
    ]),
    title: Type.Optional(Text(200)),
    description: Type.Optional(Text(1000)),
    enum: Type.Optional(Type.Array(EnumValue, { minItems: 1, maxItems: 100 })),
    minLength: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SETTING_LENGTH })),
    maxLength: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SETTING_LENGTH })),
    minimum: Type.Optional(Type.Number()),
    maximum: Type.Optional(Type.Number()),
    format: Type.Optional(Type.Union([Type.Literal('password'), Type.Literal('uri'), Type.Literal('email')])),
    'x-secret': Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type SettingSchema = Static<typeof SettingSchema>

/** The JSON Schema subset an integration's settings are checked against: one flat object of scalar settings. */
export const ConfigSchema = Type.Object(
  {
    $schema: Type.Optional(Text(200)),
    type: Type.Optional(Type.Literal('object')),
    title: Type.Optional(Text(200)),
    description: Type.Optional(Text(1000)),
    properties: Type.Optional(
      Type.Record(Type.String({ pattern: SETTING_KEY }), SettingSchema, {
        additionalProperties: false,
        maxProperties: MAX_SETTINGS,
      }),
    ),
    required: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: MAX_SETTINGS, uniqueItems: true })),
    /** undeclared settings: refused unless `true` (then scalars, secret-named ones sealed) */
    additionalProperties: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type ConfigSchema = Static<typeof ConfigSchema>

/** Settings as sent: scalars (checked against `config_schema`); `"[REDACTED]"` for a secret keeps the stored one. */
export const ConfigValues = Type.Record(Type.String({ pattern: SETTING_KEY }), Type.Unknown(), {
  additionalProperties: false,
  maxProperties: MAX_SETTINGS,
  description:
    'the settings, checked against config_schema; secrets are write-only ("[REDACTED]" keeps the stored value)',
})
export type ConfigValues = Static<typeof ConfigValues>

const Slug = Type.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', minLength: 1, maxLength: 64 })
const Url = Type.String({ minLength: 1, maxLength: 2048 })

const Fields = {
  name: Type.String({ minLength: 1, maxLength: 120 }),
  slug: Slug,
  vendor: Text(120),
  category: Text(64),
  summary: Text(1000),
  icon_url: Nullable(Url),
  capabilities: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50, uniqueItems: true }),
  config_schema: ConfigSchema,
  config: ConfigValues,
  iframe_url: Url,
  enabled: Type.Boolean(),
  last_sync_status: Nullable(Type.String({ minLength: 1, maxLength: 64 })),
}

/** `POST`: `name` and `iframe_url` required; `slug` derived from the name when absent. */
export const CreateIntegrationBody = Type.Object(
  {
    name: Fields.name,
    iframe_url: Fields.iframe_url,
    slug: Type.Optional(Fields.slug),
    vendor: Type.Optional(Fields.vendor),
    category: Type.Optional(Fields.category),
    summary: Type.Optional(Fields.summary),
    icon_url: Type.Optional(Fields.icon_url),
    capabilities: Type.Optional(Fields.capabilities),
    config_schema: Type.Optional(Fields.config_schema),
    config: Type.Optional(Fields.config),
    enabled: Type.Optional(Fields.enabled),
    last_sync_status: Type.Optional(Fields.last_sync_status),
  },
  { additionalProperties: false },
)
export type CreateIntegrationBody = Static<typeof CreateIntegrationBody>

/** `PUT` and `PATCH`: any field; they differ only in `config` (README). */
export const UpdateIntegrationBody = Type.Partial(CreateIntegrationBody, {
  additionalProperties: false,
  minProperties: 1,
})
export type UpdateIntegrationBody = Static<typeof UpdateIntegrationBody>

export const AppIntegration = Type.Object({
  id: Type.String(),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  ...Fields,
  config: Type.Record(Type.String(), Type.Unknown(), { description: 'the settings, each secret "[REDACTED]"' }),
  /** setting → `sha256:<12 hex>` for each secret stored: tells that a key changed without showing it */
  secrets: Type.Record(Type.String(), Type.String()),
  version: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type AppIntegration = Static<typeof AppIntegration>
export const IntegrationPage = Paginated(AppIntegration)

export const ListIntegrationsQuery = Type.Composite([
  PageQuery,
  Type.Object({
    enabled: Type.Optional(Type.Boolean()),
    category: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    vendor: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'substring of name or slug' })),
  }),
])
export type ListIntegrationsQuery = Static<typeof ListIntegrationsQuery>

export const IntegrationIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) })
