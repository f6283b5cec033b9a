import type { Cache } from '@switchboard/platform'
import { EXTERNAL_PROVIDERS, type ExternalProviderId, type KnowledgeProvider } from './port.ts'

/**
 * The knowledge providers of this service and whether each may be used: configured enabled, and not switched off at
 * runtime (`PUT /api/v1/ai/knowledge-provider/disable`). The runtime switch lives in the shared cache, so every
 * replica follows it (within half a second: each keeps what it read that long); the local knowledge base is always
 * there, always last.
 */
export interface ProviderRegistry {
  readonly local: KnowledgeProvider
  external(id: ExternalProviderId): KnowledgeProvider | undefined
  /** configured and not switched off */
  isEnabled(id: ExternalProviderId): Promise<boolean>
  /** switches one external provider (or both) on or off at runtime, on every replica */
  setEnabled(id: ExternalProviderId | 'all', enabled: boolean): Promise<void>
  /** the usable external providers, preferred first (spec fallback order) */
  externalInOrder(): Promise<KnowledgeProvider[]>
  /** the first usable external provider (where knowledge docs are upserted), or null */
  activeExternal(): Promise<KnowledgeProvider | null>
}

const switchKey = (id: ExternalProviderId) => `ai:provider-switch:${id}`

/** How long a replica trusts the switch it last read: a switch reaches every replica within this. */
const SWITCH_TTL_MS = 500

export function createProviderRegistry(opts: {
  cache: Cache
  local: KnowledgeProvider
  external: Partial<Record<ExternalProviderId, KnowledgeProvider>>
  configured: Record<ExternalProviderId, boolean>
  preferred: ExternalProviderId
}): ProviderRegistry {
  const order: ExternalProviderId[] =
    opts.preferred === 'primary' ? ['primary', 'compatibility'] : ['compatibility', 'primary']
  const read = new Map<ExternalProviderId, { at: number; on: Promise<boolean> }>()
  async function isEnabled(id: ExternalProviderId) {
    if (!opts.configured[id] || !opts.external[id]) return false
    const hit = read.get(id)
    if (hit && Date.now() - hit.at < SWITCH_TTL_MS) return hit.on
    // a cache that does not answer leaves the configured state in force
    const on = opts.cache
      .get(switchKey(id))
      .then((v) => v !== 'off')
      .catch(() => true)
    read.set(id, { at: Date.now(), on })
    return on
  }
  const registry: ProviderRegistry = {
    local: opts.local,
    external: (id) => opts.external[id],
    isEnabled,
    async setEnabled(id, enabled) {
      for (const p of id === 'all' ? EXTERNAL_PROVIDERS : [id]) {
        if (enabled) await opts.cache.del(switchKey(p))
        else await opts.cache.set(switchKey(p), 'off')
        read.delete(p)
      }
    },
    async externalInOrder() {
      const usable = await Promise.all(order.map(async (id) => ((await isEnabled(id)) ? opts.external[id] : undefined)))
      return usable.filter((p): p is KnowledgeProvider => p !== undefined)
    },
    async activeExternal() {
      return (await registry.externalInOrder())[0] ?? null
    },
  }
  return registry
}
