import type { Scope, ServiceClient } from '@switchboard/platform'
import { embedAllowed } from '../domain/embed-origin.ts'
import { RefusedError } from './upstream.ts'

/** Scopes remembered at most; past it the memory starts over (one call away). */
const MAX_CACHED = 10_000

export interface EmbedPolicy {
  /** refuses (RefusedError `REALTIME_WIDGET_ORIGIN_NOT_ALLOWED`) a visitor whose page the scope does not list */
  check(scope: Scope, origin: string | undefined): Promise<void>
}

/**
 * The scope's `widget.allowed_origins`, asked of config-governance (`GET /internal/widget/embed-policy`) and kept
 * `cacheMs` per scope on this replica, so a visitor's frames do not each cost a call and a changed list holds within
 * that. No config-governance configured (a hub run alone): no list, as an empty one. Config-governance down: its
 * refusal (DEPENDENCY_UNAVAILABLE) — never an open door.
 */
export function createEmbedPolicy(client: ServiceClient | undefined, cacheMs: number): EmbedPolicy {
  const cache = new Map<string, { at: number; origins: string[] }>()

  async function originsOf(scope: Scope): Promise<string[]> {
    if (!client) return []
    const key = `${scope.tenant_id}/${scope.workspace_id}`
    const hit = cache.get(key)
    if (hit && Date.now() - hit.at < cacheMs) return hit.origins
    const q = new URLSearchParams({ tenant_id: scope.tenant_id, workspace_id: scope.workspace_id })
    const reply = await client.call<{ allowed_origins?: string[]; code?: string; message?: string }>(
      'GET',
      `/internal/widget/embed-policy?${q}`,
    )
    if (reply.status !== 200) {
      throw new RefusedError({
        status: reply.status,
        code: reply.body?.code ?? 'UPSTREAM_ERROR',
        message: reply.body?.message ?? `config-governance answered ${reply.status}`,
      })
    }
    const origins = reply.body.allowed_origins ?? []
    if (cache.size >= MAX_CACHED) cache.clear()
    cache.set(key, { at: Date.now(), origins })
    return origins
  }

  return {
    async check(scope, origin) {
      if (embedAllowed(await originsOf(scope), origin)) return
      throw new RefusedError({
        status: 403,
        code: 'REALTIME_WIDGET_ORIGIN_NOT_ALLOWED',
        message: origin
          ? `the widget of ${scope.tenant_id}/${scope.workspace_id} may not be embedded in ${origin}`
          : `the widget of ${scope.tenant_id}/${scope.workspace_id} needs its page's embed_origin`,
      })
    },
  }
}
