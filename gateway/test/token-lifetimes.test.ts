import { createHmac } from 'node:crypto'
import t from 'tap'
import { accessToken, type Harness, harness, JWT_SECRET, seedUser } from './fixtures/gateway.ts'

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
const hs = (header: object, payload: object) => {
  const input = `${b64(header)}.${b64(payload)}`
  return `${input}.${createHmac('sha256', JWT_SECRET).update(input).digest('base64url')}`
}
const nowS = () => Math.floor(Date.now() / 1000)
/** What `switchboard token mint --service ops --permission '*'` signs. */
const service = {
  user_id: 'service:ops',
  roles: ['service'],
  principal_kind: 'service' as const,
  permissions: ['*'],
  token_version: 0,
  session_id: '',
  session_token_version: 0,
  tenant_id: '',
  workspace_id: '',
}

async function get(h: Harness, authorization: string) {
  const res = await h.app.inject({ method: 'GET', url: '/api/tickets', headers: { authorization } })
  return { status: res.statusCode, code: res.statusCode === 200 ? undefined : (res.json().code as string) }
}

t.test('typ: JWT or none; another type of token is refused (RFC 8725 §3.11)', async (t) => {
  const h = await harness(t)
  const claims = seedUser(h)
  const now = nowS()
  const payload = { ...claims, sub: claims.user_id, iat: now, exp: now + 600, token_use: 'access' }
  for (const typ of ['JWT', 'jwt', 'application/jwt', undefined]) {
    const header = typ === undefined ? { alg: 'HS256' } : { alg: 'HS256', typ }
    t.same(
      await get(h, `Bearer ${hs(header, { ...payload, jti: `typ-${typ}` })}`),
      { status: 200, code: undefined },
      `${typ}`,
    )
  }
  for (const typ of ['at+jwt', 'JWS', 'dpop+jwt']) {
    const token = hs({ alg: 'HS256', typ }, { ...payload, jti: `typ-${typ}` })
    t.same(await get(h, `Bearer ${token}`), { status: 401, code: 'TOKEN_INVALID' }, typ)
  }
})

t.test('lifetime: a user token beyond JWT_ACCESS_TTL_SECONDS, a service token beyond its maximum', async (t) => {
  const h = await harness(t, { env: { JWT_ACCESS_TTL_SECONDS: '7200', JWT_SERVICE_TTL_MAX_SECONDS: '86400' } })
  const claims = seedUser(h)
  t.same(await get(h, `Bearer ${await accessToken(claims, 7200)}`), { status: 200, code: undefined }, 'two hours')
  const longer = await get(h, `Bearer ${await accessToken(claims, 7206)}`)
  t.same(longer, { status: 401, code: 'TOKEN_LIFETIME_EXCEEDED' }, 'two hours and six seconds')
  const decade = await get(h, `Bearer ${await accessToken(claims, 10 * 365 * 86_400)}`)
  t.same(decade, { status: 401, code: 'TOKEN_LIFETIME_EXCEEDED' }, 'ten years')
  const day = await get(h, `Bearer ${await accessToken(service, 86_400)}`)
  t.equal(day.status, 200, 'a service token may live its maximum, longer than a user token')
  const more = await get(h, `Bearer ${await accessToken(service, 86_400 + 60)}`)
  t.same(more, { status: 401, code: 'TOKEN_LIFETIME_EXCEEDED' }, 'not beyond it')
  const now = nowS()
  const future = hs(
    { alg: 'HS256', typ: 'JWT' },
    { ...claims, sub: claims.user_id, jti: 'future', iat: now + 600, exp: now + 1200, token_use: 'access' },
  )
  t.same(await get(h, `Bearer ${future}`), { status: 401, code: 'TOKEN_NOT_YET_VALID' }, 'iat in the future')
})

t.test('the default limits: an hour for users, thirty days for services', async (t) => {
  const h = await harness(t)
  const claims = seedUser(h)
  t.equal((await get(h, `Bearer ${await accessToken(claims, 3600)}`)).status, 200)
  t.same(await get(h, `Bearer ${await accessToken(claims, 3700)}`), { status: 401, code: 'TOKEN_LIFETIME_EXCEEDED' })
  t.equal((await get(h, `Bearer ${await accessToken(service, 30 * 86_400)}`)).status, 200, 'a month')
  const later = await get(h, `Bearer ${await accessToken(service, 31 * 86_400)}`)
  t.same(later, { status: 401, code: 'TOKEN_LIFETIME_EXCEEDED' }, 'a day more')
})

t.test('the scheme name is case-insensitive (RFC 7235 §2.1)', async (t) => {
  const h = await harness(t)
  const token = await accessToken(seedUser(h))
  for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
    t.equal((await get(h, `${scheme} ${token}`)).status, 200, scheme)
  }
})
