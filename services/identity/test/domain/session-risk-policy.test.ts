import t from 'tap'
import {
  createSessionRiskPolicySource,
  DEFAULT_SESSION_RISK_POLICY as D,
  resolveSessionRiskPolicy,
} from '../../src/domain/session-risk-policy.ts'

t.test('defaults are the built-in session-risk values', async (t) => {
  t.same(resolveSessionRiskPolicy(undefined, undefined, 'development'), {
    hot_refresh_window_minutes: 10,
    recent_refresh_window_minutes: 30,
    today_refresh_window_hours: 24,
    rapid_change_window_hours: 12,
    stale_activity_window_days: 14,
    multi_public_ip_threshold: 2,
    many_sessions_threshold: 3,
    hot_refresh_family_threshold: 2,
    medium_risk_score: 2,
    high_risk_score: 4,
  })
})

t.test('system config, then the environment profile with only its five keys', async (t) => {
  const p = resolveSessionRiskPolicy(
    { many_sessions_threshold: 5, high_risk_score: 6 },
    {
      production: {
        high_risk_score: 3,
        hot_refresh_window_minutes: 5,
        // not a profile key: ignored
        ...({ many_sessions_threshold: 1, medium_risk_score: 0 } as object),
      },
    },
    'production',
  )
  t.equal(p.high_risk_score, 3)
  t.equal(p.hot_refresh_window_minutes, 5)
  t.equal(p.many_sessions_threshold, 5)
  t.equal(p.medium_risk_score, D.medium_risk_score)
  const other = resolveSessionRiskPolicy({ high_risk_score: 6 }, { production: { high_risk_score: 3 } }, 'staging')
  t.equal(other.high_risk_score, 6, 'another environment does not pick up the production profile')
})

t.test('malformed values are ignored', async (t) => {
  const p = resolveSessionRiskPolicy(
    { high_risk_score: Number.NaN, medium_risk_score: -1, ...({ many_sessions_threshold: '9' } as object) },
    undefined,
    'x',
  )
  t.same(p, D)
})

t.test('policyFor: tenant/workspace overrides over system, runtime over all, failures fall back', async (t) => {
  const asked: unknown[] = []
  const errors: unknown[] = []
  const source = createSessionRiskPolicySource({
    session_risk: { high_risk_score: 5 },
    session_risk_profiles: { test: { stale_activity_window_days: 7 } },
    environment: 'test',
    overrides: (scope) => {
      asked.push(scope)
      if (scope.tenant_id === 'broken') throw new Error('store down')
      return scope.tenant_id === 'acme' ? { high_risk_score: 2, many_sessions_threshold: 9 } : undefined
    },
    onError: (err) => errors.push(err),
  })
  const system = await source.policyFor({ tenant_id: '', workspace_id: '' })
  t.equal(system.high_risk_score, 5)
  t.equal(system.stale_activity_window_days, 7)
  t.equal(asked.length, 0, 'unscoped calls use system configuration')
  const acme = await source.policyFor({ tenant_id: 'acme', workspace_id: 'support' })
  t.equal(acme.high_risk_score, 2)
  t.equal(acme.many_sessions_threshold, 9)
  t.equal(acme.stale_activity_window_days, 7)
  t.same(asked, [{ tenant_id: 'acme', workspace_id: 'support' }])
  const broken = await source.policyFor({ tenant_id: 'broken', workspace_id: 'w' })
  t.equal(broken.high_risk_score, 5)
  t.equal(errors.length, 1)

  const pinned = createSessionRiskPolicySource({
    environment: 'test',
    overrides: () => ({ high_risk_score: 2 }),
    runtime: { high_risk_score: 8 },
  })
  t.equal((await pinned.policyFor({ tenant_id: 'acme', workspace_id: 'w' })).high_risk_score, 8)
  t.equal((await pinned.policyFor({ tenant_id: '', workspace_id: '' })).high_risk_score, 8)
  const none = createSessionRiskPolicySource({ environment: 'test' })
  t.same(await none.policyFor({ tenant_id: 'acme', workspace_id: 'w' }), D, 'no provider: no overrides')
})
