import t from 'tap'
import { loadConfig, upstreamsFromEnv } from '../src/config.ts'
import { DEFAULT_RATE_LIMITS } from '../src/rate-limit-config.ts'
import { securityBaseline } from '../src/security-baseline.ts'

const base = {
  JWT_SECRET: 'a-long-enough-secret-for-the-baseline-0123',
  INTERNAL_SECRET: 'internal-secret-for-the-baseline-0123456789',
}

t.test('loadConfig', async (t) => {
  const c = loadConfig({
    ...base,
    PORT: '9000',
    UPSTREAM_IDENTITY: 'http://127.0.0.1:8101/',
    UPSTREAM_TICKETS: 'http://10.0.0.1:8102, http://10.0.0.2:8102',
    UPSTREAM_AI_ORCHESTRATOR: 'http://127.0.0.1:8104',
    UPSTREAM_TIMEOUT_MS: '2500',
    CORS_ORIGINS: 'https://a.example, https://b.example',
    JWT_PREVIOUS_SECRETS: 'rotated-out-key-number-one-7f3a9c2e41,rotated-out-key-number-two-0b8d6e15f9',
    REDIS_URL: 'redis://cache:6379',
    NATS_URL: 'memory',
    TRUST_PROXY: '10.0.0.0/8,127.0.0.1',
  })
  t.equal(c.port, 9000)
  t.equal(c.host, '127.0.0.1')
  t.same(c.upstreams, {
    identity: ['http://127.0.0.1:8101'],
    tickets: ['http://10.0.0.1:8102', 'http://10.0.0.2:8102'],
    'ai-orchestrator': ['http://127.0.0.1:8104'],
  })
  t.equal(c.upstream_timeout_ms, 2500)
  t.same(c.cors_origins, ['https://a.example', 'https://b.example'])
  t.same(c.jwt.previous_secrets, ['rotated-out-key-number-one-7f3a9c2e41', 'rotated-out-key-number-two-0b8d6e15f9'])
  t.same(c.cache, { driver: 'redis', url: 'redis://cache:6379', prefix: 'sb:' })
  t.same(c.bus, { driver: 'memory' })
  t.same(c.trust_proxy, ['10.0.0.0/8', '127.0.0.1'])
  t.equal(c.body_limit_bytes, 1_048_576)
  t.same(c.rate_limits, DEFAULT_RATE_LIMITS)
  t.equal(c.token_state.local_ttl_ms, 60_000)
  t.same(
    [c.jwt.access_ttl_seconds, c.jwt.service_ttl_max_seconds],
    [3600, 30 * 86_400],
    "token lifetime limits: identity's default access lifetime, 30 days for service tokens",
  )
  const longer = loadConfig({ ...base, JWT_ACCESS_TTL_SECONDS: '43200', JWT_SERVICE_TTL_MAX_SECONDS: '86400' })
  t.same([longer.jwt.access_ttl_seconds, longer.jwt.service_ttl_max_seconds], [43_200, 86_400])
  t.throws(() => loadConfig({ ...base, JWT_ACCESS_TTL_SECONDS: '90000' }), /access_ttl_seconds/, "identity's bounds")
  t.throws(() => loadConfig({ ...base, JWT_SERVICE_TTL_MAX_SECONDS: '1' }), /service_ttl_max_seconds/)
  t.same(securityBaseline(c), [], 'defaults pass the baseline')
})

t.test('loadConfig refusals and JSON overrides', async (t) => {
  t.throws(() => loadConfig({ INTERNAL_SECRET: base.INTERNAL_SECRET }), /empty/, 'no JWT secret')
  t.throws(() => loadConfig({ ...base, INTERNAL_SECRET: 'short' }), /internal_secret/)
  t.throws(() => loadConfig({ ...base, UPSTREAM_X: 'ftp://nope' }), /upstreams/)
  t.throws(() => loadConfig({ ...base, RATE_LIMITS_JSON: '{nope' }), /RATE_LIMITS_JSON/)
  t.throws(() => loadConfig({ ...base, RATE_LIMITS_JSON: '{"enabled":true}' }), /rate_limits/)
  const c = loadConfig({
    ...base,
    RATE_LIMIT_ENABLED: 'false',
    PERMISSION_TABLE_JSON: '{"agent":["tickets.read"]}',
    TRUST_PROXY: '2',
  })
  t.equal(c.rate_limits.enabled, false)
  t.same(c.permission_table, { agent: ['tickets.read'] })
  t.equal(c.trust_proxy, 2)
  t.same(upstreamsFromEnv({ UPSTREAM_TIMEOUT_MS: '5', UPSTREAM_CONFIG_GOVERNANCE: 'http://x' }), {
    'config-governance': ['http://x'],
  })
})

t.test('security baseline findings', async (t) => {
  const ok = loadConfig(base)
  const ids = (c: Parameters<typeof securityBaseline>[0]) => securityBaseline(c).map((f) => f.id)
  t.same(ids({ ...ok, jwt: { ...ok.jwt, secret: 'change-me' } }), ['jwt_default_secret'])
  t.same(ids({ ...ok, jwt: { ...ok.jwt, secret: 'dev-secret' } }), ['jwt_default_secret'])
  t.same(ids({ ...ok, jwt: { ...ok.jwt, secret: 'short-but-custom' } }), ['jwt_weak_secret'])
  // the earlier system's shipped defaults are long enough, and still defaults
  for (const secret of ['dev-secret-key-change-in-production', 'default-secret-key-change-in-production']) {
    t.same(ids({ ...ok, jwt: { ...ok.jwt, secret } }), ['jwt_default_secret'], secret)
    t.same(ids({ ...ok, internal_secret: secret }), ['internal_default_secret'], `INTERNAL_SECRET ${secret}`)
  }
  t.same(ids({ ...ok, jwt: { ...ok.jwt, secret: 'my-placeholder-value-for-the-jwt-secret-0000' } }), [
    'jwt_default_secret',
  ])
  t.same(ids({ ...ok, jwt: { ...ok.jwt, secret: 'a'.repeat(64) } }), ['jwt_weak_secret'], 'repetitive')
  t.same(ids({ ...ok, jwt: { ...ok.jwt, secret: 'abcd'.repeat(16) } }), ['jwt_weak_secret'], 'few distinct characters')
  t.same(ids({ ...ok, internal_secret: '0123456789012345' }), ['internal_weak_secret'])
  t.same(ids({ ...ok, jwt: { ...ok.jwt, previous_secrets: ['changeme'] } }), ['jwt_default_secret'], 'rotated keys too')
  t.same(ids({ ...ok, cors_origins: ['https://a', '*'] }), ['cors_open'])
  t.same(ids({ ...ok, rate_limits: { ...ok.rate_limits, enabled: false } }), ['rate_limit_disabled'])
  const missing = securityBaseline({
    ...ok,
    rate_limits: { ...ok.rate_limits, prefixes: ok.rate_limits.prefixes.filter((p) => p.prefix !== '/uploads/') },
  })
  t.same(
    missing.map((f) => f.message),
    ['no own rate limit for /uploads/'],
  )
  const noPrefixes = securityBaseline({ ...ok, rate_limits: { ...ok.rate_limits, prefixes: [] } })
  t.equal(
    noPrefixes.length,
    12,
    'each of the twelve path families (the public pages /help/ and /csat/, the widget and its tickets included)',
  )
  const providers = loadConfig({
    ...base,
    LLM_ENABLED: 'true',
    COMPAT_PROVIDER_ENABLED: 'true',
    COMPAT_PROVIDER_API_KEY: 'k',
  })
  t.same(
    securityBaseline(providers).map((f) => f.message),
    ['provider llm is enabled without an API key'],
  )
})
