import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { TokenError } from '../src/errors.ts'
import { verifyToken } from '../src/jwt.ts'
import { buildKeyring, kidOf } from '../src/keyring.ts'
import { basePayload, craft, rsaConfusion, SECRET, unsigned } from './fixtures/tokens.ts'

const keys = buildKeyring(SECRET)
const access = { expectedUse: 'access' } as const

async function refused(t: Test, token: string, name: string, code?: string) {
  try {
    await verifyToken(keys, token, access)
    t.fail(`${name}: accepted`)
  } catch (err) {
    t.ok(err instanceof TokenError, `${name}: TokenError`)
    if (code) t.equal((err as TokenError).reason, code, name)
  }
}

t.test('alg none in every spelling', async (t) => {
  for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
    await refused(t, unsigned({ alg, typ: 'JWT' }, basePayload()), `alg ${alg}`)
    await refused(t, craft({ alg }, basePayload()), `alg ${alg} with signature`)
  }
})

t.test('HS/RS confusion', async (t) => {
  const { pem, rs256, hsWithPem } = rsaConfusion(basePayload())
  await refused(t, rs256, 'RS256 token')
  await refused(t, hsWithPem, 'HS256 signed with the public key PEM')
  await t.rejects(verifyToken(buildKeyring(SECRET), rs256, access))
  t.ok(pem.includes('PUBLIC KEY'))
})

t.test('signature tampering', async (t) => {
  const good = craft({ alg: 'HS256' }, basePayload())
  const [h, p, s] = good.split('.') as [string, string, string]
  await refused(t, `${h}.${p}.`, 'stripped signature')
  await refused(t, `${h}.${p}`, 'two segments')
  const flipped = s.slice(0, 5) + (s[5] === 'A' ? 'B' : 'A') + s.slice(6)
  await refused(t, `${h}.${p}.${flipped}`, 'flipped signature')
  const otherPayload = Buffer.from(JSON.stringify(basePayload({ roles: ['admin'] }))).toString('base64url')
  await refused(t, `${h}.${otherPayload}.${s}`, 'payload swapped')
  await refused(t, craft({ alg: 'HS256' }, basePayload(), 'wrong-secret'), 'wrong secret')
  await refused(t, craft({ alg: 'HS512' }, basePayload()), 'HS512 (not pinned)')
})

t.test('key-carrying headers are refused and never fetched', async (t) => {
  let hits = 0
  const server = createServer((_req, res) => {
    hits++
    res.end('{"keys":[]}')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  t.teardown(() => new Promise<void>((r) => server.close(() => r())))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`
  const jwk = { kty: 'oct', k: Buffer.from('attacker').toString('base64url') }
  const headers: Record<string, unknown>[] = [
    { alg: 'HS256', jwk },
    { alg: 'HS256', jku: url },
    { alg: 'HS256', x5u: url },
    { alg: 'HS256', x5c: ['MIIB'] },
    { alg: 'HS256', crit: ['exp'], exp: 1 },
    { alg: 'HS256', kid: kidOf(SECRET), jku: url },
  ]
  for (const h of headers)
    await refused(t, craft(h, basePayload()), JSON.stringify(Object.keys(h)), 'TOKEN_FORBIDDEN_HEADER')
  await refused(t, craft({ alg: 'HS256', jwk }, basePayload(), 'attacker'), 'embedded jwk used to sign')
  await new Promise((r) => setTimeout(r, 50))
  t.equal(hits, 0, 'no outbound fetch')
})

t.test('odd kid values are plain lookups', async (t) => {
  const kids: unknown[] = [
    '../../etc/passwd',
    "' OR '1'='1",
    '1; DROP TABLE keys;--',
    'k'.repeat(5000),
    '',
    42,
    null,
    { $ne: 1 },
    ['a'],
    '__proto__',
    'constructor',
  ]
  for (const kid of kids) {
    await refused(t, craft({ alg: 'HS256', kid }, basePayload()), `kid ${JSON.stringify(kid).slice(0, 30)}`)
  }
})
