import { DEFAULT_SESSION_RISK_POLICY, type SessionRiskPolicy } from '@switchboard/contracts'

// The thresholds and windows of session risk (`security.session_risk`, `SESSION_RISK_*`) and their code defaults, the
// lowest layer, are one table in packages/contracts (config-sections.ts): the config schema's defaults are the same.
export { DEFAULT_SESSION_RISK_POLICY, type SessionRiskPolicy }

export const POLICY_KEYS = Object.keys(DEFAULT_SESSION_RISK_POLICY) as (keyof SessionRiskPolicy)[]

/** The only keys an environment profile (`security.session_risk_profiles`) may change. */
export const PROFILE_KEYS = [
  'hot_refresh_window_minutes',
  'recent_refresh_window_minutes',
  'rapid_change_window_hours',
  'stale_activity_window_days',
  'high_risk_score',
] as const satisfies readonly (keyof SessionRiskPolicy)[]

export type SessionRiskProfile = Partial<Pick<SessionRiskPolicy, (typeof PROFILE_KEYS)[number]>>

/** Copies the allowed keys that hold usable numbers; anything else in an override is ignored, not trusted. */
function pick(
  target: SessionRiskPolicy,
  source: Record<string, unknown> | undefined,
  keys: readonly (keyof SessionRiskPolicy)[],
) {
  if (!source) return
  for (const key of keys) {
    const v = source[key]
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) target[key] = v
  }
}

/**
 * Code default ← system config (`security.session_risk`) ← environment profile
 * (`security.session_risk_profiles[server.environment]`, only `PROFILE_KEYS`) ← later layers
 * (tenant, workspace, runtime), lowest precedence first.
 */
export function resolveSessionRiskPolicy(
  system: Partial<SessionRiskPolicy> | undefined,
  profiles: Record<string, SessionRiskProfile> | undefined,
  environment: string,
  ...layers: (Partial<SessionRiskPolicy> | undefined)[]
): SessionRiskPolicy {
  const policy: SessionRiskPolicy = { ...DEFAULT_SESSION_RISK_POLICY }
  pick(policy, system, POLICY_KEYS)
  pick(policy, profiles?.[environment], PROFILE_KEYS)
  for (const layer of layers) pick(policy, layer, POLICY_KEYS)
  return policy
}

export interface PolicyScope {
  tenant_id: string
  workspace_id: string
}

/**
 * Tenant/workspace overrides of session_risk, already merged in their own precedence (workspace over
 * tenant). identity's is `scopedSessionRiskOverrides` (queries/session-risk-overrides.queries.ts), fed by
 * config-governance's `config.scope.changed`.
 */
export type SessionRiskOverridesProvider = (
  scope: PolicyScope,
) => Partial<SessionRiskPolicy> | undefined | Promise<Partial<SessionRiskPolicy> | undefined>

export interface SessionRiskPolicySource {
  policyFor(scope: PolicyScope): Promise<SessionRiskPolicy>
}

export interface SessionRiskPolicySourceOptions {
  session_risk?: Partial<SessionRiskPolicy> | undefined
  session_risk_profiles?: Record<string, SessionRiskProfile> | undefined
  environment: string
  overrides?: SessionRiskOverridesProvider | undefined
  /** runtime (start arguments, environment) beats every stored override */
  runtime?: Partial<SessionRiskPolicy> | undefined
  onError?: (err: unknown) => void
}

export const noOverrides: SessionRiskOverridesProvider = () => undefined

/** The seam the security routes ask for a policy; a failing overrides provider falls back to system. */
export function createSessionRiskPolicySource(opts: SessionRiskPolicySourceOptions): SessionRiskPolicySource {
  const overrides = opts.overrides ?? noOverrides
  const system = resolveSessionRiskPolicy(opts.session_risk, opts.session_risk_profiles, opts.environment)
  return {
    async policyFor(scope) {
      if (!scope.tenant_id && !scope.workspace_id && !opts.runtime) return { ...system }
      let stored: Partial<SessionRiskPolicy> | undefined
      try {
        stored = scope.tenant_id || scope.workspace_id ? await overrides(scope) : undefined
      } catch (err) {
        opts.onError?.(err)
        stored = undefined
      }
      return resolveSessionRiskPolicy(system, undefined, opts.environment, stored, opts.runtime)
    },
  }
}
