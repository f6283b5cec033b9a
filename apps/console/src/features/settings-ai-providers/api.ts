/** ai-orchestrator's runtime state and breaker reset (services/ai-orchestrator README "Circuit breakers"). */
import { claimsOf } from '../../lib/access.ts'
import { api, getAccessToken } from '../../lib/http.ts'

export type BreakerName = 'primary' | 'compatibility' | 'llm'

export interface Breaker {
  name: string
  state: 'closed' | 'open' | 'half_open' | string
  failure_count: number
  opened_at: string | number | null
  half_open_requests: number
  /** the shared state could not be read */
  error?: string
}

export interface ProviderStatus {
  id: 'primary' | 'compatibility'
  configured: boolean
  enabled: boolean
  healthy: boolean
  health: { healthy: boolean; latency_ms: number; error?: string } | null
  breaker: Breaker
}

export interface AiStatus {
  preferred: string
  providers: ProviderStatus[]
  llm: { configured: boolean; model: string; breaker: Breaker }
  fallback: { local_knowledge_base: boolean; order: string[] }
}

export const statusKey = ['settings-ai-providers', 'status'] as const

export const readStatus = (signal?: AbortSignal) => api<AiStatus>('/api/v1/ai/status', { signal })

export const resetBreaker = (breaker: BreakerName) =>
  api<{ success: boolean; message: string }>('/api/v1/ai/circuit-breaker/reset', {
    method: 'POST',
    query: { breaker },
  })

/** A knowledge provider switched on or off for every scope and replica (the environment's settings stay). */
export const switchProvider = (provider: 'primary' | 'compatibility', on: boolean) =>
  api<{ success: boolean; message: string }>(`/api/v1/ai/knowledge-provider/${on ? 'enable' : 'disable'}`, {
    method: 'PUT',
    query: { provider },
  })

/**
 * A reset or a switch acts for every tenant: ai-orchestrator takes it only from a platform administrator whose token names no
 * tenant (a platform admin signed in to one tenant is refused, 403). The API checks again.
 */
export function platformSession(): boolean {
  const claims = claimsOf(getAccessToken())
  return claims?.admin_reach === 'platform' && !claims.tenant_id && !claims.workspace_id
}
