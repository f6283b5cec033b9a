import { IdentityEvents } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import t from 'tap'
import { accessToken, bearer, type Harness, harness, metricValue, redisCache, seedUser } from './fixtures/gateway.ts'

const nowS = () => Math.floor(Date.now() / 1000)

async function status(h: Harness, token: string, url = '/api/tickets') {
  const res = await h.app.inject({ method: 'GET', url, headers: bearer(token) })
  return { status: res.statusCode, code: res.statusCode === 200 ? 'OK' : res.json().code, body: res.json() }
}

function publish(h: Harness, type: string, data: unknown) {
  return h.bus.publish(type.startsWith('identity.') ? type : `identity.${type}`, {
    ...newEnvelope({ type, tenant_id: '', workspace_id: '', actor: { user_id: 'system', kind: 'service' }, data }),
  })
}

/** Events reach subscribers asynchronously; wait until the gateway answers as expected (≤ 1 s). */
async function eventually(fn: () => Promise<unknown>, expected: unknown) {
  let last: unknown
  for (let i = 0; i < 50; i++) {
    last = await fn()
    if (last === expected) return last
    await new Promise((r) => setTimeout(r, 20))
  }
  return last
}

for (const kind of ['memory', 'redis'] as const) {
  t.test(`token acceptance (${kind} cache)`, async (t) => {
    const cache = kind === 'redis' ? redisCache() : undefined
    const h = await harness(t, cache ? { cache } : {})
    if (cache) t.teardown(() => cache.close())

    t.test('accepted token; steady state makes no identity call', async (t) => {
      const claims = seedUser(h)
      const token = await accessToken(claims)
      t.equal((await status(h, token)).status, 200)
      const before = h.upstream.identity.calls.state
      for (let i = 0; i < 20; i++) t.equal((await status(h, token)).status, 200)
      t.equal(h.upstream.identity.calls.state, before, 'no fetch per request')
      t.ok((await metricValue(h.app, 'gateway_token_state_fetch_total', { kind: 'state' })) >= 1)
    })

    t.test('user missing or inactive', async (t) => {
      const ghost = seedUser(h)
      h.upstream.identity.users.delete(ghost.user_id)
      t.same((await status(h, await accessToken(ghost))).code, 'TOKEN_REVOKED')
      const off = seedUser(h, { user: { active: false } })
      t.equal((await status(h, await accessToken(off))).status, 401)
    })

    t.test('iat before token_valid_after', async (t) => {
      const claims = seedUser(h, { user: { token_valid_after: new Date(Date.now() - 5_000).toISOString() } })
      t.equal((await status(h, await accessToken(claims, 600, nowS() - 60))).status, 401)
      t.equal((await status(h, await accessToken(claims))).status, 200, 'issued after: accepted')
    })

    t.test('user token_version: older refused, newer refetched once', async (t) => {
      const claims = seedUser(h, { user: { token_version: 3 } })
      t.equal((await status(h, await accessToken({ ...claims, token_version: 2 }))).status, 401)
      const token = await accessToken({ ...claims, token_version: 3 })
      t.equal((await status(h, token)).status, 200)
      // identity raises the version (e.g. a new login after revoke) without us hearing the event
      h.upstream.identity.users.set(claims.user_id, {
        ...h.upstream.identity.users.get(claims.user_id)!,
        token_version: 4,
        seq: 2,
      })
      const before = h.upstream.identity.calls.state
      t.equal(
        (await status(h, await accessToken({ ...claims, token_version: 4 }))).status,
        200,
        'newer claim → refetch',
      )
      t.equal(h.upstream.identity.calls.state, before + 1, 'exactly one refetch')
      t.equal((await status(h, token)).status, 401, 'the older token is now refused')
      const future = await accessToken({ ...claims, token_version: 9 })
      t.equal((await status(h, future)).status, 401, 'newer than identity knows: refused')
    })

    t.test('auth session rules', async (t) => {
      const gone = seedUser(h)
      h.upstream.identity.sessions.delete(gone.session_id)
      t.equal((await status(h, await accessToken(gone))).status, 401, 'session missing')
      const revoked = seedUser(h, { session: { active: false } })
      t.equal((await status(h, await accessToken(revoked))).status, 401, 'session not active')
      const other = seedUser(h)
      const stolen = { ...seedUser(h), session_id: other.session_id }
      t.equal((await status(h, await accessToken(stolen))).status, 401, "another user's session")
      const v = seedUser(h, { session: { token_version: 2 } })
      t.equal(
        (await status(h, await accessToken({ ...v, session_token_version: 1 }))).status,
        401,
        'older session version',
      )
      t.equal((await status(h, await accessToken({ ...v, session_token_version: 2 }))).status, 200)
      h.upstream.identity.sessions.set(v.session_id, {
        ...h.upstream.identity.sessions.get(v.session_id)!,
        token_version: 3,
      })
      t.equal(
        (await status(h, await accessToken({ ...v, session_token_version: 3 }))).status,
        200,
        'refresh seen by refetch',
      )
      const none = await accessToken({ ...seedUser(h), session_id: '' })
      t.equal((await status(h, none)).status, 401, 'a user token without a session')
    })

    t.test('events: revoke user, revoke session, deny jti', async (t) => {
      const claims = seedUser(h)
      const token = await accessToken(claims)
      t.equal((await status(h, token)).status, 200)
      const calls = h.upstream.identity.calls.state
      await publish(h, IdentityEvents.userTokenState.type, {
        user: {
          user_id: claims.user_id,
          active: true,
          token_version: 2,
          token_valid_after: new Date().toISOString(),
          seq: 5,
        },
        reason: 'revoke',
      })
      t.equal(await eventually(async () => (await status(h, token)).status, 401), 401, 'user revoke applied')
      await publish(h, IdentityEvents.userTokenState.type, {
        user: { user_id: claims.user_id, active: true, token_version: 1, token_valid_after: null, seq: 4 },
        reason: 'late, older event',
      })
      await new Promise((r) => setTimeout(r, 50))
      t.equal((await status(h, token)).status, 401, 'an older seq does not roll back')

      const s = seedUser(h)
      const st = await accessToken(s)
      t.equal((await status(h, st)).status, 200)
      await publish(h, IdentityEvents.sessionTokenState.type, {
        session: { session_id: s.session_id, user_id: s.user_id, active: false, token_version: 1 },
        reason: 'logout',
      })
      t.equal(await eventually(async () => (await status(h, st)).status, 401), 401, 'session revoke applied')

      const d = seedUser(h)
      const dt = await accessToken({ ...d, jti: `deny-me-${d.user_id}` })
      t.equal((await status(h, dt)).status, 200)
      await publish(h, IdentityEvents.tokenDenied.type, {
        jti: `deny-me-${d.user_id}`,
        user_id: d.user_id,
        session_id: d.session_id,
        token_use: 'access',
        expires_at: new Date(Date.now() + 600_000).toISOString(),
      })
      t.equal(await eventually(async () => (await status(h, dt)).status, 401), 401, 'denylisted jti refused')
      t.equal(h.upstream.identity.calls.state - calls, 2, 'only the two new users were fetched')
    })

    t.test('token in the query string is never accepted', async (t) => {
      const token = await accessToken(seedUser(h))
      const q = await h.app.inject({ method: 'GET', url: `/api/tickets?access_token=${token}` })
      t.equal(q.statusCode, 401)
      t.equal(q.json().code, 'TOKEN_IN_QUERY')
      const both = await h.app.inject({
        method: 'GET',
        url: `/api/tickets?access_token=${token}`,
        headers: bearer(token),
      })
      t.equal(both.statusCode, 401, 'even alongside a valid header')
    })

    t.test('service principal without identity user or session', async (t) => {
      const token = await accessToken({
        user_id: 'svc-cli',
        roles: [],
        token_version: 0,
        session_id: '',
        session_token_version: 0,
        tenant_id: '',
        workspace_id: '',
        principal_kind: 'service',
        permissions: ['statistics.write'],
      })
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/v1/metrics/ingest',
        headers: bearer(token),
        payload: {},
      })
      t.equal(res.statusCode, 200, res.body)
      t.equal(res.json().principal.kind, 'service')
    })
  })
}

t.test('denylist loaded at start from identity; identity down → 503, never 500', async (t) => {
  const h = await harness(t)
  t.equal(h.upstream.identity.calls.denied, 1)
  const claims = seedUser(h)
  const h2 = await harness(t, { upstream: h.upstream, env: { UPSTREAM_IDENTITY: 'http://127.0.0.1:1' } })
  const res = await h2.app.inject({ method: 'GET', url: '/api/tickets', headers: bearer(await accessToken(claims)) })
  t.equal(res.statusCode, 503)
  t.equal(res.json().code, 'TOKEN_STATE_UNAVAILABLE')
})

t.test('tokens of a disabled tenant or workspace are refused, from the start and on the event', async (t) => {
  const h = await harness(t)
  const inAcme = await accessToken(seedUser(h, { claims: { tenant_id: 'acme', workspace_id: 'support' } }))
  const inAcmeSales = await accessToken(seedUser(h, { claims: { tenant_id: 'acme', workspace_id: 'sales' } }))
  const elsewhere = await accessToken(seedUser(h, { claims: { tenant_id: 'globex', workspace_id: 'main' } }))
  t.equal((await status(h, inAcme)).status, 200)

  await publish(h, IdentityEvents.scopeStatus.type, { tenant_id: 'acme', workspace_id: 'sales', active: false })
  t.equal(await eventually(async () => (await status(h, inAcmeSales)).status, 401), 401, 'workspace disabled')
  t.equal((await status(h, inAcmeSales)).code, 'TOKEN_REVOKED')
  t.equal((await status(h, inAcme)).status, 200, "the tenant's other workspaces are unaffected")

  await publish(h, IdentityEvents.scopeStatus.type, { tenant_id: 'acme', workspace_id: '', active: false })
  t.equal(await eventually(async () => (await status(h, inAcme)).status, 401), 401, 'tenant disabled')
  t.equal((await status(h, elsewhere)).status, 200, 'other tenants unaffected')

  await publish(h, IdentityEvents.scopeStatus.type, { tenant_id: 'acme', workspace_id: '', active: true })
  t.equal(await eventually(async () => (await status(h, inAcme)).status, 200), 200, 'enabled again')

  // a replica that starts later learns the disabled scopes from identity before accepting a token
  h.upstream.identity.disabledScopes = [{ tenant_id: 'globex', workspace_id: '', active: false }]
  const late = await harness(t, { upstream: h.upstream })
  t.equal((await status(late, elsewhere)).status, 401)
  t.ok(h.upstream.identity.calls.scopes >= 2)
})
