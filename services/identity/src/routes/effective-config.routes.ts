import {
  type EffectiveField,
  EffectiveScopeQuery,
  EffectiveSections,
  effectiveOf,
  systemOrDefault,
} from '@switchboard/contracts'
import { errorResponses, type RouteModule } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { findScopedSessionRisk } from '../db/scoped-session-risk.repository.ts'
import {
  DEFAULT_SESSION_RISK_POLICY,
  POLICY_KEYS,
  resolveSessionRiskPolicy,
  type SessionRiskPolicy,
} from '../domain/session-risk-policy.ts'
import { IdentityErrors } from '../errors.ts'

/** A layer's value as the policy resolution would take it (a usable non-negative number), else nothing. */
const usable = (layer: Record<string, unknown> | null | undefined, key: keyof SessionRiskPolicy) => {
  const v = layer?.[key]
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined
}

/**
 * `GET /internal/config/effective?tenant_id=&workspace_id=`: the session-risk policy a scope runs on, field by field
 * with its layer (runtime `SESSION_RISK_RUNTIME_JSON` > workspace > tenant > system `SESSION_RISK_*` and the
 * environment's profile > code default), read from the same projection and configuration as the policy itself
 * (domain/session-risk-policy.ts), without its short memory. config-governance asks for its effective view; service
 * principals only, never routed by the gateway.
 */
export const effectiveConfigRoutes: RouteModule<IdentityService> = async (app, svc) => {
  app.addHook('onRequest', async (request) => {
    if (request.principal.kind !== 'service') throw new IdentityErrors.ServiceOnly()
  })
  const security = svc.config.security
  // the system layer: SESSION_RISK_* with the environment's profile, as the policy source resolves it
  const system = resolveSessionRiskPolicy(security.session_risk, security.session_risk_profiles, svc.config.environment)

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
      const stored = await findScopedSessionRisk(svc.db, { tenant_id, workspace_id })
      const runtime = security.session_risk_runtime as Record<string, unknown> | undefined
      const fields: EffectiveField[] = POLICY_KEYS.map((key) =>
        effectiveOf(`session_risk.${key}`, [
          { source: 'runtime', value: usable(runtime, key) },
          { source: 'workspace', value: workspace_id ? usable(stored.workspace, key) : undefined },
          { source: 'tenant', value: usable(stored.tenant, key) },
          ...systemOrDefault(system[key], DEFAULT_SESSION_RISK_POLICY[key]),
        ]),
      )
      return { tenant_id, workspace_id, fields }
    },
  )
}
