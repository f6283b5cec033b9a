// Browser sessions end to end through the gateway, in both run modes, over plain HTTP as a browser would speak it
// (docs/api.md §2 "Browser clients"): login in cookie mode, refresh through the HttpOnly cookie, logout; the old
// access token, the cookie and the hub socket all refused afterwards; the tenant/workspace chooser of a login.
import { randomBytes } from 'node:crypto'
import { mintServiceToken } from '@switchboard/cli'
import { wsConnect, wsOpened } from '@switchboard/testing'
import { client, type Reply, until } from './harness/http.ts'
import { inEachMode } from './harness/modes.ts'

const BROWSER = { 'x-switchboard-client': 'browser' }
/** The browser's Cookie header for a refresh cookie value. */
const jar = (value: string) => ({ cookie: `switchboard_refresh=${value}` })
const setCookie = (r: Reply) => r.headers.getSetCookie()[0] ?? ''
const cookieValue = (r: Reply) => /^switchboard_refresh=([^;]*)/.exec(setCookie(r))?.[1] ?? ''

// The test's loopback address is the "load balancer" here, so its X-Forwarded-Proto is believed (TRUST_PROXY).
inEachMode('browser auth', { env: { TRUST_PROXY: '127.0.0.1/32,::1/128' } }, async (t, system) => {
  const api = client(system.url)
  const agent = { username: system.agent.username, password: system.agent.password }

  t.test('cookie mode: login → refresh with the cookie → logout; the token, cookie and socket refused', async (t) => {
    const login = await api.post('/api/v1/auth/login', agent, { headers: BROWSER })
    t.equal(login.status, 200, login.text)
    t.notOk('refresh_token' in login.body, 'no refresh token in what a script reads')
    t.match(
      setCookie(login),
      /^switchboard_refresh=[\w-]+\.[\w-]+\.[\w-]+; Path=\/api\/v1\/auth; Max-Age=\d+; HttpOnly; SameSite=Strict$/,
      'HttpOnly, SameSite=Strict, scoped to the auth paths; not Secure over plain http',
    )
    t.match(setCookie(login), `Max-Age=${login.body.refresh_expires_in};`, 'Max-Age is the refresh lifetime')
    const https = await api.post('/api/v1/auth/login', agent, { headers: { ...BROWSER, 'x-forwarded-proto': 'https' } })
    t.match(setCookie(https), /; Secure$/, 'https at the trusted proxy in front: Secure')

    const forged = await api.post('/api/v1/auth/refresh', undefined, { headers: jar(cookieValue(login)) })
    t.equal(forged.status, 403, 'the cookie without the browser header (a cross-site form)')
    t.equal(forged.body.code, 'IDENTITY_BROWSER_HEADER_REQUIRED')

    const refreshed = await api.post('/api/v1/auth/refresh', undefined, {
      headers: { ...BROWSER, ...jar(cookieValue(login)) },
    })
    t.equal(refreshed.status, 200, refreshed.text)
    t.notOk('refresh_token' in refreshed.body)
    const cookie = cookieValue(refreshed)
    t.not(cookie, cookieValue(login), 'the cookie rotated')
    const reused = await api.post('/api/v1/auth/refresh', undefined, {
      headers: { ...BROWSER, ...jar(cookieValue(login)) },
    })
    t.equal(reused.body.code, 'IDENTITY_REFRESH_TOKEN_REUSED', 'the old cookie is re-use')
    const token = refreshed.body.token as string
    t.equal((await api.get('/api/v1/auth/me', { token })).status, 200)

    const socket = wsOpened(
      await wsConnect(system.url, '/api/v1/ws', { protocols: ['switchboard.v1', `bearer.${token}`], greeting: false }),
      t,
    )
    const out = await api.post('/api/v1/auth/logout', undefined, { headers: { ...BROWSER, ...jar(cookie) } })
    t.equal(out.status, 200, out.text)
    t.match(out.body, { status: 'revoked', session_id: String })
    t.match(setCookie(out), /^switchboard_refresh=; Path=\/api\/v1\/auth; Max-Age=0; HttpOnly; SameSite=Strict$/)
    t.match(await socket.closed, { code: 4401, reason: 'auth session revoked' }, 'the hub socket is closed: 4401')
    const me = await until('the access token refused', async () => {
      const r = await api.get('/api/v1/auth/me', { token })
      return r.status === 401 ? r : undefined
    })
    t.equal(me.body.code, 'TOKEN_REVOKED', 'the old access token is refused')
    const after = await api.post('/api/v1/auth/refresh', undefined, { headers: { ...BROWSER, ...jar(cookie) } })
    t.equal(after.status, 401)
    t.equal(after.body.code, 'IDENTITY_SESSION_REVOKED', 'and the cookie: logged out')
  })

  t.test('JSON clients keep the refresh token in the body', async (t) => {
    const login = await api.post('/api/v1/auth/login', agent)
    t.equal(login.status, 200)
    t.type(login.body.refresh_token, 'string')
    t.equal(login.headers.get('set-cookie'), null)
    const out = await api.post('/api/v1/auth/logout', { refresh_token: login.body.refresh_token })
    t.equal(out.status, 200, out.text)
    const again = await api.post('/api/v1/auth/refresh', { refresh_token: login.body.refresh_token })
    t.equal(again.body.code, 'IDENTITY_SESSION_REVOKED')
  })

  t.test('the scope chooser: several bindings → the list, then a login naming one', async (t) => {
    const suffix = randomBytes(3).toString('hex')
    const tenant = `brw${suffix}`
    const { token: service } = await mintServiceToken({ service: 'e2e', permissions: ['*'], env: system.env })
    const at = (workspace: string) => ({
      token: service,
      headers: { 'x-tenant-id': tenant, 'x-workspace-id': workspace },
    })
    const made = await api.post(
      '/api/security/tenants',
      {
        id: tenant,
        name: 'Browser Co',
        workspaces: [
          { id: 'support', name: 'Support' },
          { id: 'sales', name: 'Sales' },
        ],
      },
      { token: service },
    )
    t.equal(made.status, 201, made.text)
    const password = `Pw-${suffix}-0123456789`
    const user = await api.post(
      '/api/security/users',
      { username: `dana${suffix}`, email: `dana${suffix}@example.com`, role: 'agent', password },
      at('support'),
    )
    t.equal(user.status, 201, user.text)
    const second = await api.post('/api/agents', { user_id: user.body.user.id }, at('sales'))
    t.equal(second.status, 201, second.text)

    const creds = { username: `dana${suffix}`, password }
    const wrong = await api.post('/api/v1/auth/login', { ...creds, password: 'wrong-password' }, { headers: BROWSER })
    t.equal(wrong.status, 401)
    t.notOk('scopes' in wrong.body, 'no list without the password')
    const choose = await api.post('/api/v1/auth/login', creds, { headers: BROWSER })
    t.equal(choose.status, 400, choose.text)
    t.equal(choose.body.code, 'IDENTITY_SCOPE_REQUIRED')
    t.same(choose.body.scopes, [
      { tenant_id: tenant, workspace_id: 'sales', tenant_name: 'Browser Co', workspace_name: 'Sales', kind: 'agent' },
      {
        tenant_id: tenant,
        workspace_id: 'support',
        tenant_name: 'Browser Co',
        workspace_name: 'Support',
        kind: 'agent',
      },
    ])
    t.equal(choose.headers.get('set-cookie'), null)
    const chosen = await api.post(
      '/api/v1/auth/login',
      { ...creds, tenant_id: tenant, workspace_id: 'sales' },
      { headers: BROWSER },
    )
    t.equal(chosen.status, 200, chosen.text)
    const me = await api.get('/api/v1/auth/me', { token: chosen.body.token })
    t.match(me.body, { tenant_id: tenant, workspace_id: 'sales' }, 'the token is scoped to the chosen workspace')
    t.match(setCookie(chosen), /^switchboard_refresh=/)
    const listed = await api.get('/api/v1/auth/scopes', { token: chosen.body.token })
    t.equal(listed.status, 200, listed.text)
    t.same(listed.body, { count: 2, current: { tenant_id: tenant, workspace_id: 'sales' }, items: choose.body.scopes })
  })
})
