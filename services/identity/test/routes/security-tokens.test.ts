import { buildKeyring, issueToken } from '@switchboard/auth'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { claimsOf, JWT_SECRET, PASSWORD } from '../helpers/app.ts'
import { createCustomer, directoryFixture, login } from '../helpers/directory.ts'

inEachStorageMode(t, 'denylist surface', async (t, mode) => {
  const { app, who, rec } = await directoryFixture(t, mode)
  const alice = await createCustomer(app, who.acmeAdmin, {
    name: 'A',
    email: 'a@acme.test',
    username: 'alice',
    password: PASSWORD,
  })
  const gina = await createCustomer(app, who.globexAdmin, {
    name: 'G',
    email: 'g@globex.test',
    username: 'gina',
    password: PASSWORD,
  })
  const a = await login(app, 'alice', 'laptop')
  const g = await login(app, 'gina', 'desk')
  const revoke = (headers: Record<string, string>, payload: object) =>
    app.inject({ method: 'POST', url: '/api/security/tokens/revoke', headers, payload })
  const list = (headers: Record<string, string>, query: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: '/api/security/tokens/revoked', headers, query })

  await t.test('revoking an access token puts its jti and exp on the denylist', async (t) => {
    const res = await revoke(who.acmeAdmin, { token: a.token, reason: 'leaked in a ticket' })
    t.equal(res.statusCode, 200, res.body)
    const body = res.json()
    const c = claimsOf(a.token)
    t.same(Object.keys(body).sort(), ['expires_at', 'jti', 'revoked_at', 'session_id', 'token_use', 'user_id'])
    t.equal(body.jti, c.jti)
    t.equal(body.user_id, alice.user_id)
    t.equal(body.session_id, c.session_id)
    t.equal(body.token_use, 'access')
    t.equal(body.expires_at, new Date(c.exp * 1000).toISOString())
    const ev = await rec.find('identity.token.denylisted', (d: any) => d.jti === c.jti)
    t.equal(ev.data.expires_at, body.expires_at)
    const audit = await rec.audit('security.tokens_revoke', c.jti)
    t.equal(audit.after_json.jti, c.jti)
    t.equal(audit.before_json, null)
    t.equal(audit.request_json.token, '[REDACTED]', 'the token itself is masked in the audit record')
    const again = await revoke(who.acmeAdmin, { token: a.token })
    t.equal(again.statusCode, 200, 'idempotent')
    t.equal(again.json().revoked_at, body.revoked_at, 'the first record stands')
  })

  await t.test('refresh tokens and expired tokens of ours are accepted', async (t) => {
    const r = await revoke(who.acmeAdmin, { token: a.refresh_token })
    t.equal(r.statusCode, 200, r.body)
    t.equal(r.json().token_use, 'refresh')
    const past = Math.floor(Date.now() / 1000) - 7200
    const expired = await issueToken(
      buildKeyring(JWT_SECRET),
      {
        user_id: alice.user_id,
        token_version: 1,
        session_id: 'old-session',
        session_token_version: 1,
        roles: ['customer'],
        tenant_id: 'acme',
        workspace_id: 'support',
      },
      { ttlSeconds: 900, tokenUse: 'access', now: past },
    )
    const res = await revoke(who.acmeAdmin, { token: expired.token })
    t.equal(res.statusCode, 200, res.body)
    t.equal(res.json().jti, expired.claims.jti)
    t.ok(Date.parse(res.json().expires_at) < Date.now(), 'already expired')
  })

  await t.test('forged or malformed tokens are refused with 400', async (t) => {
    const forged = await issueToken(
      buildKeyring('someone-elses-secret-0123456789abcdef'),
      {
        user_id: alice.user_id,
        token_version: 1,
        session_id: '',
        session_token_version: 0,
        roles: [],
        tenant_id: '',
        workspace_id: '',
      },
      { ttlSeconds: 900, tokenUse: 'access' },
    )
    for (const token of [forged.token, 'not.a.jwt', `${a.token.slice(0, -4)}AAAA`]) {
      const res = await revoke(who.acmeAdmin, { token })
      t.equal(res.statusCode, 400)
      t.equal(res.json().code, 'IDENTITY_TOKEN_INVALID')
    }
    const empty = await revoke(who.acmeAdmin, {})
    t.equal(empty.statusCode, 400)
    t.match(empty.json().message, /token/)
  })

  await t.test("another tenant's token is not found", async (t) => {
    const res = await revoke(who.acmeAdmin, { token: g.token })
    t.equal(res.statusCode, 404)
    t.equal(res.json().code, 'IDENTITY_USER_NOT_FOUND')
    t.equal((await list(who.platform, { jti: claimsOf(g.token).jti })).json().total, 0, 'nothing denied')
    t.equal((await revoke(who.globexAdmin, { token: g.token })).statusCode, 200)
  })

  await t.test('GET /tokens/revoked: filters, active_only, scope, pages', async (t) => {
    const all = await list(who.platform)
    t.equal(all.statusCode, 200)
    t.same(Object.keys(all.json()).sort(), ['data', 'page', 'page_size', 'pages', 'total'])
    t.equal(all.json().total, 4)
    const acme = (await list(who.acmeAdmin)).json()
    t.equal(acme.total, 3, 'only acme users')
    t.ok(acme.data.every((r: any) => r.user_id === alice.user_id))
    const globex = (await list(who.globexAdmin)).json()
    t.equal(globex.total, 1)
    t.equal(globex.data[0].user_id, gina.user_id)
    t.equal(
      (await list(who.acmeAdmin, { user_id: gina.user_id })).json().total,
      0,
      'filtering to a foreign user finds nothing',
    )
    const byJti = (await list(who.acmeAdmin, { jti: claimsOf(a.token).jti })).json()
    t.equal(byJti.total, 1)
    t.same(Object.keys(byJti.data[0]).sort(), [
      'expires_at',
      'jti',
      'reason',
      'revoked_at',
      'revoked_by',
      'session_id',
      'token_use',
      'user_id',
    ])
    t.equal(byJti.data[0].reason, 'leaked in a ticket')
    t.equal(byJti.data[0].revoked_by, 'admin-acme')
    t.equal((await list(who.acmeAdmin, { session_id: claimsOf(a.token).session_id })).json().total, 2)
    t.equal((await list(who.acmeAdmin, { token_use: 'refresh' })).json().total, 1)
    t.equal((await list(who.acmeAdmin, { active_only: 'true' })).json().total, 2, 'the expired record is left out')
    t.equal((await list(who.acmeAdmin, { active_only: 'false' })).json().total, 3)
    const page = (await list(who.acmeAdmin, { page: '2', page_size: '2' })).json()
    t.same([page.page, page.page_size, page.pages, page.total, page.data.length], [2, 2, 2, 3, 1])
    t.equal((await list(who.acmeAdmin, { token_use: 'bogus' })).statusCode, 400)
    t.equal((await list(who.acmeAgent)).statusCode, 403, 'agents lack security.read')
  })
})
