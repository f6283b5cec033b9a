import { inEachStorageMode, testPrincipal } from '@switchboard/testing'
import t from 'tap'
import { applyScopedSessionRisk } from '../../src/db/scoped-session-risk.repository.ts'
import { as, identityApp, principal } from '../helpers/app.ts'

const URL_OF = (tenant: string, ws = '') => `/internal/config/effective?tenant_id=${tenant}&workspace_id=${ws}`
const ADMIN = testPrincipal({ user_id: 'admin', kind: 'admin', roles: ['admin'], tenant_id: 'acme' }, principal())

inEachStorageMode(t, "identity's effective session risk per scope", async (t, mode) => {
  const { app, svc } = await identityApp(t, mode, {
    SESSION_RISK_MEDIUM_RISK_SCORE: '3',
    SESSION_RISK_RUNTIME_JSON: JSON.stringify({ many_sessions_threshold: 9 }),
  })
  const get = async (url: string, who = principal()) => app.inject({ method: 'GET', url, headers: await as(who) })
  const fieldsOf = async (url: string) => {
    const res = await get(url)
    t.equal(res.statusCode, 200, res.body)
    return Object.fromEntries(res.json().fields.map((f: { path: string }) => [f.path, f]))
  }

  const refused = await get(URL_OF('acme', 'support'), ADMIN)
  t.equal(refused.statusCode, 403, 'a user (an administrator too) is refused')
  t.equal(refused.json().code, 'IDENTITY_SERVICE_ONLY')
  t.equal((await get('/internal/config/effective')).statusCode, 400, 'no tenant: 400')

  let f = await fieldsOf(URL_OF('acme', 'support'))
  t.equal(Object.keys(f).length, 10, 'every field of the policy')
  t.same(f['session_risk.medium_risk_score'], { path: 'session_risk.medium_risk_score', value: 3, source: 'system' })
  t.same(f['session_risk.high_risk_score'], { path: 'session_risk.high_risk_score', value: 4, source: 'default' })
  t.same(f['session_risk.many_sessions_threshold'], {
    path: 'session_risk.many_sessions_threshold',
    value: 9,
    source: 'runtime',
  })

  const now = new Date().toISOString()
  const put = (tenant_id: string, workspace_id: string, policy: Record<string, unknown>) =>
    applyScopedSessionRisk(svc.db, { tenant_id, workspace_id, policy, version: 1, updated_at: now })
  await put('acme', '', { high_risk_score: 6, hot_refresh_window_minutes: 20, many_sessions_threshold: 1 })
  await put('acme', 'support', { hot_refresh_window_minutes: 5 })
  await put('globex', 'support', { stale_activity_window_days: 1 })

  f = await fieldsOf(URL_OF('acme', 'support'))
  t.match(f['session_risk.hot_refresh_window_minutes'], { value: 5, source: 'workspace' }, 'workspace over tenant')
  t.match(f['session_risk.high_risk_score'], { value: 6, source: 'tenant' })
  t.match(f['session_risk.many_sessions_threshold'], { value: 9, source: 'runtime' }, 'runtime over every override')
  t.match(f['session_risk.stale_activity_window_days'], { value: 14, source: 'default' }, "globex's is not acme's")
  const policy = await svc.riskPolicy.policyFor({ tenant_id: 'acme', workspace_id: 'support' })
  for (const [key, value] of Object.entries(policy))
    t.equal(f[`session_risk.${key}`].value, value, `${key}: the policy identity applies`)

  f = await fieldsOf(URL_OF('acme'))
  t.match(f['session_risk.hot_refresh_window_minutes'], { value: 20, source: 'tenant' }, "the tenant's own scope")
  f = await fieldsOf(URL_OF('globex', 'support'))
  t.match(f['session_risk.stale_activity_window_days'], { value: 1, source: 'workspace' })
  t.match(f['session_risk.high_risk_score'], { value: 4, source: 'default' }, "acme's tenant layer is not globex's")
})
