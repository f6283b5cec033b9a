import t from 'tap'
import { accessToken, bearer, harness, seedUser } from './fixtures/gateway.ts'

const BROWSER = { 'x-switchboard-client': 'browser' }
const JAR = 'theme=dark; switchboard_refresh=abc.def.ghi; sid=tracker'

t.test('browser sessions through the gateway: the refresh cookie and nothing else', async (t) => {
  const h = await harness(t, { env: { CORS_ORIGINS: 'https://console.example.com' } })

  await t.test('the refresh cookie reaches identity at the anonymous refresh and logout routes', async (t) => {
    for (const url of ['/api/v1/auth/refresh', '/api/v1/auth/logout']) {
      const res = await h.app.inject({ method: 'POST', url, headers: { ...BROWSER, cookie: JAR } })
      t.equal(res.statusCode, 200, `${url} needs no access token`)
      const echoed = res.json()
      t.equal(echoed.headers.cookie, 'switchboard_refresh=abc.def.ghi', `${url}: only the refresh pair goes upstream`)
      t.equal(echoed.headers['x-switchboard-client'], 'browser', 'the CSRF header reaches identity')
      t.equal(echoed.principal, null)
    }
  })

  await t.test("identity's Set-Cookie comes back to the browser unchanged", async (t) => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      headers: { ...BROWSER, cookie: JAR },
    })
    t.same(res.headers['set-cookie'], ['switchboard_refresh=new; Path=/api/v1/auth; HttpOnly; SameSite=Strict', 'b=2'])
  })

  await t.test('no cookie travels to any other route', async (t) => {
    const token = await accessToken(seedUser(h, { claims: { roles: ['admin'] } }))
    for (const url of ['/api/tickets', '/api/v1/auth/me', '/public/kb/a']) {
      const res = await h.app.inject({ method: 'GET', url, headers: { ...bearer(token), cookie: JAR } })
      t.equal(res.statusCode, 200, url)
      t.equal(res.json().headers.cookie, undefined, `${url}: the Cookie header stays at the gateway`)
    }
  })

  await t.test('CORS never allows credentials: a cross-origin script cannot use the cookie', async (t) => {
    const pre = await h.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/auth/refresh',
      headers: {
        origin: 'https://console.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-switchboard-client',
      },
    })
    t.equal(pre.statusCode, 204)
    t.equal(pre.headers['access-control-allow-credentials'], undefined, 'even an allowed origin: no credentials')
    const evil = await h.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/auth/refresh',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-switchboard-client',
      },
    })
    t.equal(evil.headers['access-control-allow-origin'], undefined, 'an unlisted origin gets nothing')
    t.equal(evil.headers['access-control-allow-credentials'], undefined)
    const simple = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      headers: { ...BROWSER, origin: 'https://console.example.com', cookie: JAR },
    })
    t.equal(simple.headers['access-control-allow-credentials'], undefined, 'nor on the answer itself')
  })
})
