// JWT attacks end to end through the gateway, in both run modes: every forged, tampered, misused or revoked
// token gets a 401 with the fleet's error body (431 for a header too big for Node itself), never a 500; header
// parameters that point at keys are never fetched. Then a key rotation on one embedded DATA_DIR.
import { createSign, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { kidOf } from '@switchboard/auth'
import { startEmbedded } from '@switchboard/cli'
import { createRootLogger } from '@switchboard/platform'
import t, { type Test } from 'tap'
import { login, register } from './harness/auth.ts'
import { client, type Reply } from './harness/http.ts'
import {
  decodeJwt,
  forge,
  hmac,
  isError,
  type Json,
  nowSeconds,
  refusedWithin,
  signHs256,
  unsigned,
} from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'
import { testEnv } from './harness/system.ts'

const b64 = (v: Json) => Buffer.from(JSON.stringify(v)).toString('base64url')

/** A tiny HTTP server standing in for an attacker's key URL (jku, x5u, a kid that looks like a URL). */
async function keyServer(t: Test) {
  const hits: string[] = []
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`)
    res.setHeader('content-type', 'application/json')
    res.end('{"keys":[]}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits }
}

inEachMode('jwt attacks', { env: { REFRESH_REUSE_REVOKES_SESSION: 'true' } }, async (t, system) => {
  const api = client(system.url)
  const suffix = randomBytes(3).toString('hex')
  const secret = system.env.JWT_SECRET!
  const demo = { 'x-tenant-id': system.tenant_id, 'x-workspace-id': system.workspace_id }
  const admin = await login(api, system.admin.username, system.admin.password)
  const as = { token: admin.token }
  const me = (token: string, headers: Record<string, string> = {}) => api.get('/api/v1/auth/me', { token, headers })
  const keys = await keyServer(t)

  const victim = await register(api, `victim_${suffix}`, demo)
  if (victim.status !== 201) throw new Error(`register: ${victim.text}`)
  const good = victim.body.token as string
  const { header, payload, signature } = decodeJwt(good)
  const [h64, p64] = good.split('.') as [string, string]

  /** Every refusal: 401 with the error body and a TOKEN_* code (or the given one), never a 500. */
  async function refused(t: Test, label: string, token: string, code?: string) {
    const r = await me(token)
    isError(t, r, 401, code, label)
    if (!code) t.match(r.body?.code, /^TOKEN_/, `${label}: a TOKEN_* code`)
    return r
  }

  t.test('the untouched token is accepted (control)', async (t) => {
    t.equal((await me(good)).status, 200)
    t.equal(header.alg, 'HS256')
    t.equal(header.kid, kidOf(secret), 'kid = first 8 hex of sha256(secret)')
    t.equal(
      forge(good, { secret }).length > 0 && (await me(forge(good, { secret }))).status,
      200,
      'a re-signed copy too',
    )
  })

  t.test('alg none in every spelling, and no alg', async (t) => {
    for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
      await refused(t, `alg ${alg}, no signature`, unsigned({ ...header, alg }, payload), 'TOKEN_INVALID')
      await refused(
        t,
        `alg ${alg}, original signature`,
        unsigned({ ...header, alg }, payload, signature),
        'TOKEN_INVALID',
      )
    }
    const { alg: _alg, ...noAlg } = header
    await refused(t, 'no alg header', unsigned(noAlg, payload, signature), 'TOKEN_INVALID')
  })

  t.test('algorithm confusion: RS256, ES256, HS384/512, HS256 keyed with a public key', async (t) => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const input = (alg: string) => `${b64({ ...header, alg })}.${p64}`
    const rs = input('RS256')
    await refused(
      t,
      'RS256 signed with an RSA key',
      `${rs}.${createSign('RSA-SHA256').update(rs).sign(rsa.privateKey, 'base64url')}`,
      'TOKEN_INVALID',
    )
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const es = input('ES256')
    const esSig = sign('sha256', Buffer.from(es), { key: ec.privateKey, dsaEncoding: 'ieee-p1363' }).toString(
      'base64url',
    )
    await refused(t, 'ES256 signed with an EC key', `${es}.${esSig}`, 'TOKEN_INVALID')
    for (const [alg, hash] of [
      ['HS384', 'sha384'],
      ['HS512', 'sha512'],
    ] as const) {
      const i = input(alg)
      await refused(t, `${alg} with the real secret`, `${i}.${hmac(hash, secret, i)}`, 'TOKEN_INVALID')
    }
    // The classic confusion: the verifier's public key used as an HMAC secret.
    const pem = rsa.publicKey.export({ type: 'spki', format: 'pem' }) as string
    await refused(t, 'HS256 keyed with an RSA public key (PEM)', signHs256(header, payload, pem), 'TOKEN_INVALID')
    const der = rsa.publicKey.export({ type: 'spki', format: 'der' })
    const hs = input('HS256')
    await refused(t, 'HS256 keyed with an RSA public key (DER)', `${hs}.${hmac('sha256', der, hs)}`, 'TOKEN_INVALID')
  })

  t.test('signature stripped, flipped, truncated, or made with another secret', async (t) => {
    await refused(t, 'stripped signature (trailing dot)', `${h64}.${p64}.`, 'TOKEN_INVALID')
    await refused(t, 'two segments', `${h64}.${p64}`, 'TOKEN_MALFORMED')
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`
    await refused(t, 'one signature character changed', `${h64}.${p64}.${flipped}`, 'TOKEN_INVALID')
    await refused(t, 'signature truncated', `${h64}.${p64}.${signature.slice(0, 20)}`, 'TOKEN_INVALID')
    await refused(t, 'wrong secret', signHs256(header, payload, randomBytes(32).toString('base64url')), 'TOKEN_INVALID')
    await refused(t, 'wrong secret, no kid', signHs256({ alg: 'HS256', typ: 'JWT' }, payload, 'guess'), 'TOKEN_INVALID')
    const tampered = b64({ ...payload, user_id: admin.user.id, sub: admin.user.id, roles: ['admin'] })
    await refused(t, 'claims changed under the old signature', `${h64}.${tampered}.${signature}`, 'TOKEN_INVALID')
    await refused(t, 'four segments', `${good}.${signature}`, 'TOKEN_MALFORMED')
    await refused(t, 'garbage', 'not-a-jwt', 'TOKEN_MALFORMED')
    await refused(t, 'base64 garbage segments', '!!!.@@@.###', 'TOKEN_MALFORMED')
    const headerless = await api.get('/api/v1/auth/me', { headers: { authorization: `Basic ${good}` } })
    isError(t, headerless, 401, 'TOKEN_MALFORMED', 'another auth scheme')
    isError(t, await api.get('/api/v1/auth/me'), 401, 'TOKEN_MISSING', 'no token')
  })

  t.test('key-pointing headers are refused and never fetched', async (t) => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const jwk = rsa.publicKey.export({ format: 'jwk' })
    const attackerSecret = randomBytes(32)
    const rsSigned = (h: Json) => {
      const i = `${b64(h)}.${p64}`
      return `${i}.${createSign('RSA-SHA256').update(i).sign(rsa.privateKey, 'base64url')}`
    }
    const hsSigned = (h: Json, key: string | Buffer) => {
      const i = `${b64(h)}.${p64}`
      return `${i}.${hmac('sha256', key, i)}`
    }
    const oct = { kty: 'oct', k: attackerSecret.toString('base64url') }
    await refused(t, 'embedded jwk (RSA), RS256', rsSigned({ alg: 'RS256', typ: 'JWT', jwk }))
    await refused(
      t,
      'embedded jwk (oct), HS256 with that key',
      hsSigned({ alg: 'HS256', typ: 'JWT', jwk: oct }, attackerSecret),
    )
    await refused(t, 'jku, RS256', rsSigned({ alg: 'RS256', typ: 'JWT', jku: `${keys.url}/jwks.json` }))
    await refused(
      t,
      'jku, HS256 with an attacker key',
      hsSigned({ alg: 'HS256', jku: `${keys.url}/jku` }, attackerSecret),
    )
    await refused(t, 'x5u, RS256', rsSigned({ alg: 'RS256', x5u: `${keys.url}/cert.pem` }))
    await refused(
      t,
      'x5u, HS256 with an attacker key',
      hsSigned({ alg: 'HS256', x5u: `${keys.url}/x5u` }, attackerSecret),
    )
    await refused(t, 'x5c, RS256', rsSigned({ alg: 'RS256', x5c: ['MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'] }))
    // Even with a valid signature by the real key, a key-pointing header is not tolerated.
    for (const extra of [{ jku: `${keys.url}/real-jku` }, { x5u: `${keys.url}/real-x5u` }, { jwk: oct }]) {
      const name = Object.keys(extra)[0]
      await refused(
        t,
        `${name} beside a real signature`,
        forge(good, { secret, header: extra }),
        'TOKEN_FORBIDDEN_HEADER',
      )
    }
    await refused(t, 'crit header', forge(good, { secret, header: { crit: ['exp'] } }), 'TOKEN_FORBIDDEN_HEADER')
    t.same(keys.hits, [], 'the key server got no request')
  })

  t.test('odd kid values, each with a signature by the real secret', async (t) => {
    const kids: unknown[] = [
      '../../../../etc/passwd',
      "x' OR '1'='1",
      `${keys.url}/kid`,
      'a'.repeat(1000),
      '',
      '\u0000',
      kidOf(randomBytes(8).toString('hex')),
      123,
      null,
      true,
      { $ne: '' },
      [header.kid],
    ]
    for (const kid of kids) {
      const label = `kid ${JSON.stringify(kid).slice(0, 40)}`
      await refused(t, label, forge(good, { secret, header: { kid } }), 'TOKEN_UNKNOWN_KEY')
    }
    t.same(keys.hits, [], 'a URL-looking kid is not fetched')
  })

  t.test('valid signature, bad time claims', async (t) => {
    const now = nowSeconds()
    await refused(t, 'expired', forge(good, { secret, claims: { iat: now - 7200, exp: now - 60 } }), 'TOKEN_EXPIRED')
    await refused(t, 'nbf in the future', forge(good, { secret, claims: { nbf: now + 3600 } }), 'TOKEN_NOT_YET_VALID')
    await refused(
      t,
      'iat in the future',
      forge(good, { secret, claims: { iat: now + 3600, exp: now + 7200 } }),
      'TOKEN_NOT_YET_VALID',
    )
    await refused(t, 'no exp', forge(good, { secret, claims: { exp: undefined } }), 'TOKEN_MISSING_CLAIM')
    await refused(t, 'no iat', forge(good, { secret, claims: { iat: undefined } }), 'TOKEN_MISSING_CLAIM')
    await refused(t, 'no jti', forge(good, { secret, claims: { jti: undefined } }), 'TOKEN_MISSING_CLAIM')
    await refused(t, 'exp as a string', forge(good, { secret, claims: { exp: String(now + 600) } }))
    await refused(t, 'no token_use', forge(good, { secret, claims: { token_use: undefined } }), 'TOKEN_WRONG_USE')
    // issue 19 §6: the lifetime of its kind (JWT_ACCESS_TTL_SECONDS, an hour here) and the JWT type
    const day = forge(good, { secret, claims: { iat: now, exp: now + 86_400 } })
    await refused(t, 'signed to live a day', day, 'TOKEN_LIFETIME_EXCEEDED')
    await refused(t, 'typ at+jwt', forge(good, { secret, header: { typ: 'at+jwt' } }), 'TOKEN_INVALID')
    t.equal((await me(forge(good, { secret, header: { typ: 'jwt' } }))).status, 200, 'typ jwt (any case)')
    const lower = await api.get('/api/v1/auth/me', { headers: { authorization: `bearer ${good}` } })
    t.equal(lower.status, 200, 'the scheme name in any case')
    const month = forge(victim.body.refresh_token, { secret, claims: { exp: now + 30 * 86_400 } })
    const refreshed = await api.post('/api/v1/auth/refresh', { refresh_token: month })
    isError(t, refreshed, 401, 'IDENTITY_INVALID_REFRESH_TOKEN', 'a refresh token signed to live a month')
    t.match(refreshed.body.message, /lifetime/)
  })

  t.test('a refresh token is no access token, an access token no refresh token', async (t) => {
    await refused(t, 'the real refresh token as a bearer', victim.body.refresh_token, 'TOKEN_WRONG_USE')
    const asRefresh = await api.post('/api/v1/auth/refresh', { refresh_token: good })
    isError(t, asRefresh, 401, 'IDENTITY_INVALID_REFRESH_TOKEN', 'an access token at /refresh')
    const { header: rh, payload: rp } = decodeJwt(victim.body.refresh_token)
    for (const [label, token] of [
      ['alg none refresh token', unsigned({ ...rh, alg: 'none' }, rp)],
      ['refresh token with another secret', signHs256(rh, rp, 'not-the-secret-at-all-0123456789')],
      ['expired refresh token', forge(victim.body.refresh_token, { secret, claims: { exp: nowSeconds() - 60 } })],
      ['refresh token with a jku', forge(victim.body.refresh_token, { secret, header: { jku: `${keys.url}/r` } })],
    ] as const) {
      isError(t, await api.post('/api/v1/auth/refresh', { refresh_token: token }), 401, undefined, label)
    }
    isError(t, await api.post('/api/v1/auth/refresh', { refresh_token: '' }), 400, undefined, 'an empty refresh token')
    t.same(keys.hits, [])
  })

  t.test('a re-used refresh token is refused and (REFRESH_REUSE_REVOKES_SESSION=true) ends the session', async (t) => {
    const u = await login(api, `victim_${suffix}`, victim.password)
    const first = await api.post('/api/v1/auth/refresh', { refresh_token: u.refresh_token })
    t.equal(first.status, 200, first.text)
    const newest = await api.post('/api/v1/auth/refresh', { refresh_token: first.body.refresh_token })
    t.equal(newest.status, 200, newest.text)
    t.equal((await me(newest.body.token)).status, 200, 'the newest access token works before the replay')
    const replay = await api.post('/api/v1/auth/refresh', { refresh_token: u.refresh_token })
    isError(t, replay, 401, 'IDENTITY_REFRESH_TOKEN_REUSED', 'the rotated refresh token replayed')
    const ended = await refusedWithin(() => me(newest.body.token))
    isError(t, ended.reply, 401, 'TOKEN_REVOKED', `the newest access token of that session (${ended.ms} ms)`)
    const again = await api.post('/api/v1/auth/refresh', { refresh_token: newest.body.refresh_token })
    t.equal(again.status, 401, 'and its newest refresh token')
    t.equal((await me(good)).status, 200, "the user's other sessions live on")
  })

  t.test('revoked session, denylisted jti, token_version, token_valid_after', async (t) => {
    const s = await login(api, `victim_${suffix}`, victim.password)
    t.equal((await api.post('/api/v1/auth/sessions/logout-current', undefined, { token: s.token })).status, 200)
    const sGone = await refusedWithin(() => me(s.token))
    isError(t, sGone.reply, 401, 'TOKEN_REVOKED', `a revoked session's access token (${sGone.ms} ms)`)
    t.match(sGone.reply.body.message, /session/)
    t.equal(
      (await api.post('/api/v1/auth/refresh', { refresh_token: s.refresh_token })).status,
      401,
      'and refresh token',
    )
    const sameSession = forge(s.token, { secret, claims: { session_token_version: 99 } })
    await refused(t, 'a higher session_token_version on a revoked session', sameSession, 'TOKEN_REVOKED')

    const d = await login(api, `victim_${suffix}`, victim.password)
    t.equal((await api.post('/api/security/tokens/revoke', { token: d.token }, as)).status, 200)
    const dGone = await refusedWithin(() => me(d.token))
    isError(t, dGone.reply, 401, 'TOKEN_REVOKED', `a denylisted jti (${dGone.ms} ms)`)
    t.equal(dGone.reply.body.message, 'token revoked')
    const copy = forge(d.token, { secret, claims: { jti: decodeJwt(d.token).payload.jti } })
    await refused(t, 'the same jti re-signed', copy, 'TOKEN_REVOKED')

    // A user revoke: token_version+1 and token_valid_after=now. Tokens forged from a fresh login isolate
    // each rule: the current version but an iat before token_valid_after, and a fresh iat but the old version.
    const victimId = victim.body.user.id as string
    const before = decodeJwt(good).payload
    const r = await api.post(`/api/security/users/${victimId}/revoke-tokens`, { reason: 'e2e' }, as)
    t.equal(r.status, 200, r.text)
    const old = await refusedWithin(() => me(good))
    isError(t, old.reply, 401, 'TOKEN_REVOKED', `a token from before the user revoke (${old.ms} ms)`)
    const fresh = await login(api, `victim_${suffix}`, victim.password)
    t.equal((await me(fresh.token)).status, 200, 'a login after the revoke works')
    const state = await api.get(`/api/security/users/${victimId}`, as)
    const validAfter = Math.floor(Date.parse(state.body.token_valid_after) / 1000)
    t.equal(decodeJwt(fresh.token).payload.token_version, (before.token_version as number) + 1)
    // exp moves with iat: a longer lifetime than an access token's would be refused for that instead
    const freshExp = decodeJwt(fresh.token).payload.exp as number
    const early = forge(fresh.token, { secret, claims: { iat: validAfter - 30, exp: freshExp - 30 } })
    const r1 = await refused(t, 'current token_version, iat before token_valid_after', early, 'TOKEN_REVOKED')
    t.equal(r1.body.message, 'token issued before token_valid_after')
    const below = forge(fresh.token, { secret, claims: { token_version: before.token_version } })
    const r2 = await refused(t, 'fresh iat, token_version below the user', below, 'TOKEN_REVOKED')
    t.equal(r2.body.message, 'token version revoked')
  })

  t.test("an inactive user's tokens", async (t) => {
    const u = await register(api, `inactive_${suffix}`, demo)
    t.equal(u.status, 201, u.text)
    t.equal((await me(u.body.token)).status, 200)
    const off = await api.put(`/api/security/users/${u.body.user.id}/status`, { status: 'inactive' }, as)
    t.equal(off.status, 200, off.text)
    // identity's token-state event reaches the gateway: the live token stops working without a refetch
    const gone = await refusedWithin(() => me(u.body.token))
    t.equal(gone.reply.status, 401, `refused ${gone.ms} ms after the deactivation answered`)
    t.equal(gone.reply.body.message, 'user is not active')
    const signIn = await api.post('/api/v1/auth/login', { username: `inactive_${suffix}`, password: u.password })
    isError(t, signIn, 403, 'IDENTITY_USER_INACTIVE', 'login (after a correct password)')
    const refresh = await api.post('/api/v1/auth/refresh', { refresh_token: u.body.refresh_token })
    isError(t, refresh, 401, 'IDENTITY_INVALID_REFRESH_TOKEN', 'refresh')
  })

  t.test('token in the query string, oversized tokens', async (t) => {
    const inQuery = await api.get(`/api/v1/auth/me?access_token=${good}`)
    isError(t, inQuery, 401, 'TOKEN_IN_QUERY', '?access_token= alone')
    const both = await api.get(`/api/customers?access_token=${admin.token}`, as)
    isError(t, both, 401, 'TOKEN_IN_QUERY', '?access_token= beside a valid header')
    const big = forge(good, { secret, claims: { pad: 'x'.repeat(9 * 1024) } })
    await refused(t, `a ${big.length}-byte token (over MAX_TOKEN_BYTES, signed)`, big, 'TOKEN_TOO_LARGE')
    const huge = `${h64}.${b64({ pad: 'x'.repeat(64 * 1024) })}.${signature}`
    // Node's own header limit (16 KiB) answers before the gateway sees the request.
    const r = await me(huge).catch((err: Error) => ({ status: 0, text: String(err.cause ?? err) }) as Reply)
    t.equal(r.status, 431, `a ${huge.length}-byte header: ${r.status} ${r.text.slice(0, 120)}`)
    t.equal((await api.get('/health')).status, 200, 'the gateway is fine afterwards')
  })
})

t.test('key rotation on one embedded DATA_DIR: JWT_SECRET=A, then B with JWT_PREVIOUS_SECRETS=A', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-e2e-rotation-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const [A, B, C] = [0, 1, 2].map(() => randomBytes(32).toString('base64url')) as [string, string, string]
  const env = testEnv()
  const logger = createRootLogger({ level: env.LOG_LEVEL, destination: process.stderr })
  const start = async (extra: NodeJS.ProcessEnv) => {
    const system = await startEmbedded({ port: 0, dataDir, env: { ...env, ...extra }, logger })
    return { system, api: client(system.url) }
  }

  const one = await start({ JWT_SECRET: A })
  const admin = await login(one.api, env.ADMIN_USERNAME!, env.ADMIN_PASSWORD!)
  const tenancy = { 'x-tenant-id': one.system.seeded!.tenant_id, 'x-workspace-id': one.system.seeded!.workspace_id }
  const user = await register(one.api, `rotated_${randomBytes(3).toString('hex')}`, tenancy)
  t.equal(user.status, 201, user.text)
  const userA = await login(one.api, user.body.user.username, user.password)
  t.equal(decodeJwt(admin.token).header.kid, kidOf(A), 'tokens of the first start carry kid(A)')
  await one.system.close()

  const two = await start({ JWT_SECRET: B, JWT_PREVIOUS_SECRETS: A })
  let closed = false
  const closeTwo = async () => {
    if (!closed) await two.system.close()
    closed = true
  }
  t.teardown(closeTwo)
  const me = (token: string) => two.api.get('/api/v1/auth/me', { token })
  t.equal((await me(admin.token)).status, 200, 'the old admin token still works after the restart')
  t.equal((await me(userA.token)).status, 200, "and the user's")
  const fresh = await login(two.api, env.ADMIN_USERNAME!, env.ADMIN_PASSWORD!)
  t.equal(decodeJwt(fresh.token).header.kid, kidOf(B), 'a new login is signed with B')
  t.not(kidOf(A), kidOf(B), 'a different kid')
  t.equal((await me(fresh.token)).status, 200)
  const refreshed = await two.api.post('/api/v1/auth/refresh', { refresh_token: user.body.refresh_token })
  t.equal(refreshed.status, 200, `an A refresh token rotates into a B pair: ${refreshed.text.slice(0, 120)}`)
  t.equal(decodeJwt(refreshed.body.token).header.kid, kidOf(B))

  const { header, payload } = decodeJwt(fresh.token)
  const unknown = signHs256({ ...header, kid: kidOf(C) }, { ...payload, jti: randomUUID() }, C)
  isError(t, await me(unknown), 401, 'TOKEN_UNKNOWN_KEY', 'a token signed with an unknown secret (its own kid)')
  const posing = signHs256(header, { ...payload, jti: randomUUID() }, C)
  isError(t, await me(posing), 401, 'TOKEN_INVALID', "an unknown secret posing as B's kid")
  const noKid = signHs256({ alg: 'HS256', typ: 'JWT' }, { ...payload, jti: randomUUID() }, C)
  isError(t, await me(noKid), 401, 'TOKEN_INVALID', 'an unknown secret without a kid')

  // The still valid A token of the admin revokes the user: the user's A token ends at once, B tokens too.
  const revoke = await two.api.post(`/api/security/users/${user.body.user.id}/revoke-tokens`, undefined, {
    token: admin.token,
  })
  t.equal(revoke.status, 200, revoke.text)
  const old = await refusedWithin(() => me(userA.token))
  isError(t, old.reply, 401, 'TOKEN_REVOKED', `revoke-tokens ends the old-key token (${old.ms} ms)`)
  isError(t, await me(refreshed.body.token), 401, 'TOKEN_REVOKED', 'and the new-key token of the user')
  await closeTwo()

  // Once A is dropped from the previous secrets, its tokens are gone for good.
  const three = await start({ JWT_SECRET: B })
  t.teardown(() => three.system.close())
  const gone = await three.api.get('/api/v1/auth/me', { token: admin.token })
  isError(t, gone, 401, 'TOKEN_UNKNOWN_KEY', 'an A token after A left JWT_PREVIOUS_SECRETS')
  t.equal((await three.api.get('/api/v1/auth/me', { token: fresh.token })).status, 200, 'B tokens still work')
})
