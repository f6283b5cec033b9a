import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { loadConfig } from '../src/config.ts'

const base = { JWT_SECRET: 'jwt-secret-0123456789abcdef', INTERNAL_SECRET: 'internal-secret-0123456789' }

t.test('defaults', async (t) => {
  const c = loadConfig(base)
  t.equal(c.service, 'identity')
  t.equal(c.port, 8101)
  t.same(c.jwt, {
    secret: base.JWT_SECRET,
    previous_secrets: [],
    access_ttl_seconds: 3600,
    refresh_ttl_seconds: 604800,
  })
  t.same(c.passwords, { memory_cost_kib: 19456, time_cost: 2, parallelism: 1 })
  t.equal(c.security.refresh_reuse_revokes_session, false)
  t.match(c.security.session_risk, { hot_refresh_window_minutes: 10, medium_risk_score: 2, high_risk_score: 4 })
  t.same(c.security.session_ip_intelligence, {
    enabled: false,
    base_url: '',
    api_key: '',
    auth_header: 'Authorization',
    timeout_ms: 1500,
  })
  t.equal(c.seed.enabled, false)
})

t.test('environment', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'identity-config-'))
  writeFileSync(join(dir, 'jwt'), 'from-file-secret\n')
  const c = loadConfig({
    ...base,
    JWT_SECRET_FILE: join(dir, 'jwt'),
    JWT_PREVIOUS_SECRETS: 'old-1, old-2',
    JWT_ACCESS_TTL_SECONDS: '900',
    REFRESH_REUSE_REVOKES_SESSION: 'true',
    SESSION_RISK_PROFILES_JSON: '{"production":{"high_risk_score":6}}',
    SESSION_RISK_MANY_SESSIONS_THRESHOLD: '5',
    SESSION_IP_INTELLIGENCE_ENABLED: 'true',
    SESSION_IP_INTELLIGENCE_BASE_URL: 'http://127.0.0.1:9/ip/{ip}',
    SEED_DEMO: 'true',
    ADMIN_USERNAME: 'boss',
    ADMIN_PASSWORD: 'boss-password',
  })
  t.equal(c.jwt.secret, 'from-file-secret', 'JWT_SECRET_FILE wins')
  t.same(c.jwt.previous_secrets, ['old-1', 'old-2'])
  t.equal(c.jwt.access_ttl_seconds, 900)
  t.equal(c.security.refresh_reuse_revokes_session, true)
  t.same(c.security.session_risk_profiles, { production: { high_risk_score: 6 } })
  t.equal(c.security.session_risk.many_sessions_threshold, 5)
  t.match(c.security.session_ip_intelligence, { enabled: true, base_url: 'http://127.0.0.1:9/ip/{ip}' })
  t.match(c.seed, { enabled: true, admin_username: 'boss', admin_password: 'boss-password' })
})

t.test('refusals', async (t) => {
  t.throws(() => loadConfig({ ...base, JWT_SECRET: '' }), /jwt\/secret/)
  t.throws(() => loadConfig({ ...base, JWT_ACCESS_TTL_SECONDS: '60' }), /access_ttl_seconds/)
  t.throws(() => loadConfig({ ...base, JWT_ACCESS_TTL_SECONDS: '90000' }), /access_ttl_seconds/)
  t.throws(() => loadConfig({ ...base, SESSION_RISK_PROFILES_JSON: '{nope' }), /session_risk_profiles/)
})
