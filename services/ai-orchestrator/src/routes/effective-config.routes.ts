import { Value } from '@sinclair/typebox/value'
import {
  type EffectiveField,
  EffectiveScopeQuery,
  EffectiveSections,
  effectiveOf,
  type LayerValue,
  systemOrDefault,
} from '@switchboard/contracts'
import { createError, errorResponses, isPlainObject, type RouteModule } from '@switchboard/platform'
import { CompatibilitySettings, LlmSettings, PrimarySettings } from '../config.ts'
import type { AiService } from '../context.ts'
import { findScopedSettings, type StoredSettings } from '../db/scoped-settings.repository.ts'
import { type AiSettings, systemSettings } from '../runtime/scoped-runtime.ts'

const ServiceOnly = createError('AI_SERVICE_ONLY', 'only service principals may call this endpoint', 403)

/** The code defaults (the config schema's), the lowest layer. */
const DEFAULTS: AiSettings = {
  llm: Value.Create(LlmSettings),
  primary: Value.Create(PrimarySettings),
  compatibility: Value.Create(CompatibilitySettings),
  preferred: 'primary',
}

/**
 * Each governed field this service applies: its document path (config-governance's shape) and where it lives in this
 * service's settings (runtime/scoped-runtime.ts `layerOf` is the same mapping). `moves`: for a key, the fields of its
 * section that point it elsewhere — a layer setting one of them without a key of its own runs with no key.
 * The compatibility provider's `health_check.*` is stored and governed but applied by no service: not listed.
 */
interface FieldMap {
  path: string
  at: (s: AiSettings) => unknown
  moves?: readonly string[]
}
const FIELDS: readonly FieldMap[] = [
  ...(['base_url', 'model', 'temperature', 'max_tokens', 'timeout_ms'] as const).map((k) => ({
    path: `llm.${k}`,
    at: (s: AiSettings) => s.llm[k],
  })),
  { path: 'llm.api_key', at: (s) => s.llm.api_key, moves: ['base_url'] },
  { path: 'knowledge_provider.preferred', at: (s) => s.preferred },
  ...(['enabled', 'base_url', 'dataset_id', 'timeout_ms'] as const).map((k) => ({
    path: `knowledge_provider.primary.${k}`,
    at: (s: AiSettings) => s.primary[k],
  })),
  { path: 'knowledge_provider.primary.api_key', at: (s) => s.primary.api_key, moves: ['base_url', 'dataset_id'] },
  ...(['top_k', 'score_threshold', 'search_method', 'reranking_enable'] as const).map((k) => ({
    path: `knowledge_provider.primary.search.${k}`,
    at: (s: AiSettings) => s.primary[k],
  })),
  ...(['enabled', 'base_url', 'tenant_id', 'knowledge_base_id', 'timeout_ms', 'max_retries'] as const).map((k) => ({
    path: `knowledge_provider.compatibility.${k}`,
    at: (s: AiSettings) => s.compatibility[k],
  })),
  {
    path: 'knowledge_provider.compatibility.api_key',
    at: (s) => s.compatibility.api_key,
    moves: ['base_url', 'knowledge_base_id', 'tenant_id'],
  },
  { path: 'knowledge_provider.compatibility.search.default_limit', at: (s) => s.compatibility.limit },
  { path: 'knowledge_provider.compatibility.search.score_threshold', at: (s) => s.compatibility.threshold },
  { path: 'knowledge_provider.compatibility.search.strategy', at: (s) => s.compatibility.strategy },
]

/** The value at a dotted path of a stored document section; `"[REDACTED]"` and null are nothing. */
function storedAt(stored: StoredSettings | undefined, path: string): unknown {
  let node: unknown = stored
  for (const key of path.split('.')) node = isPlainObject(node) ? node[key] : undefined
  return node === '[REDACTED]' || node === null ? undefined : node
}

/** A key's layers: set where a layer holds one sealed, unset where a layer moved its section without one. */
function keyLayers(
  f: FieldMap,
  layers: [LayerValue['source'], StoredSettings | undefined][],
  system: string,
): LayerValue[] {
  const section = f.path.slice(0, f.path.lastIndexOf('.'))
  const out: LayerValue[] = layers.map(([source, stored]) => {
    if (stored?.sealed_secrets[f.path]) return { source, value: true }
    const moved = f.moves?.some((m) => storedAt(stored, `${section}.${m}`) !== undefined)
    return { source, value: moved ? false : undefined }
  })
  return [...out, system ? { source: 'system', value: true } : { source: 'default', value: false }]
}

/**
 * `GET /internal/config/effective?tenant_id=&workspace_id=`: the LLM and knowledge-provider settings a scope runs
 * on, field by field with its layer (workspace > tenant > system: this service's environment, `LLM_*`,
 * `PRIMARY_PROVIDER_*`, `COMPAT_PROVIDER_*`, `KNOWLEDGE_PROVIDER_PREFERRED` > code default; the environment is this
 * service's system layer, it has no runtime layer above the stored ones). Read from the same projection as the
 * scope's runtime, without its short memory. Keys are never returned: `set` says whether one is in effect and
 * `source` which layer put it there. config-governance asks for its effective view; service principals only.
 */
export const effectiveConfigRoutes: RouteModule<AiService> = async (app, svc) => {
  app.addHook('onRequest', async (request) => {
    if (request.principal.kind !== 'service') throw new ServiceOnly()
  })
  const system = systemSettings(svc.config)

  app.get(
    '/internal/config/effective',
    {
      schema: {
        hide: true,
        querystring: EffectiveScopeQuery,
        response: { 200: EffectiveSections, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const tenant_id = request.query.tenant_id
      const workspace_id = request.query.workspace_id ?? ''
      const stored = await findScopedSettings(svc.db, tenant_id, workspace_id)
      const layers: [LayerValue['source'], StoredSettings | undefined][] = [
        ['workspace', stored.workspace],
        ['tenant', stored.tenant],
      ]
      const fields: EffectiveField[] = FIELDS.map((f) => {
        if (f.moves) {
          const e = effectiveOf(f.path, keyLayers(f, layers, String(f.at(system))))
          return { path: f.path, value: null, source: e.source, secret: true, set: e.value === true }
        }
        return effectiveOf(f.path, [
          ...layers.map(([source, s]) => ({ source, value: storedAt(s, f.path) })),
          ...systemOrDefault(f.at(system), f.at(DEFAULTS)),
        ])
      })
      return { tenant_id, workspace_id, fields }
    },
  )
}
