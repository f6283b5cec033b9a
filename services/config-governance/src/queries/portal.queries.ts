import { type DeepPartial, overlay } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { PortalSettings, WidgetSettings } from '../config.ts'
import type { ConfigGovernanceDatabase } from '../db/database.ts'
import { findScopeLayers } from '../db/scoped-configs.repository.ts'

export interface PortalResolver {
  /** the portal of a scope: system ← tenant ← workspace ← runtime (spec precedence); no tenant → system */
  resolve(tenant_id: string, workspace_id: string): Promise<PortalSettings>
}

/** `overlay` drops nulls (a null override means "the layer below"): the widget's empty texts are null again. */
function complete(p: PortalSettings): PortalSettings {
  const widget: Partial<WidgetSettings> = p.widget ?? {}
  return { ...p, widget: { allowed_origins: [], prechat: 'off', greeting: null, offline_message: null, ...widget } }
}

/** Scopes remembered at most; past it the memory starts over (a portal is one indexed query away). */
const MAX_CACHED = 10_000

/**
 * `GET /public/portal/config` per scope. Each replica keeps a scope's answer for `cacheMs` (default 250 ms), so a
 * change or rollback shows on every replica within that, without a restart or a message to each.
 */
export function createPortalResolver(
  db: Kysely<ConfigGovernanceDatabase>,
  system: PortalSettings,
  runtime: DeepPartial<PortalSettings> | undefined,
  cacheMs: number,
): PortalResolver {
  const cache = new Map<string, { at: number; value: PortalSettings }>()
  return {
    async resolve(tenant_id, workspace_id) {
      if (!tenant_id) return complete(overlay<PortalSettings>(system, runtime))
      const key = `${tenant_id}/${workspace_id}`
      const hit = cache.get(key)
      if (hit && Date.now() - hit.at < cacheMs) return hit.value
      const layers = await findScopeLayers(db, tenant_id, workspace_id)
      const value = complete(
        overlay<PortalSettings>(
          system,
          layers.tenant.portal as Partial<PortalSettings> | undefined,
          layers.workspace.portal as Partial<PortalSettings> | undefined,
          runtime,
        ),
      )
      if (cache.size >= MAX_CACHED) cache.clear()
      cache.set(key, { at: Date.now(), value })
      return value
    },
  }
}
