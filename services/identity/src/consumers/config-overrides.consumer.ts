import type { Static } from '@sinclair/typebox'
import { ConfigEvents } from '@switchboard/contracts'
import { type ConsumerDef, isPlainObject, nowIso, on } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { applyScopedSessionRisk, type ScopedSessionRiskChange } from '../db/scoped-session-risk.repository.ts'

export const CONFIG_OVERRIDES_CONSUMER = 'identity-config-overrides'

type ScopeChanged = Static<typeof ConfigEvents.scopeChanged.data>

/**
 * What a `config.scope.changed` means to identity: the scope's `session_risk` section (null when the scope has
 * none, which removes an earlier override) at the scope's version; undefined for an event naming no usable scope.
 */
export function sessionRiskChange(data: ScopeChanged, at: string): ScopedSessionRiskChange | undefined {
  const tenant_id = typeof data?.tenant_id === 'string' ? data.tenant_id : ''
  const workspace_id = typeof data?.workspace_id === 'string' ? data.workspace_id : ''
  if (!tenant_id || !Number.isSafeInteger(data.version) || data.version < 1) return undefined
  if (data.scope !== 'tenant' && !(data.scope === 'workspace' && workspace_id)) return undefined
  const section = isPlainObject(data.config) ? data.config.session_risk : undefined
  return {
    tenant_id,
    // a tenant's own overrides are keyed by '' whatever the event carries
    workspace_id: data.scope === 'tenant' ? '' : workspace_id,
    policy: isPlainObject(section) ? section : null,
    version: data.version,
    updated_at: at,
  }
}

/**
 * Tenant and workspace overrides of the session-risk policy from config-governance: each change of a scope
 * keeps its whole `session_risk` section in `scoped_session_risk` when its version is newer than the stored one
 * (idempotent by itself: a redelivered or late older version changes nothing). Every replica reads the
 * projection through its short cache (queries/session-risk-overrides.queries.ts), so the change is effective on
 * all of them, not only on the replica that handled the event.
 */
export const configOverrides: ConsumerDef<IdentityService> = {
  durable: CONFIG_OVERRIDES_CONSUMER,
  stream: 'CONFIG',
  subjects: [ConfigEvents.scopeChanged.type],
  idempotency: 'handler',
  handlers: [
    on(ConfigEvents.scopeChanged, async ({ envelope, data }, svc) => {
      const change = sessionRiskChange(data, nowIso())
      if (!change) {
        svc.log.warn({ component: CONFIG_OVERRIDES_CONSUMER, event_id: envelope.id }, 'config change without a scope')
        return
      }
      const applied = await applyScopedSessionRisk(svc.db, change)
      svc.log.debug(
        { component: CONFIG_OVERRIDES_CONSUMER, ...change, policy: undefined, applied },
        applied ? 'session risk overrides stored' : 'older config version ignored',
      )
    }),
  ],
}
