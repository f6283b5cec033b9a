import t from 'tap'
import { accessToken, bearer, harness, seedUser } from './fixtures/gateway.ts'

t.test('smoke', async (t) => {
  const h = await harness(t)
  const claims = seedUser(h)
  const token = await accessToken(claims)
  const res = await h.app.inject({ method: 'GET', url: '/api/tickets?x=1', headers: bearer(token) })
  t.equal(res.statusCode, 200, res.body)
  const body = res.json()
  t.equal(body.url, '/api/tickets?x=1')
  t.equal(body.principal.user_id, claims.user_id)
  t.equal(body.headers.authorization, undefined)
  const post = await h.app.inject({ method: 'POST', url: '/api/tickets', headers: bearer(token), payload: { a: 1 } })
  t.equal(post.statusCode, 200, post.body)
  t.equal(post.json().body, '{"a":1}')
  const anon = await h.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: 'x',
    headers: { 'content-type': 'text/plain' },
  })
  t.equal(anon.statusCode, 200, anon.body)
  t.equal(anon.json().principal, null)
  const noCt = await h.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: Buffer.from('raw') })
  t.equal(noCt.statusCode, 200, noCt.body)
})
