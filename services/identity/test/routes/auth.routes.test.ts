import type { Delivery } from '@switchboard/events'
import { systemCaller } from '@switchboard/platform'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { setUserStatus } from '../../src/commands/revocation.ts'
import {
  as,
  claimsOf,
  identityApp,
  loginUser,
  principal,
  principalHeaders,
  registerUser,
  tokenState,
} from '../helpers/app.ts'

inEachStorageMode(t, 'auth self-service', async (t, mode) => {
  const { app, svc } = await identityApp(t, mode)
  const events: Delivery[] = []
  await svc.bus.subscribe('identity.>', async (d) => {
    events.push(d)
  })
  const eventsOf = (type: string) => events.filter((e) => e.envelope.type === type)

  // Register: the first user of an empty system is admin, everyone after a customer.
  const first = await registerUser(app, 'root')
  t.equal(first.res.statusCode, 201)
  t.equal(first.body.user.role, 'admin')
  t.same(Object.keys(first.body).sort(), [
    'expires_in',
    'refresh_expires_in',
    'refresh_token',
    'token',
    'token_type',
    'user',
  ])
  t.same(Object.keys(first.body.user).sort(), ['email', 'id', 'name', 'role', 'status', 'username'])
  t.match(first.body, { expires_in: 3600, refresh_expires_in: 604800, token_type: 'Bearer' })
  const rootClaims = claimsOf(first.body.token)
  t.match(rootClaims, { sub: first.body.user.id, user_id: first.body.user.id, token_use: 'access', roles: ['admin'] })
  t.same(rootClaims.permissions, ['*'])
  t.equal(claimsOf(first.body.refresh_token).token_use, 'refresh')
  t.not(rootClaims.jti, claimsOf(first.body.refresh_token).jti)

  // Self-registration goes only into a registered, active tenant and workspace (services/identity/README.md).
  const registry = await app.inject({
    method: 'POST',
    url: '/api/security/tenants',
    headers: await as(principal()),
    payload: { id: 'acme', workspaces: [{ id: 'support' }] },
  })
  t.equal(registry.statusCode, 201, registry.body)
  const scoped = await registerUser(
    app,
    'carol',
    { name: 'Carol' },
    { 'x-tenant-id': 'acme', 'x-workspace-id': 'support' },
  )
  t.equal(scoped.res.statusCode, 201)
  t.equal(scoped.body.user.role, 'customer')
  t.match(claimsOf(scoped.body.token), { tenant_id: 'acme', workspace_id: 'support', roles: ['customer'] })
  const customer = await svc.db
    .selectFrom('customers')
    .selectAll()
    .where('user_id', '=', scoped.body.user.id)
    .executeTakeFirst()
  t.match(customer, { tenant_id: 'acme', workspace_id: 'support', name: 'Carol' })

  const alice = await registerUser(app, 'alice')
  t.equal(alice.body.user.role, 'customer')
  t.notOk(claimsOf(alice.body.token).tenant_id, 'no scope, no customer record: unscoped token')

  // Duplicates and bad input.
  const dupName = await registerUser(app, 'alice', { email: 'other@example.com' })
  t.equal(dupName.res.statusCode, 409)
  t.match(dupName.res.json(), { code: 'IDENTITY_DUPLICATE_USER', message: /username/ })
  const dupMail = await registerUser(app, 'alice2', { email: 'ALICE@example.com' })
  t.equal(dupMail.res.statusCode, 409)
  t.match(dupMail.res.json(), { message: /email/ })
  const bad = await registerUser(app, 'bob', { email: 'not-an-email' })
  t.equal(bad.res.statusCode, 400)
  t.match(bad.res.json(), { code: 'VALIDATION_FAILED', message: /email/ })
  const short = await registerUser(app, 'bob', { password: 'short' })
  t.equal(short.res.statusCode, 400)
  t.match(short.res.json(), { message: /password/ })
  const conflict = await registerUser(app, 'bob', { tenant_id: 'acme' }, { 'x-tenant-id': 'other' })
  t.equal(conflict.res.statusCode, 400)
  t.match(conflict.res.json(), { code: 'IDENTITY_SCOPE_SELECTOR_CONFLICT' })

  // Login: good, wrong password and unknown user answer alike, inactive user 403.
  const good = await loginUser(app, 'alice')
  t.equal(good.res.statusCode, 200)
  t.equal(good.body.user.username, 'alice')
  const byEmail = await loginUser(app, 'alice@example.com')
  t.equal(byEmail.res.statusCode, 200)
  const wrong = await loginUser(app, 'alice', {}, { password: 'nope nope nope' })
  const unknown = await loginUser(app, 'nobody')
  t.equal(wrong.res.statusCode, 401)
  t.equal(unknown.res.statusCode, 401)
  const strip = (b: Record<string, unknown>) => ({ ...b, request_id: '' })
  t.same(strip(wrong.res.json()), strip(unknown.res.json()), 'same body whether the user exists or not')

  // Two logins from two devices: two sessions with their own fingerprints.
  const phone = await loginUser(app, 'alice', { 'x-device-id': '  phone-1  ', 'user-agent': 'ua-phone' })
  const laptop = await loginUser(app, 'alice', {
    'x-device-id': 'laptop-1',
    'x-forwarded-for': '203.0.113.9',
    'user-agent': 'ua-laptop',
  })
  const phoneSid = claimsOf(phone.body.token).session_id
  const laptopSid = claimsOf(laptop.body.token).session_id
  t.not(phoneSid, laptopSid)
  const goodSid = claimsOf(good.body.token).session_id
  const rows = await svc.db
    .selectFrom('auth_sessions')
    .selectAll()
    .where('id', 'in', [phoneSid, laptopSid, goodSid])
    .execute()
  const byId: Record<string, any> = Object.fromEntries(rows.map((r) => [r.id, r]))
  t.equal(byId[phoneSid].device_fingerprint, 'phone-1', 'X-Device-ID trimmed')
  t.equal(byId[laptopSid].device_fingerprint, 'laptop-1')
  t.equal(byId[laptopSid].client_ip, '203.0.113.9', 'X-Forwarded-For believed from the loopback gateway')
  t.equal(byId[laptopSid].user_agent, 'ua-laptop')
  t.match(byId[goodSid].device_fingerprint, /^[0-9a-f]{32}$/, 'no X-Device-ID: hash of user agent and address')

  // Token state for the gateway reflects the new session.
  let state = await tokenState(app, { user_id: alice.body.user.id, session_id: laptopSid })
  t.match(state, {
    user: { user_id: alice.body.user.id, active: true, token_version: 1 },
    session: { session_id: laptopSid, active: true, token_version: 1 },
  })

  // Refresh rotation: new pair, session version up, the old refresh token refused.
  const refreshed = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/refresh',
    payload: { refresh_token: laptop.body.refresh_token },
    headers: { 'x-device-id': 'laptop-1' },
  })
  t.equal(refreshed.statusCode, 200)
  const pair = refreshed.json()
  t.match(claimsOf(pair.token), { session_id: laptopSid, session_token_version: 2 })
  state = await tokenState(app, { session_id: laptopSid })
  t.match(state.session, { active: true, token_version: 2 })
  const replay = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/refresh',
    payload: { refresh_token: laptop.body.refresh_token },
  })
  t.equal(replay.statusCode, 401)
  t.match(replay.json(), { code: 'IDENTITY_REFRESH_TOKEN_REUSED' })
  t.match((await tokenState(app, { session_id: laptopSid })).session, { active: true }, 'setting off: session lives')
  const asAccess = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/refresh',
    payload: { refresh_token: pair.token },
  })
  t.equal(asAccess.statusCode, 401, 'an access token is not a refresh token')
  t.match(asAccess.json(), { code: 'IDENTITY_INVALID_REFRESH_TOKEN' })

  // Self-service: me, sessions list with exactly one current session.
  const laptopHeaders = await principalHeaders(pair.token)
  const me = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: laptopHeaders })
  t.equal(me.statusCode, 200)
  t.match(me.json(), { id: alice.body.user.id, username: 'alice', role: 'customer', session_id: laptopSid })
  const noPrincipal = await app.inject({ method: 'GET', url: '/api/v1/auth/me' })
  t.equal(noPrincipal.statusCode, 401)

  const list = await app.inject({ method: 'GET', url: '/api/v1/auth/sessions', headers: laptopHeaders })
  t.equal(list.statusCode, 200)
  const sessions = list.json()
  t.equal(sessions.count, 5, 'register + 4 logins')
  t.equal(sessions.items.length, 5)
  t.same(
    sessions.items
      .filter((s: { is_current: boolean }) => s.is_current)
      .map((s: { session_id: string }) => s.session_id),
    [laptopSid],
  )
  t.match(sessions.items[0], {
    session_id: String,
    status: 'active',
    token_version: Number,
    device_fingerprint: String,
    risk_score: Number,
    risk_level: String,
    network_label: String,
  })

  // logout-others keeps the current session only.
  const others = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/sessions/logout-others',
    headers: laptopHeaders,
  })
  t.equal(others.statusCode, 200)
  t.same(others.json(), { current_session_id: laptopSid, count: 4 })
  t.match((await tokenState(app, { session_id: phoneSid })).session, { active: false, token_version: 2 })
  const phoneRefresh = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/refresh',
    payload: { refresh_token: phone.body.refresh_token },
  })
  t.equal(phoneRefresh.statusCode, 401, 'a revoked session cannot refresh')

  // logout-current.
  const out = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/sessions/logout-current',
    headers: laptopHeaders,
  })
  t.equal(out.statusCode, 200)
  t.same(out.json(), { session_id: laptopSid, status: 'revoked', token_version: 3 })
  t.match((await tokenState(app, { session_id: laptopSid })).session, { active: false, token_version: 3 })
  const again = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/sessions/logout-current',
    headers: laptopHeaders,
  })
  t.equal(again.statusCode, 401)
  const afterLogout = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/refresh',
    payload: { refresh_token: pair.refresh_token },
  })
  t.equal(afterLogout.statusCode, 401)

  // Deactivation: login 403 (only after a correct password), refresh refused, token state inactive.
  const bobby = await registerUser(app, 'bobby')
  await svc.transaction(systemCaller(), (tx) => setUserStatus(tx, bobby.body.user.id, 'inactive', 'test'))
  const inactive = await loginUser(app, 'bobby')
  t.equal(inactive.res.statusCode, 403)
  t.match(inactive.res.json(), { code: 'IDENTITY_USER_INACTIVE' })
  t.equal((await loginUser(app, 'bobby', {}, { password: 'wrong wrong' })).res.statusCode, 401)
  const inactiveRefresh = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/refresh',
    payload: { refresh_token: bobby.body.refresh_token },
  })
  t.equal(inactiveRefresh.statusCode, 401)
  t.match((await tokenState(app, { user_id: bobby.body.user.id })).user, { active: false, seq: 2 })

  // Every change went out through the outbox to the bus.
  await waitFor(() => eventsOf('identity.user.token_state_changed').length >= 5)
  await waitFor(() => eventsOf('identity.session.token_state_changed').length >= 12)
  t.equal(eventsOf('identity.user.registered').length, 4)
  t.match(eventsOf('identity.user.registered')[0]?.envelope.data, { username: 'root', role: 'admin' })
  t.equal(eventsOf('identity.customer.upserted').length, 1)
  t.equal(eventsOf('identity.customer.upserted')[0]?.envelope.tenant_id, 'acme')
  const laptopEvents = eventsOf('identity.session.token_state_changed')
    .map(
      (e) =>
        e.envelope.data as {
          session: { session_id: string; active: boolean; token_version: number }
          reason: string
        },
    )
    .filter((d) => d.session.session_id === laptopSid)
  t.same(
    laptopEvents.map((d) => [d.reason, d.session.active, d.session.token_version]),
    [
      ['login', true, 1],
      ['refresh', true, 2],
      ['logout', false, 3],
    ],
  )
  t.ok(
    eventsOf('identity.user.token_state_changed').some(
      (e) => (e.envelope.data as { reason: string }).reason === 'test',
    ),
  )
})
