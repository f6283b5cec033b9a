import t from 'tap'
import { TokenError } from '../src/errors.ts'
import { createTokenVerifier, issueToken, verifyToken } from '../src/jwt.ts'
import { buildKeyring, kidOf } from '../src/keyring.ts'
import { accessLifetimeLimit } from '../src/lifetimes.ts'
import { basePayload, craft, input, nowS, SECRET } from './fixtures/tokens.ts'

const keys = buildKeyring(SECRET)
const access = { expectedUse: 'access' } as const

async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p
    return 'accepted'
  } catch (err) {
    if (!(err instanceof TokenError)) throw err
    return err.reason
  }
}

t.test('issue then verify round-trips normalised claims', async (t) => {
  const { token, claims } = await issueToken(keys, input(), { ttlSeconds: 600, tokenUse: 'access' })
  t.match(claims.jti, /^[0-9a-f-]{36}$/)
  const v = await verifyToken(keys, token, access)
  t.same(v, claims)
  t.equal(v.sub, 'u1')
  const second = await issueToken(keys, input(), { ttlSeconds: 600, tokenUse: 'access' })
  t.not(second.claims.jti, claims.jti, 'jti unique per token')
})

t.test('kid header names the current key', async (t) => {
  const { token } = await issueToken(keys, input(), { ttlSeconds: 60, tokenUse: 'access' })
  const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())
  t.same(header, { alg: 'HS256', typ: 'JWT', kid: kidOf(SECRET) })
  t.match(kidOf(SECRET), /^[0-9a-f]{8}$/)
})

t.test('token_use must match the expected use', async (t) => {
  const refresh = await issueToken(keys, input(), { ttlSeconds: 60, tokenUse: 'refresh' })
  t.equal(await reason(verifyToken(keys, refresh.token, access)), 'TOKEN_WRONG_USE')
  t.equal((await verifyToken(keys, refresh.token, { expectedUse: 'refresh' })).token_use, 'refresh')
  const acc = await issueToken(keys, input(), { ttlSeconds: 60, tokenUse: 'access' })
  t.equal(await reason(verifyToken(keys, acc.token, { expectedUse: 'refresh' })), 'TOKEN_WRONG_USE')
  const noUse = craft({ alg: 'HS256' }, basePayload({ token_use: undefined }))
  t.equal(await reason(verifyToken(keys, noUse, access)), 'TOKEN_WRONG_USE', 'missing token_use is no access token')
})

t.test('time claims', async (t) => {
  const now = nowS()
  const expired = craft({ alg: 'HS256' }, basePayload({ iat: now - 100, exp: now - 60 }))
  t.equal(await reason(verifyToken(keys, expired, access)), 'TOKEN_EXPIRED')
  const nbf = craft({ alg: 'HS256' }, basePayload({ nbf: now + 60 }))
  t.equal(await reason(verifyToken(keys, nbf, access)), 'TOKEN_NOT_YET_VALID')
  const future = craft({ alg: 'HS256' }, basePayload({ iat: now + 120 }))
  t.equal(await reason(verifyToken(keys, future, access)), 'TOKEN_NOT_YET_VALID')
  const noExp = craft({ alg: 'HS256' }, basePayload({ exp: undefined }))
  t.equal(await reason(verifyToken(keys, noExp, access)), 'TOKEN_MISSING_CLAIM')
  const noIat = craft({ alg: 'HS256' }, basePayload({ iat: undefined }))
  t.equal(await reason(verifyToken(keys, noIat, access)), 'TOKEN_MISSING_CLAIM')
  const noJti = craft({ alg: 'HS256' }, basePayload({ jti: undefined }))
  t.equal(await reason(verifyToken(keys, noJti, access)), 'TOKEN_MISSING_CLAIM')
  const strExp = craft({ alg: 'HS256' }, basePayload({ exp: String(now + 60) }))
  t.not(await reason(verifyToken(keys, strExp, access)), 'accepted', 'exp must be numeric in the token itself')
})

t.test('typ: absent or JWT (any case, application/jwt too); another type is refused (RFC 8725 §3.11)', async (t) => {
  for (const typ of [undefined, 'JWT', 'jwt', 'application/jwt', 'Application/JWT']) {
    const token = craft(typ === undefined ? { alg: 'HS256' } : { alg: 'HS256', typ }, basePayload())
    t.equal((await verifyToken(keys, token, access)).user_id, 'u1', `typ ${typ}`)
  }
  for (const typ of ['at+jwt', 'JWS', 'JOSE', 'secevent+jwt', 'application/at+jwt', '', 'JWT ', 1, null, ['JWT']]) {
    const token = craft({ alg: 'HS256', typ }, basePayload())
    t.equal(await reason(verifyToken(keys, token, access)), 'TOKEN_INVALID', `typ ${JSON.stringify(typ)}`)
  }
})

t.test(
  'lifetime: exp − iat beyond the limit (plus the 5 s skew) is refused; by claims for service tokens',
  async (t) => {
    const now = nowS()
    const lived = (seconds: number, over: Record<string, unknown> = {}) =>
      craft({ alg: 'HS256', typ: 'JWT' }, basePayload({ iat: now, exp: now + seconds, ...over }))
    const bounded = { ...access, maxLifetimeSeconds: 3600 }
    t.equal((await verifyToken(keys, lived(3600), bounded)).user_id, 'u1', 'the configured lifetime')
    t.equal((await verifyToken(keys, lived(3605), bounded)).user_id, 'u1', 'within the skew')
    t.equal(await reason(verifyToken(keys, lived(3606), bounded)), 'TOKEN_LIFETIME_EXCEEDED')
    t.equal(await reason(verifyToken(keys, lived(10 * 365 * 86_400), bounded)), 'TOKEN_LIFETIME_EXCEEDED', 'ten years')
    t.equal((await verifyToken(keys, lived(10 * 365 * 86_400), access)).user_id, 'u1', 'no limit given: any')
    const byKind = {
      ...access,
      maxLifetimeSeconds: accessLifetimeLimit({ access_ttl_seconds: 3600, service_ttl_max_seconds: 30 * 86_400 }),
    }
    const service = { principal_kind: 'service', roles: ['service'], user_id: 'service:ops', sub: 'service:ops' }
    t.equal((await verifyToken(keys, lived(30 * 86_400, service), byKind)).user_id, 'service:ops', 'a month')
    t.equal(await reason(verifyToken(keys, lived(30 * 86_400 + 6, service), byKind)), 'TOKEN_LIFETIME_EXCEEDED')
    t.equal(await reason(verifyToken(keys, lived(7200), byKind)), 'TOKEN_LIFETIME_EXCEEDED', "a user's: an hour")
    const refresh = await issueToken(keys, input(), { ttlSeconds: 7 * 86_400, tokenUse: 'refresh' })
    const week = { expectedUse: 'refresh', maxLifetimeSeconds: 7 * 86_400 } as const
    t.equal((await verifyToken(keys, refresh.token, week)).token_use, 'refresh')
    const day = { ...week, maxLifetimeSeconds: 86_400 }
    t.equal(await reason(verifyToken(keys, refresh.token, day)), 'TOKEN_LIFETIME_EXCEEDED', 'after a lowered setting')
    const future = lived(600, { iat: now + 30, exp: now + 630 })
    t.equal(await reason(verifyToken(keys, future, bounded)), 'TOKEN_NOT_YET_VALID', 'iat beyond the skew')
    t.equal((await verifyToken(keys, lived(600, { iat: now + 2, exp: now + 602 }), bounded)).user_id, 'u1', 'within')
  },
)

t.test('key rotation: previous keys verify, unknown kid is refused', async (t) => {
  const old = buildKeyring('old-secret-aaaaaaaaaaaaaaaaaaaaaaaaaaaa')
  const rotated = buildKeyring(SECRET, ['old-secret-aaaaaaaaaaaaaaaaaaaaaaaaaaaa'])
  const { token } = await issueToken(old, input(), { ttlSeconds: 60, tokenUse: 'access' })
  t.equal((await verifyToken(rotated, token, access)).user_id, 'u1', 'old token valid until expiry')
  t.equal(await reason(verifyToken(keys, token, access)), 'TOKEN_UNKNOWN_KEY', 'dropped key → unknown kid')
  const noKidOld = craft({ alg: 'HS256' }, basePayload(), 'old-secret-aaaaaaaaaaaaaaaaaaaaaaaaaaaa')
  t.equal((await verifyToken(rotated, noKidOld, access)).user_id, 'u1', 'no kid: current then previous')
  const wrongKid = craft({ alg: 'HS256', kid: kidOf(SECRET) }, basePayload(), 'old-secret-aaaaaaaaaaaaaaaaaaaaaaaaaaaa')
  t.equal(await reason(verifyToken(rotated, wrongKid, access)), 'TOKEN_INVALID', 'named kid: no fallback to others')
})

t.test('oversized token refused before parsing', async (t) => {
  const big = craft({ alg: 'HS256' }, basePayload({ pad: 'x'.repeat(9000) }))
  t.equal(await reason(verifyToken(keys, big, access)), 'TOKEN_TOO_LARGE')
  t.equal(await reason(verifyToken(keys, 'a'.repeat(100_000), access)), 'TOKEN_TOO_LARGE')
})

t.test('garbage never escapes as a raw error', async (t) => {
  for (const junk of ['', 'abc', 'a.b.c', '..', 'e30.e30.', '%%%.%%%.%%%', `${'e30'}.${'bnVsbA'}.x`]) {
    const r = await reason(verifyToken(keys, junk, access))
    t.match(r, /^TOKEN_/, JSON.stringify(junk))
  }
  const payloadNotObject = craft({ alg: 'HS256' }, [] as unknown as Record<string, unknown>)
  t.match(await reason(verifyToken(keys, payloadNotObject, access)), /^TOKEN_/)
})

t.test('legacy claim shapes verify', async (t) => {
  const legacy = craft(
    { alg: 'HS256' },
    basePayload({ sub: undefined, user_id: 42, roles: 'admin', token_version: '3', session_token_version: '2' }),
  )
  const c = await verifyToken(keys, legacy, access)
  t.same([c.sub, c.user_id, c.roles, c.token_version, c.session_token_version], ['42', '42', ['admin'], 3, 2])
})

t.test('createTokenVerifier remembers accepted tokens until they expire, never refused ones', async (t) => {
  const keys = buildKeyring('verifier-secret-0123456789abcdef')
  const verify = createTokenVerifier(keys, { expectedUse: 'access', clockToleranceSeconds: 0 })
  const { token } = await issueToken(keys, input(), { ttlSeconds: 60, tokenUse: 'access' })
  const first = await verify(token)
  t.equal(await verify(token), first, 'second call answered from the cache')
  const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`
  await t.rejects(verify(tampered), 'a changed token is verified, and refused')
  await t.rejects(verify(tampered), 'refusals are not cached as acceptances')
  const short = await issueToken(keys, input(), { ttlSeconds: 1, tokenUse: 'access' })
  await verify(short.token)
  await new Promise((r) => setTimeout(r, 2100))
  await t.rejects(verify(short.token), 'an expired token is refused even after it was cached')
})
