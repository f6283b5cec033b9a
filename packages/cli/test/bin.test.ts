import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { buildKeyring, verifyToken } from '@switchboard/auth'
import t from 'tap'
import { REPO_ROOT } from '../src/fleet.ts'

const bin = join(REPO_ROOT, 'packages/cli/src/bin.ts')
const strong = 'a-strong-jwt-secret-of-more-than-32-characters'
const base = {
  PATH: process.env.PATH,
  INTERNAL_SECRET: 'internal-secret-of-the-cli-tests-0123456789',
  CONFIG_ENCRYPTION_KEY: 'config-encryption-key-of-the-cli-tests-0123456789',
}

async function cli(args: string[], env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { env })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

t.test('security-baseline: findings listed; --strict fails on any; an unusable configuration exits 2', async (t) => {
  const clean = await cli(['security-baseline', '--strict'], { ...base, JWT_SECRET: strong })
  t.equal(clean.code, 0)
  t.match(clean.stdout, /no findings/)

  const env = { ...base, JWT_SECRET: 'short', CORS_ORIGINS: '*' }
  const lenient = await cli(['security-baseline'], env)
  t.equal(lenient.code, 0, 'without --strict it only reports')
  t.match(lenient.stdout, /2 finding\(s\)/)
  t.match(lenient.stdout, /jwt_weak_secret/)
  t.match(lenient.stdout, /cors_open/)
  const strict = await cli(['check-security-baseline', '--strict'], env)
  t.equal(strict.code, 1, '--strict exits non-zero')

  const noLimits = await cli(['security-baseline', '--strict'], {
    ...base,
    JWT_SECRET: strong,
    RATE_LIMIT_ENABLED: 'false',
  })
  t.equal(noLimits.code, 1)
  t.match(noLimits.stdout, /rate_limit_disabled/)

  const { CONFIG_ENCRYPTION_KEY: _, ...withoutKey } = base
  const derived = await cli(['security-baseline', '--strict'], { ...withoutKey, JWT_SECRET: strong })
  t.equal(derived.code, 1, 'no config encryption key of its own')
  t.match(derived.stdout, /config_encryption_key_missing/)
  const weak = await cli(['security-baseline', '--strict'], {
    ...base,
    JWT_SECRET: strong,
    CONFIG_ENCRYPTION_KEY: 'short-key',
  })
  t.match(weak.stdout, /config_encryption_key_weak/)

  const production = { ...base, JWT_SECRET: strong, SERVER_ENVIRONMENT: 'production' }
  const openWidget = await cli(['security-baseline', '--strict'], production)
  t.equal(openWidget.code, 1, 'production with no system list of widget origins')
  t.match(openWidget.stdout, /widget_origins_open/)
  const listed = await cli(['security-baseline', '--strict'], {
    ...production,
    PORTAL_WIDGET_ALLOWED_ORIGINS: 'https://shop.example',
  })
  t.notMatch(listed.stdout, /widget_origins_open/, 'a system list')
  t.notMatch(clean.stdout, /widget_origins_open/, 'development: the empty list is the default')

  const invalid = await cli(['security-baseline', '--strict'], { ...base })
  t.equal(invalid.code, 2, 'no JWT secret at all')
  t.match(invalid.stderr, /configuration is invalid/)
})

t.test('token mint prints a token signed with JWT_SECRET', async (t) => {
  const out = await cli(['token', 'mint', '--service', 'reports', '--permission', 'audit.read', '--ttl', '60'], {
    ...base,
    JWT_SECRET: strong,
  })
  t.equal(out.code, 0, out.stderr)
  const claims = await verifyToken(buildKeyring(strong), out.stdout.trim(), { expectedUse: 'access' })
  t.equal(claims.principal_kind, 'service')
  t.same(claims.permissions, ['audit.read'])
  const missing = await cli(['token', 'mint', '--service', 'reports'], { ...base, JWT_SECRET: strong })
  t.not(missing.code, 0)
  t.match(missing.stderr, /--permission/)
})
