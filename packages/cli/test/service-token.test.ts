import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildKeyring, principalKind, verifyToken } from '@switchboard/auth'
import t from 'tap'
import { resolveSecret } from '../src/secrets.ts'
import { mintServiceToken } from '../src/service-token.ts'

const secret = 'service-token-test-secret-0123456789'

t.test('mints an access token for a service principal with exactly the permissions asked for', async (t) => {
  const { token } = await mintServiceToken({
    service: 'reporting',
    permissions: ['audit.read', 'tickets.*', 'audit.read'],
    tenant_id: 'acme',
    workspace_id: 'support',
    ttlSeconds: 120,
    env: { JWT_SECRET: secret },
  })
  const claims = await verifyToken(buildKeyring(secret), token, { expectedUse: 'access' })
  t.equal(claims.user_id, 'service:reporting')
  t.equal(principalKind(claims), 'service')
  t.same(claims.permissions, ['audit.read', 'tickets.*'])
  t.equal(claims.tenant_id, 'acme')
  t.equal(claims.workspace_id, 'support')
  t.equal(claims.exp - claims.iat, 120)
  await t.rejects(
    verifyToken(buildKeyring(secret), token, { expectedUse: 'refresh' }),
    'never usable as a refresh token',
  )
})

t.test('unscoped by default; refuses bad input', async (t) => {
  const env = { JWT_SECRET: secret }
  const { claims } = await mintServiceToken({ service: 'ops', permissions: ['*'], env })
  t.equal(claims.tenant_id, '')
  t.equal(claims.workspace_id, '')
  await t.rejects(mintServiceToken({ service: 'ops', permissions: [], env }), /permission/)
  await t.rejects(mintServiceToken({ service: 'a b', permissions: ['*'], env }), /slug/)
  await t.rejects(mintServiceToken({ service: 'ops', permissions: ['*'], workspace_id: 'w', env }), /--tenant/)
  await t.rejects(mintServiceToken({ service: 'ops', permissions: ['*'], ttlSeconds: 0, env }), /ttl/)
})

t.test('never mints a token longer-lived than the gateway takes (JWT_SERVICE_TTL_MAX_SECONDS, 30 days)', async (t) => {
  const env = { JWT_SECRET: secret }
  const month = 30 * 86_400
  const { claims } = await mintServiceToken({ service: 'ops', permissions: ['*'], ttlSeconds: month, env })
  t.equal(claims.exp - claims.iat, month, 'up to the default limit')
  await t.rejects(
    mintServiceToken({ service: 'ops', permissions: ['*'], ttlSeconds: month + 1, env }),
    /--ttl must be at most 2592000 seconds \(JWT_SERVICE_TTL_MAX_SECONDS\)/,
  )
  const longer = { ...env, JWT_SERVICE_TTL_MAX_SECONDS: String(90 * 86_400) }
  const quarter = await mintServiceToken({ service: 'ops', permissions: ['*'], ttlSeconds: 90 * 86_400, env: longer })
  t.equal(quarter.claims.exp - quarter.claims.iat, 90 * 86_400, 'the fleet may allow longer')
  await t.rejects(
    mintServiceToken({ service: 'ops', permissions: ['*'], env: { ...env, JWT_SERVICE_TTL_MAX_SECONDS: 'soon' } }),
    /JWT_SERVICE_TTL_MAX_SECONDS must be a whole number/,
  )
})

t.test('falls back to the secret an embedded start stored under DATA_DIR', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-token-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  await t.rejects(mintServiceToken({ service: 'ops', permissions: ['*'], env: {}, dataDir: dir }), /no JWT secret/)
  const stored = resolveSecret({}, 'JWT_SECRET', dir).value
  const { token } = await mintServiceToken({ service: 'ops', permissions: ['*'], env: {}, dataDir: dir })
  t.equal((await verifyToken(buildKeyring(stored), token, { expectedUse: 'access' })).user_id, 'service:ops')
})
