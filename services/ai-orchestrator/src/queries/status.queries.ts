import type { Scope } from '@switchboard/platform'
import type { AiService } from '../context.ts'
import { EXTERNAL_PROVIDERS, type ProviderHealth } from '../providers/port.ts'
import type { AiRuntime } from '../runtime/scoped-runtime.ts'

/** A provider's health is probed at most this often per replica (status pages are polled). */
const HEALTH_TTL_MS = 5000

export function createHealthProbe() {
  const last = new Map<string, { at: number; health: Promise<ProviderHealth> }>()
  return (runtime: AiRuntime, id: (typeof EXTERNAL_PROVIDERS)[number]) => {
    const key = `${runtime.key}:${id}`
    const hit = last.get(key)
    if (hit && Date.now() - hit.at < HEALTH_TTL_MS) return hit.health
    if (last.size > 1000) last.clear()
    const provider = runtime.providers.external(id)
    const health = provider
      ? provider.health().catch((err: Error) => ({ healthy: false, latency_ms: 0, error: err.message }))
      : Promise.resolve({ healthy: false, latency_ms: 0, error: 'not configured' })
    last.set(key, { at: Date.now(), health })
    return health
  }
}

/**
 * GET /api/v1/ai/status, for the caller's scope: each provider (configured, switched on, healthy, its breaker), the
 * LLM, the fallback order — as the scope's settings make them.
 */
export async function aiStatus(svc: AiService, health: ReturnType<typeof createHealthProbe>, scope: Scope) {
  const runtime = await svc.runtimes.forScope(scope)
  const { providers: registry, breakers, settings } = runtime
  const providers = await Promise.all(
    EXTERNAL_PROVIDERS.map(async (id) => {
      const configured = settings[id].enabled
      const [enabled, breaker, probe] = await Promise.all([
        registry.isEnabled(id),
        breakers[id].snapshot(),
        configured ? health(runtime, id) : Promise.resolve(null),
      ])
      return { id, configured, enabled, healthy: probe?.healthy ?? false, health: probe, breaker }
    }),
  )
  return {
    preferred: settings.preferred,
    providers,
    llm: { configured: runtime.llm.configured, model: settings.llm.model, breaker: await breakers.llm.snapshot() },
    fallback: {
      local_knowledge_base: true,
      order: [...(await registry.externalInOrder()).map((p) => p.id), 'local'],
    },
  }
}
