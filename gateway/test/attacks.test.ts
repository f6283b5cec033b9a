import { createHmac, generateKeyPairSync, sign } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { kidOf } from '@switchboard/auth'
import t from 'tap'
import { accessToken, bearer, harness, JWT_SECRET, seedUser } from './fixtures/gateway.ts'

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
const hs = (header: object, payload: object, secret: string = JWT_SECRET) => {
  const input = `${b64(header)}.${b64(payload)}`
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`
}

t.test('JWT attacks through the gateway: all 401, never 500, nothing fetched', async (t) => {
  let hits = 0
  const trap = createServer((_req, res) => {
    hits++
    res.end('{"keys":[]}')
  })
  await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r))
  t.teardown(() => new Promise<void>((r) => trap.close(() => r())))
  const trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}/jwks`

  const h = await harness(t)
  const claims = seedUser(h)
  const now = Math.floor(Date.now() / 1000)
  const payload = { ...claims, sub: claims.user_id, jti: 'attack-jti', iat: now, exp: now + 600, token_use: 'access' }
  const valid = hs({ alg: 'HS256', typ: 'JWT' }, payload)
  const [vh, vp, vs] = valid.split('.') as [string, string, string]
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString()
  const rsInput = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64(payload)}`
  const refresh = hs({ alg: 'HS256' }, { ...payload, token_use: 'refresh' })

  const cases: Record<string, string> = {
    'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${vp}.`,
    'alg None': `${b64({ alg: 'None' })}.${vp}.`,
    'alg NONE': `${b64({ alg: 'NONE' })}.${vp}.`,
    'RS256 token': `${rsInput}.${sign('sha256', Buffer.from(rsInput), privateKey).toString('base64url')}`,
    'HS256 keyed with the RSA public key': hs({ alg: 'HS256' }, payload, pem),
    'stripped signature': `${vh}.${vp}.`,
    'flipped signature': `${vh}.${vp}.${vs.slice(0, 10)}${vs[10] === 'A' ? 'B' : 'A'}${vs.slice(11)}`,
    'wrong secret': hs({ alg: 'HS256' }, payload, 'not-the-secret'),
    'jwk header': hs({ alg: 'HS256', jwk: { kty: 'oct', k: 'YXR0YWNrZXI' } }, payload, 'attacker'),
    'jku header': hs({ alg: 'HS256', jku: trapUrl }, payload),
    'x5u header': hs({ alg: 'HS256', x5u: trapUrl }, payload),
    'kid path traversal': hs({ alg: 'HS256', kid: '../../etc/passwd' }, payload),
    'kid SQL': hs({ alg: 'HS256', kid: "x' UNION SELECT 'secret" }, payload),
    'kid very long': hs({ alg: 'HS256', kid: 'k'.repeat(4000) }, payload),
    'kid of another secret': hs({ alg: 'HS256', kid: kidOf('other') }, payload),
    expired: hs({ alg: 'HS256' }, { ...payload, iat: now - 1000, exp: now - 100 }),
    'nbf in the future': hs({ alg: 'HS256' }, { ...payload, nbf: now + 600 }),
    'missing exp': hs({ alg: 'HS256' }, { ...payload, exp: undefined }),
    'missing iat': hs({ alg: 'HS256' }, { ...payload, iat: undefined }),
    'refresh token as access': refresh,
    'oversized token': hs({ alg: 'HS256' }, { ...payload, pad: 'x'.repeat(10_000) }),
    garbage: 'not-a-jwt',
    empty: '',
  }
  t.equal(
    (await h.app.inject({ method: 'GET', url: '/api/tickets', headers: bearer(valid) })).statusCode,
    200,
    'control: the untampered token passes',
  )
  for (const [name, token] of Object.entries(cases)) {
    const res = await h.app.inject({
      method: 'GET',
      url: '/api/tickets',
      headers: { authorization: `Bearer ${token}` },
    })
    t.equal(res.statusCode, 401, `${name}: ${res.body.slice(0, 120)}`)
    t.match(res.json(), { error: 'unauthorized', code: String, request_id: String }, `${name}: error body`)
  }
  for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', `Token ${valid}`, `Bearer ${valid} extra`]) {
    const res = await h.app.inject({ method: 'GET', url: '/api/tickets', headers: { authorization: header } })
    t.equal(res.statusCode, 401, `Authorization: ${header.slice(0, 20)}`)
  }
  const q = await h.app.inject({ method: 'GET', url: `/api/tickets?access_token=${await accessToken(claims)}` })
  t.equal(q.statusCode, 401, 'token in query string')
  await new Promise((r) => setTimeout(r, 50))
  t.equal(hits, 0, 'no outbound fetch for jku/x5u')
})

t.test('an oversized Authorization header over real HTTP: 431 or 401, no crash', async (t) => {
  const h = await harness(t)
  const url = await h.app.listen({ port: 0, host: '127.0.0.1' })
  for (const size of [9_000, 20_000, 100_000]) {
    const res = await fetch(`${url}/api/tickets`, { headers: { authorization: `Bearer ${'a'.repeat(size)}` } }).catch(
      (err: unknown) => err as Error,
    )
    if (res instanceof Error) t.fail(`${size}: ${res.message}`)
    else t.ok([401, 431].includes(res.status), `${size} bytes → ${res.status}`)
  }
  t.equal((await fetch(`${url}/health`)).status, 200, 'still serving')
})
