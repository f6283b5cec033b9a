import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import {
  as,
  claimsOf,
  identityApp,
  loginUser,
  PASSWORD,
  principalHeaders,
  registerUser,
  tokenState,
} from '../helpers/app.ts'
import { createMember, who } from '../helpers/directory.ts'

const BROWSER = { 'x-switchboard-client': 'browser' }

type Reply = { statusCode: number; headers: Record<string, unknown>; json(): any; body: string }

/** The Set-Cookie headers of an answer, as one array. */
const setCookies = (res: Reply): string[] => {
  const v = res.headers['set-cookie']
  return v === undefined ? [] : Array.isArray(v) ? v : [String(v)]
}

/** The refresh cookie's value an answer set ('' when it cleared it). */
const cookieValue = (res: Reply) => /^switchboard_refresh=([^;]*)/.exec(setCookies(res)[0] ?? '')?.[1]

inEachStorageMode(t, 'browser sessions: the refresh token in an HttpOnly cookie', async (t, mode) => {
  const { app } = await identityApp(t, mode)
  const call = (url: string, headers: Record<string, string> = {}, payload?: object) =>
    app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) }) as Promise<Reply>
  const withCookie = (value: string, extra: Record<string, string> = BROWSER) => ({
    ...extra,
    cookie: `theme=dark; switchboard_refresh=${value}`,
  })
  await registerUser(app, 'root')
  await registerUser(app, 'alice')

  await t.test('login in cookie mode: the access token in JSON, the refresh token only in the cookie', async (t) => {
    const res = (await loginUser(app, 'alice', BROWSER)).res as unknown as Reply
    t.equal(res.statusCode, 200, res.body)
    const body = res.json()
    t.notOk('refresh_token' in body, 'no refresh token a script could read')
    t.match(body, { token: String, expires_in: 3600, refresh_expires_in: 604800, token_type: 'Bearer' })
    t.equal(res.headers['cache-control'], 'no-store')
    const [cookie] = setCookies(res)
    t.match(cookie, /^switchboard_refresh=[\w-]+\.[\w-]+\.[\w-]+; /)
    t.match(cookie, /; Path=\/api\/v1\/auth(;|$)/)
    t.match(cookie, /; Max-Age=604800(;|$)/)
    t.match(cookie, /; HttpOnly(;|$)/)
    t.match(cookie, /; SameSite=Strict(;|$)/)
    t.notMatch(cookie, /Secure/, 'plain http: not Secure (the browser would drop it)')
    const refresh = claimsOf(cookieValue(res) ?? '')
    t.equal(refresh.token_use, 'refresh')
    t.equal(refresh.session_id, claimsOf(body.token).session_id)

    const https = (await loginUser(app, 'alice', { ...BROWSER, 'x-forwarded-proto': 'https' })).res as unknown as Reply
    t.match(setCookies(https)[0], /; Secure$/, 'https behind the (trusted) gateway: Secure')
    const json = await loginUser(app, 'alice')
    t.type(json.body.refresh_token, 'string', 'JSON clients keep the refresh token in the body')
    t.equal(json.res.headers['set-cookie'], undefined, 'and get no cookie')
  })

  await t.test('refresh through the cookie rotates it; the old cookie is re-use', async (t) => {
    const first = cookieValue((await loginUser(app, 'alice', BROWSER)).res as unknown as Reply) ?? ''
    const res = await call('/api/v1/auth/refresh', withCookie(first))
    t.equal(res.statusCode, 200, res.body)
    t.notOk('refresh_token' in res.json())
    const second = cookieValue(res) ?? ''
    t.not(second, first, 'a new cookie')
    t.equal(claimsOf(second).session_id, claimsOf(first).session_id, 'same auth session')
    t.match(setCookies(res)[0], /HttpOnly; SameSite=Strict/)
    const replay = await call('/api/v1/auth/refresh', withCookie(first))
    t.equal(replay.statusCode, 401)
    t.equal(replay.json().code, 'IDENTITY_REFRESH_TOKEN_REUSED')
    t.equal(replay.headers['set-cookie'], undefined, "a refused refresh leaves the jar alone (another tab's win)")
    t.equal((await call('/api/v1/auth/refresh', withCookie(second))).statusCode, 200, 'the current one works')
  })

  await t.test('CSRF: the cookie is used only with X-Switchboard-Client: browser', async (t) => {
    const cookie = cookieValue((await loginUser(app, 'alice', BROWSER)).res as unknown as Reply) ?? ''
    for (const url of ['/api/v1/auth/refresh', '/api/v1/auth/logout']) {
      const forged = await call(url, withCookie(cookie, {}))
      t.equal(forged.statusCode, 403, `${url} with the cookie and no header`)
      t.equal(forged.json().code, 'IDENTITY_BROWSER_HEADER_REQUIRED')
      const other = await call(url, withCookie(cookie, { 'x-switchboard-client': 'mobile' }))
      t.equal(other.json().code, 'IDENTITY_BROWSER_HEADER_REQUIRED', 'another value is no browser')
      const none = await call(url, BROWSER)
      t.equal(none.statusCode, 401, `${url}: browser without the cookie`)
      t.equal(none.json().code, 'IDENTITY_INVALID_REFRESH_TOKEN')
      const bare = await call(url)
      t.equal(bare.statusCode, 400, `${url}: no token at all`)
      t.equal(bare.json().code, 'IDENTITY_INVALID_INPUT')
    }
    t.equal((await call('/api/v1/auth/refresh', withCookie(cookie))).statusCode, 200, 'the session was untouched')
  })

  await t.test('logout revokes the auth session and clears the cookie', async (t) => {
    const login = (await loginUser(app, 'alice', BROWSER)).res as unknown as Reply
    const cookie = cookieValue(login) ?? ''
    const sid = claimsOf(login.json().token).session_id
    const out = await call('/api/v1/auth/logout', withCookie(cookie))
    t.equal(out.statusCode, 200, out.body)
    t.match(out.json(), { session_id: sid, status: 'revoked', token_version: 2 })
    t.equal(setCookies(out)[0], 'switchboard_refresh=; Path=/api/v1/auth; Max-Age=0; HttpOnly; SameSite=Strict')
    t.match((await tokenState(app, { session_id: sid })).session, { active: false }, 'the gateway hears of it')
    const after = await call('/api/v1/auth/refresh', withCookie(cookie))
    t.equal(after.statusCode, 401)
    t.equal(after.json().code, 'IDENTITY_SESSION_REVOKED', 'a clear code: logged out')
    const again = await call('/api/v1/auth/logout', withCookie(cookie))
    t.equal(again.statusCode, 200, 'a second logout (another tab) is no error')
    t.match(setCookies(again)[0], /Max-Age=0/)
    const garbage = await call('/api/v1/auth/logout', withCookie('not.a.token'))
    t.equal(garbage.statusCode, 401)
    t.match(setCookies(garbage)[0], /^switchboard_refresh=; .*Max-Age=0/, 'a dead cookie is cleared too')
  })

  await t.test('JSON clients: logout with the refresh token in the body', async (t) => {
    const { body } = await loginUser(app, 'alice')
    const out = await call('/api/v1/auth/logout', {}, { refresh_token: body.refresh_token })
    t.equal(out.statusCode, 200, out.body)
    t.equal(out.headers['set-cookie'], undefined)
    const refresh = await call('/api/v1/auth/refresh', {}, { refresh_token: body.refresh_token })
    t.equal(refresh.json().code, 'IDENTITY_SESSION_REVOKED')
  })

  await t.test('a session revoked elsewhere refreshes to IDENTITY_SESSION_REVOKED', async (t) => {
    const { body } = await loginUser(app, 'alice')
    const headers = await as({
      ...who({ kind: 'end_user' }),
      user_id: body.user.id,
      session_id: claimsOf(body.token).session_id,
    })
    const out = await app.inject({ method: 'POST', url: '/api/v1/auth/sessions/logout-current', headers })
    t.equal(out.statusCode, 200, out.body)
    const refresh = await call('/api/v1/auth/refresh', {}, { refresh_token: body.refresh_token })
    t.equal(refresh.statusCode, 401)
    t.match(refresh.json(), { code: 'IDENTITY_SESSION_REVOKED', message: /revoked/ })
  })
})

inEachStorageMode(t, 'login scope chooser: the bindings after the password matched', async (t, mode) => {
  const { app } = await identityApp(t, mode)
  const platform = await as(who({ kind: 'service' }))
  const inScope = async (workspace_id: string) =>
    as(who({ kind: 'service', tenant_id: 'acme', workspace_id, token_tenant_id: '', token_workspace_id: '' }))
  await registerUser(app, 'root')
  const tenant = await app.inject({
    method: 'POST',
    url: '/api/security/tenants',
    headers: platform,
    payload: { id: 'acme', name: 'Acme Inc', workspaces: [{ id: 'support', name: 'Support' }, { id: 'sales' }] },
  })
  t.equal(tenant.statusCode, 201, tenant.body)
  const carol = await createMember(app, await inScope('support'), 'Carol', 'acme.test')
  const agent = await app.inject({
    method: 'POST',
    url: '/api/agents',
    headers: await inScope('sales'),
    payload: { user_id: carol.user_id },
  })
  t.equal(agent.statusCode, 201, agent.body)

  const several = await loginUser(app, 'carol', BROWSER)
  t.equal(several.res.statusCode, 400)
  const body = several.res.json()
  t.match(body, { error: 'bad_request', code: 'IDENTITY_SCOPE_REQUIRED', message: String, request_id: String })
  t.same(body.scopes, [
    { tenant_id: 'acme', workspace_id: 'sales', tenant_name: 'Acme Inc', workspace_name: 'sales', kind: 'agent' },
    {
      tenant_id: 'acme',
      workspace_id: 'support',
      tenant_name: 'Acme Inc',
      workspace_name: 'Support',
      kind: 'customer',
    },
  ])
  t.equal(several.res.headers['set-cookie'], undefined, 'no session yet')

  const wrong = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { username: 'carol', password: `${PASSWORD}!` },
  })
  t.equal(wrong.statusCode, 401)
  t.notOk('scopes' in wrong.json(), 'a wrong password learns nothing of the bindings')

  const chosen = await loginUser(app, 'carol', BROWSER, { tenant_id: 'acme', workspace_id: 'sales' })
  t.equal(chosen.res.statusCode, 200, chosen.res.body)
  t.match(claimsOf(chosen.body.token), { tenant_id: 'acme', workspace_id: 'sales' })
  t.match(chosen.res.headers['set-cookie'], /^switchboard_refresh=/)

  const listed = await app.inject({
    method: 'GET',
    url: '/api/v1/auth/scopes',
    headers: await principalHeaders(chosen.body.token),
  })
  t.equal(listed.statusCode, 200, listed.body)
  t.same(
    listed.json(),
    { count: 2, current: { tenant_id: 'acme', workspace_id: 'sales' }, items: body.scopes },
    'a logged-in console lists the same scopes for its switcher',
  )
  await app.inject({ method: 'POST', url: '/api/security/tenants/acme/workspaces/support/disable', headers: platform })
  const fewer = await app.inject({
    method: 'GET',
    url: '/api/v1/auth/scopes',
    headers: await principalHeaders(chosen.body.token),
  })
  t.same(
    fewer.json().items.map((s: { workspace_id: string }) => s.workspace_id),
    ['sales'],
    'a disabled scope is not offered',
  )
})
