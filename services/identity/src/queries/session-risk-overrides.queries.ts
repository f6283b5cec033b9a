import { overlay, type Scope, scopeLayers } from '@switchboard/platform'
import { findScopedSessionRisk } from '../db/scoped-session-risk.repository.ts'
import type { Db } from '../db/users.repository.ts'
import type { SessionRiskOverridesProvider, SessionRiskPolicy } from '../domain/session-risk-policy.ts'

/**
 * How long a replica reuses a scope's stored overrides. The projection is written by whichever replica the
 * durable consumer handed the event to; every other replica sees it once its cached read expires, so a change
 * is effective everywhere within this plus the delivery time (the target is 1 s).
 */
export const OVERRIDES_CACHE_MS = 250

/** Above this many cached scopes, a read first drops the expired ones (the cache never outgrows the live scopes). */
const SWEEP_ABOVE = 1000

export interface ScopedSessionRiskOverridesOptions {
  /** per replica, per scope; at most OVERRIDES_CACHE_MS */
  cacheMs?: number
  /** the clock (tests) */
  now?: () => number
}

/**
 * The overrides provider of identity's session-risk policy source: the tenant's and the workspace's stored
 * `session_risk` (the `scoped_session_risk` projection, one query), the workspace's laid over the tenant's. Reads
 * are cached per scope for `cacheMs` and shared by concurrent callers; a failed read is not cached (the policy
 * source falls back to the system policy and the next call reads again).
 */
export function scopedSessionRiskOverrides(
  db: Db,
  opts: ScopedSessionRiskOverridesOptions = {},
): SessionRiskOverridesProvider {
  const ttl = Math.min(Math.max(opts.cacheMs ?? OVERRIDES_CACHE_MS, 0), OVERRIDES_CACHE_MS)
  const now = opts.now ?? Date.now
  const cache = new Map<string, { until: number; value: Promise<Partial<SessionRiskPolicy> | undefined> }>()

  const load = async (scope: Scope): Promise<Partial<SessionRiskPolicy> | undefined> => {
    const [tenant, workspace] = scopeLayers(await findScopedSessionRisk(db, scope))
    if (!tenant && !workspace) return undefined
    return overlay<Record<string, unknown>>({}, tenant, workspace) as Partial<SessionRiskPolicy>
  }

  return (scope) => {
    if (ttl === 0) return load(scope)
    const key = `${scope.tenant_id}\n${scope.workspace_id}`
    const at = now()
    const hit = cache.get(key)
    if (hit && hit.until > at) return hit.value
    if (cache.size >= SWEEP_ABOVE) {
      for (const [k, e] of cache) if (e.until <= at) cache.delete(k)
    }
    const value = load(scope)
    const entry = { until: at + ttl, value }
    cache.set(key, entry)
    value.catch(() => {
      if (cache.get(key) === entry) cache.delete(key)
    })
    return value
  }
}
