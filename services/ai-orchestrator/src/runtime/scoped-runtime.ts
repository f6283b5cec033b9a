import { createHash } from 'node:crypto'
import { isPlainObject, type Logger, overlay, type Scope, type SecretBox } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { Dispatcher } from 'undici'
import type { Breaker } from '../breaker/port.ts'
import type { AiConfig, CompatibilitySettings, LlmSettings, PrimarySettings } from '../config.ts'
import type { AiDatabase } from '../db/database.ts'
import { findScopedSettings, type StoredSettings } from '../db/scoped-settings.repository.ts'
import type { LlmClient } from '../llm/port.ts'
import { createGuardedDispatcher, NOT_ALLOWED, parseAllowList } from '../outbound/address-guard.ts'
import { trimBase } from '../outbound/http.ts'
import type { ProviderRegistry } from '../providers/registry.ts'

/**
 * The AI runtime of a scope (spec: scoped configuration; issue 13 §2): the system's settings (this service's
 * environment) with the tenant's and then the workspace's stored overrides laid over them, and the providers, LLM
 * client and breakers made from those settings. Scopes with the same effective settings share one runtime (for
 * endpoints of a scope's own: the scopes whose layer set them alike, so a refusal is logged under its owner); a
 * provider endpoint of a scope's own gets breakers of its own (named after the endpoint), so its failures never open
 * the system provider's breaker, and the other way round. An endpoint of a scope's own (a base URL that is not the
 * system's) is called through the address guard: public addresses only, or the operator's AI_OUTBOUND_ALLOWED_HOSTS.
 */
export interface AiSettings {
  llm: LlmSettings
  primary: PrimarySettings
  compatibility: CompatibilitySettings
  preferred: 'primary' | 'compatibility'
}

export type BreakerName = 'primary' | 'compatibility' | 'llm'
const DEPENDENCIES: readonly BreakerName[] = ['primary', 'compatibility', 'llm']

/** The guarded dispatchers of a runtime's governed endpoints; a dependency without one calls the system's endpoint. */
export type Dispatchers = Partial<Record<BreakerName, Dispatcher>>

export interface AiRuntime {
  /** the settings' fingerprint: equal for scopes that share this runtime */
  readonly key: string
  readonly settings: AiSettings
  readonly providers: ProviderRegistry
  readonly llm: LlmClient
  readonly breakers: Record<BreakerName, Breaker>
}

export interface ScopedRuntimes {
  readonly system: AiRuntime
  /**
   * does `runtime`'s provider `id` hold the same data as the system's (same endpoint and dataset, knowledge base or
   * provider tenant, whatever the key)? A shared provider answers every tenant: only system-scope documents go there.
   */
  sharedWithSystem(runtime: AiRuntime, id: 'primary' | 'compatibility'): boolean
  /** the runtime of a scope; no tenant (anonymous, background work) → the system's */
  forScope(scope: Scope): Promise<AiRuntime>
  /** every runtime this replica made so far, the system's first (a breaker reset reaches them all) */
  known(): AiRuntime[]
}

export const systemSettings = (config: AiConfig): AiSettings => ({
  llm: config.llm,
  primary: config.primary,
  compatibility: config.compatibility,
  preferred: config.preferred,
})

/** Runtimes made at most (distinct effective settings); past it the memory starts over. */
const MAX_RUNTIMES = 256
/** Scopes remembered at most. */
const MAX_SCOPES = 10_000

const obj = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {})
const defined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== '[REDACTED]'))

/**
 * A stored scope's sections as layers of `AiSettings` (config-governance's document shape → this service's): the
 * providers' `search.*` flattened, the compatibility provider's `default_limit`/`score_threshold` renamed, the keys
 * opened from their sealed form. `[REDACTED]` placeholders never become a key.
 */
export function layerOf(
  stored: StoredSettings | undefined,
  box: SecretBox,
): Partial<Record<keyof AiSettings, unknown>> {
  if (!stored) return {}
  const secret = (path: string) => {
    const sealed = stored.sealed_secrets[path]
    return sealed ? box.open(sealed) : undefined
  }
  const kp = obj(stored.knowledge_provider)
  const l = obj(stored.llm)
  const p = obj(kp.primary)
  const c = obj(kp.compatibility)
  const ps = obj(p.search)
  const cs = obj(c.search)
  /**
   * A layer that points a section somewhere else (another endpoint, dataset, knowledge base or provider tenant)
   * without a key of its own gets no key at all (''), never the layer below's: a tenant's endpoint must not be sent
   * the fleet's key, nor read the fleet's datasets with it.
   */
  const keyOf = (path: string, section: Record<string, unknown>, moves: string[]) =>
    secret(path) ?? (moves.some((k) => section[k] !== undefined) ? '' : undefined)
  return {
    llm: defined({ ...l, api_key: keyOf('llm.api_key', l, ['base_url']) }),
    primary: defined({
      enabled: p.enabled,
      base_url: p.base_url,
      api_key: keyOf('knowledge_provider.primary.api_key', p, ['base_url', 'dataset_id']),
      dataset_id: p.dataset_id,
      timeout_ms: p.timeout_ms,
      top_k: ps.top_k,
      score_threshold: ps.score_threshold,
      search_method: ps.search_method,
      reranking_enable: ps.reranking_enable,
    }),
    compatibility: defined({
      enabled: c.enabled,
      base_url: c.base_url,
      api_key: keyOf('knowledge_provider.compatibility.api_key', c, ['base_url', 'knowledge_base_id', 'tenant_id']),
      tenant_id: c.tenant_id,
      knowledge_base_id: c.knowledge_base_id,
      timeout_ms: c.timeout_ms,
      max_retries: c.max_retries,
      limit: cs.default_limit,
      threshold: cs.score_threshold,
      strategy: cs.strategy,
    }),
    ...(kp.preferred === 'primary' || kp.preferred === 'compatibility' ? { preferred: kp.preferred } : {}),
  }
}

const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 10)

/** Where a provider's documents live: its endpoint and dataset (knowledge base, provider tenant). */
function dataOf(s: AiSettings, id: 'primary' | 'compatibility'): string {
  if (id === 'primary') return `${s.primary.base_url}|${s.primary.dataset_id}`
  const c = s.compatibility
  return `${c.base_url}|${c.knowledge_base_id}|${c.tenant_id}`
}

/**
 * What a breaker guards: the endpoint with the credentials used on it (and the dataset or knowledge base, or the
 * model) — not the tuning. A scope calling the same endpoint with a key of its own has breakers of its own: its
 * revoked key cannot open the breaker every other scope depends on.
 */
function endpointOf(s: AiSettings, name: BreakerName): string {
  if (name === 'primary') return `${s.primary.base_url}|${s.primary.dataset_id}|${hash(s.primary.api_key)}`
  if (name === 'compatibility') {
    const c = s.compatibility
    return `${c.base_url}|${c.knowledge_base_id}|${c.tenant_id}|${hash(c.api_key)}`
  }
  return `${s.llm.base_url}|${s.llm.model}|${hash(s.llm.api_key)}`
}

/** The scope whose layer set each dependency's endpoint, for the endpoints that are not the system's. */
type Owners = Partial<Record<BreakerName, Scope>>

function ownersOf(
  base: AiSettings,
  settings: AiSettings,
  scope: Scope,
  workspaceLayer: Partial<Record<keyof AiSettings, unknown>>,
): Owners {
  const owners: Owners = {}
  for (const n of DEPENDENCIES) {
    if (trimBase(settings[n].base_url) === trimBase(base[n].base_url)) continue
    const byWorkspace = obj(workspaceLayer[n]).base_url !== undefined
    owners[n] = { tenant_id: scope.tenant_id, workspace_id: byWorkspace ? scope.workspace_id : '' }
  }
  return owners
}

export function createScopedRuntimes(deps: {
  db: Kysely<AiDatabase>
  box: SecretBox
  config: AiConfig
  log: Logger
  /** makes a runtime from settings, its breakers named as given, its governed endpoints called through `dispatchers` */
  make(
    settings: AiSettings,
    key: string,
    breakerNames: Record<BreakerName, string>,
    dispatchers: Dispatchers,
  ): AiRuntime
}): ScopedRuntimes {
  const base = systemSettings(deps.config)
  const allowed = parseAllowList(deps.config.outbound_allowed_hosts)
  const keyOf = (s: AiSettings) => hash(JSON.stringify(s))
  const names = { primary: 'primary', compatibility: 'compatibility', llm: 'llm' }
  const system = deps.make(base, keyOf(base), names, {})
  const runtimes = new Map<string, AiRuntime>([[system.key, system]])
  const scopes = new Map<string, { at: number; runtime: Promise<AiRuntime> }>()

  /**
   * The one place that decides which calls are guarded: a dependency whose base URL is not the system's was set by a
   * tenant or workspace, and is called through a guarded dispatcher that logs each refusal with the scope that set it.
   */
  function guardedDispatchers(owners: Owners): Dispatchers {
    const dispatchers: Dispatchers = {}
    for (const [dependency, owner] of Object.entries(owners) as [BreakerName, Scope][])
      dispatchers[dependency] = createGuardedDispatcher(allowed, (refusal) =>
        deps.log.warn(
          { ...owner, dependency, ...refusal },
          `AI call refused: ${NOT_ALLOWED} (AI_OUTBOUND_ALLOWED_HOSTS)`,
        ),
      )
    return dispatchers
  }

  /** A runtime with governed endpoints is its owners' own (their refusals logged under their scope). */
  function runtimeOf(settings: AiSettings, owners: Owners): AiRuntime {
    const key = Object.keys(owners).length === 0 ? keyOf(settings) : hash(JSON.stringify([settings, owners]))
    const made = runtimes.get(key)
    if (made) return made
    const name = (n: BreakerName) =>
      endpointOf(settings, n) === endpointOf(base, n) ? n : `${n}@${hash(endpointOf(settings, n))}`
    if (runtimes.size >= MAX_RUNTIMES) {
      runtimes.clear()
      runtimes.set(system.key, system)
    }
    const runtime = deps.make(
      settings,
      key,
      { primary: name('primary'), compatibility: name('compatibility'), llm: name('llm') },
      guardedDispatchers(owners),
    )
    runtimes.set(key, runtime)
    return runtime
  }

  async function resolve(scope: Scope): Promise<AiRuntime> {
    try {
      const stored = await findScopedSettings(deps.db, scope.tenant_id, scope.workspace_id)
      if (!stored.tenant && !stored.workspace) return system
      const t = layerOf(stored.tenant, deps.box)
      const w = layerOf(stored.workspace, deps.box)
      const settings: AiSettings = {
        llm: overlay(base.llm, t.llm as Partial<LlmSettings>, w.llm as Partial<LlmSettings>),
        primary: overlay(base.primary, t.primary as Partial<PrimarySettings>, w.primary as Partial<PrimarySettings>),
        compatibility: overlay(
          base.compatibility,
          t.compatibility as Partial<CompatibilitySettings>,
          w.compatibility as Partial<CompatibilitySettings>,
        ),
        preferred: (w.preferred ?? t.preferred ?? base.preferred) as AiSettings['preferred'],
      }
      return runtimeOf(settings, ownersOf(base, settings, scope, w))
    } catch (err) {
      // unreadable overrides (a key this replica lacks, the database away): the system's settings, said loudly
      deps.log.error({ err, ...scope }, 'scoped AI settings unusable; the system settings answer')
      return system
    }
  }

  return {
    system,
    sharedWithSystem: (runtime, id) => dataOf(runtime.settings, id) === dataOf(base, id),
    forScope(scope) {
      if (!scope.tenant_id) return Promise.resolve(system)
      const k = `${scope.tenant_id}/${scope.workspace_id}`
      const hit = scopes.get(k)
      if (hit && Date.now() - hit.at < deps.config.scoped_settings_cache_ms) return hit.runtime
      if (scopes.size >= MAX_SCOPES) scopes.clear()
      const runtime = resolve(scope)
      scopes.set(k, { at: Date.now(), runtime })
      return runtime
    },
    known: () => [...runtimes.values()],
  }
}
