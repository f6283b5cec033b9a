import type { Logger } from '@switchboard/platform'
import { LRUCache } from 'lru-cache'
import { type Dispatcher, request } from 'undici'

/** A scope's embed policy was not answered (config-governance down, slow or saying something unexpected). */
export class PolicyUnavailable extends Error {}
/** config-governance refused the scope as named (400): the frame's query is wrong, not the service. */
export class PolicyBadScope extends Error {}

/** What `frame-ancestors` may list: an origin (scheme, host, port) and nothing that could end the directive. */
const ORIGIN = /^https?:\/\/[A-Za-z0-9.[\]:-]+$/

export interface WidgetPolicyOptions {
  /** a config-governance replica's base URL (the gateway's pool) */
  pick: () => string | undefined
  dispatcher: Dispatcher
  timeoutMs: number
  /** a scope's answer is kept this long (0: asked every time) */
  cacheMs: number
  logger: Logger
}

/**
 * The sites a scope's widget may be embedded in: `widget.allowed_origins` of its public portal configuration
 * (`GET /public/portal/config`, the answer any page gets), kept `cacheMs` per scope so a busy frame costs one call per
 * scope every few seconds; concurrent misses share one call, and a failed refresh keeps serving the last answer.
 * A configuration without the field is an empty list (any site, as before the list existed).
 */
export function createWidgetPolicy(opts: WidgetPolicyOptions) {
  async function fetchOrigins(key: string): Promise<string[]> {
    const [tenant_id = '', workspace_id = ''] = key.split('\n')
    const base = opts.pick()
    if (!base) throw new PolicyUnavailable('config-governance upstream is not configured')
    const query = new URLSearchParams({ tenant_id, workspace_id })
    let status: number
    let body: unknown
    try {
      const res = await request(`${base}/public/portal/config?${query}`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(opts.timeoutMs),
        dispatcher: opts.dispatcher,
      })
      status = res.statusCode
      body = await res.body.json().catch(() => undefined)
    } catch (cause) {
      throw new PolicyUnavailable('config-governance did not answer', { cause })
    }
    if (status === 400) throw new PolicyBadScope('config-governance refused the scope')
    if (status !== 200 || typeof body !== 'object' || body === null)
      throw new PolicyUnavailable(`config-governance answered ${status}`)
    const list = (body as { widget?: { allowed_origins?: unknown } }).widget?.allowed_origins
    if (list === undefined) return []
    if (!Array.isArray(list)) throw new PolicyUnavailable('config-governance answered an unexpected shape')
    // config-governance checks each origin when it is stored; a value that would not be one origin is dropped
    // rather than written into a header
    return list.filter((o): o is string => typeof o === 'string' && ORIGIN.test(o))
  }

  const cache = new LRUCache<string, string[]>({
    max: 10_000,
    ttl: Math.max(opts.cacheMs, 1),
    allowStaleOnFetchRejection: true,
    fetchMethod: (key) => fetchOrigins(key),
  })

  return {
    /** the scope's allowed origins ([] = any); throws PolicyUnavailable or PolicyBadScope */
    async allowedOrigins(tenantId: string, workspaceId: string): Promise<string[]> {
      const key = `${tenantId}\n${workspaceId}`
      if (opts.cacheMs === 0) return fetchOrigins(key)
      try {
        return (await cache.fetch(key)) ?? []
      } catch (err) {
        if (!(err instanceof PolicyBadScope)) opts.logger.warn({ err }, 'widget embed policy not answered')
        throw err
      }
    },
  }
}

export type WidgetPolicy = ReturnType<typeof createWidgetPolicy>

/** `frame-ancestors` for a scope's list: the listed origins, or any site while the list is empty. */
export function frameAncestors(origins: readonly string[]): string {
  return origins.length ? origins.join(' ') : '*'
}
