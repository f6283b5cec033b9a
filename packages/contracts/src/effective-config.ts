import { type Static, Type } from '@sinclair/typebox'

/**
 * The effective configuration of a scope, field by field, with the layer each value comes from (spec: scoped
 * configuration; runtime > workspace > tenant > system > default). Each owning service answers its own sections
 * (`GET /internal/config/effective`: identity → session_risk, ai-orchestrator → llm and knowledge_provider);
 * config-governance adds the portal and answers them together at `GET /api/security/config/{kind}/effective`.
 */
export const CONFIG_SOURCES = ['runtime', 'workspace', 'tenant', 'system', 'default'] as const
export type ConfigSource = (typeof CONFIG_SOURCES)[number]

export const EffectiveField = Type.Object({
  /** the document path, section first (`llm.model`, `knowledge_provider.primary.search.top_k`) */
  path: Type.String(),
  /** the value in effect; a secret's is always null (see `secret` / `set`), an unset optional field's null */
  value: Type.Unknown(),
  source: Type.Union(CONFIG_SOURCES.map((s) => Type.Literal(s))),
  /** true for a key: never returned, only whether one is in effect (`set`) and which layer put it there */
  secret: Type.Optional(Type.Boolean()),
  set: Type.Optional(Type.Boolean()),
})
export type EffectiveField = Static<typeof EffectiveField>

export const EffectiveScopeQuery = Type.Object({
  tenant_id: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' }),
  /** absent or empty: the tenant's own scope */
  workspace_id: Type.Optional(Type.String({ pattern: '^([A-Za-z0-9][A-Za-z0-9_.-]{0,63})?$' })),
})
export type EffectiveScopeQuery = Static<typeof EffectiveScopeQuery>

/** An owning service's answer: its sections' fields, in document order. */
export const EffectiveSections = Type.Object({
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  fields: Type.Array(EffectiveField),
})
export type EffectiveSections = Static<typeof EffectiveSections>

/** A layer's value of one field, highest precedence first; `undefined` where the layer says nothing. */
export interface LayerValue {
  source: ConfigSource
  value: unknown
}

/**
 * The effective value of one field from its layers (highest precedence first): the first that holds a value, else
 * the last (the code default). `null` counts as "nothing here", as in `overlay` (packages/platform scoped-config.ts).
 */
export function effectiveOf(path: string, layers: readonly LayerValue[]): EffectiveField {
  const hit = layers.find((l) => l.value !== undefined && l.value !== null) ?? layers[layers.length - 1]
  return { path, value: hit?.value ?? null, source: hit?.source ?? 'default' }
}

/** The code default's own layer: `system` when the service's configured value differs from it, else `default`. */
export function systemOrDefault(system: unknown, codeDefault: unknown): LayerValue[] {
  const same = JSON.stringify(system ?? null) === JSON.stringify(codeDefault ?? null)
  return same ? [{ source: 'default', value: codeDefault }] : [{ source: 'system', value: system }]
}
