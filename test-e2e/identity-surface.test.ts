// Identity's own surface end to end through the gateway, in both run modes: auth self-service and the security
// users/tokens surface; every revocation path ends the target's tokens at the gateway, and the audited security
// writes carry their before/after snapshots. The customer and agent directory is identity-directory.test.ts.
import { randomUUID } from 'node:crypto'
import type { Test } from 'tap'
import { login, register } from './harness/auth.ts'
import { until } from './harness/http.ts'
import { identityActors } from './harness/identity-actors.ts'
import { decodeJwt, forge, isError, nowSeconds, refusedWithin } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'

/** The auth session view: the same fields on both sides, is_current only on the self-service side. */
const VIEW_FIELDS: Record<string, 'string' | 'number' | 'boolean' | 'array'> = {
  session_id: 'string',
  status: 'string',
  token_version: 'number',
  device_fingerprint: 'string',
  network_label: 'string',
  location_label: 'string',
  risk_score: 'number',
  risk_level: 'string',
  risk_reasons: 'array',
  family_public_ip_count: 'number',
  family_device_count: 'number',
  active_session_count: 'number',
  family_hot_refresh_count: 'number',
  reference_session_id: 'string',
  ip_drift: 'boolean',
  device_drift: 'boolean',
  rapid_ip_change: 'boolean',
  rapid_device_change: 'boolean',
  rapid_refresh_activity: 'boolean',
  refresh_recency: 'string',
}

function checkViews(t: Test, items: any[], selfService: boolean) {
  const problems: string[] = []
  for (const item of items) {
    for (const [field, type] of Object.entries(VIEW_FIELDS)) {
      const v = item[field]
      const ok = type === 'array' ? Array.isArray(v) : typeof v === type
      if (!ok) problems.push(`${item.session_id}.${field}=${JSON.stringify(v)}`)
    }
    if (selfService !== (typeof item.is_current === 'boolean')) problems.push(`${item.session_id}.is_current`)
    if (!['low', 'medium', 'high'].includes(item.risk_level)) problems.push(`${item.session_id}.risk_level`)
  }
  t.same(
    problems,
    [],
    `every session view carries the view's fields${selfService ? ' and is_current' : ', no is_current'}`,
  )
}

inEachMode('identity surface', {}, async (t, system) => {
  const { api, suffix, demo, agent, adminId, as, me, demoCustomer, sessionOf, auditRecord } =
    await identityActors(system)

  t.test('auth: register, login, refresh, me, sessions, logout-others, logout-current', async (t) => {
    const username = `self_${suffix}`
    const reg = await register(api, username, demo)
    t.equal(reg.status, 201, reg.text)
    t.same(
      Object.keys(reg.body).sort(),
      ['expires_in', 'refresh_expires_in', 'refresh_token', 'token', 'token_type', 'user'],
      'token response',
    )
    t.match(reg.body, { token_type: 'Bearer', expires_in: Number, refresh_expires_in: Number })
    t.match(reg.body.user, {
      id: String,
      username,
      email: `${username}@e2e.example.com`,
      role: 'customer',
      status: 'active',
    })
    const claims = decodeJwt(reg.body.token).payload
    t.match(claims, { token_use: 'access', sub: reg.body.user.id, user_id: reg.body.user.id, tenant_id: 'demo' })
    t.equal(decodeJwt(reg.body.refresh_token).payload.token_use, 'refresh')

    const dup = await register(api, username)
    isError(t, dup, 409, 'IDENTITY_DUPLICATE_USER', 'a duplicate username')
    const wrong = await api.post('/api/v1/auth/login', { username, password: 'not-the-password' })
    const unknown = await api.post('/api/v1/auth/login', { username: `nobody_${suffix}`, password: 'whatever-pw' })
    isError(t, wrong, 401, 'IDENTITY_INVALID_CREDENTIALS', 'a wrong password')
    isError(t, unknown, 401, 'IDENTITY_INVALID_CREDENTIALS', 'an unknown user')
    t.equal(wrong.body.message, unknown.body.message, 'the same answer whether the user exists or not')

    const device = `laptop-${suffix}`
    const other = await login(api, `${username}@e2e.example.com`, reg.password, device)
    t.equal(other.user.id, reg.body.user.id, 'login by email')

    const who = await me(reg.body.token)
    t.equal(who.status, 200, who.text)
    t.match(who.body, {
      id: reg.body.user.id,
      username,
      role: 'customer',
      tenant_id: system.tenant_id,
      workspace_id: system.workspace_id,
      session_id: sessionOf(reg.body),
    })

    // Rotation: the old refresh token is re-use (401) and, with the default policy, the session lives on.
    const refreshed = await api.post('/api/v1/auth/refresh', { refresh_token: reg.body.refresh_token })
    t.equal(refreshed.status, 200, refreshed.text)
    t.equal(sessionOf(refreshed.body), sessionOf(reg.body), 'same auth session')
    t.ok(
      (decodeJwt(refreshed.body.token).payload.session_token_version as number) >
        (claims.session_token_version as number),
      'session_token_version raised',
    )
    const reuse = await api.post('/api/v1/auth/refresh', { refresh_token: reg.body.refresh_token })
    isError(t, reuse, 401, 'IDENTITY_REFRESH_TOKEN_REUSED', 'the rotated refresh token')
    const older = await refusedWithin(() => me(reg.body.token))
    t.equal(older.reply.status, 401, `the older access token of the session is refused (${older.ms} ms)`)
    const current = refreshed.body.token as string
    t.equal((await me(current)).status, 200, 'the session survives a re-use when the policy is off (default)')

    const sessions = await api.get('/api/v1/auth/sessions', { token: current })
    t.equal(sessions.status, 200, sessions.text)
    t.equal(sessions.body.count, 2)
    t.equal(sessions.body.items.length, 2)
    const cur = sessions.body.items.filter((s: any) => s.is_current)
    t.equal(cur.length, 1, 'exactly one is_current')
    t.equal(cur[0]?.session_id, sessionOf(refreshed.body), "and it is the caller's")
    checkViews(t, sessions.body.items, true)
    const laptop = sessions.body.items.find((s: any) => s.session_id === sessionOf(other))
    t.equal(laptop?.device_fingerprint, device, 'X-Device-ID is the fingerprint')
    t.match(cur[0]?.device_fingerprint, /^[0-9a-f]{32}$/, 'else 32 hex chars of sha256(user agent, ip)')
    t.equal(cur[0]?.network_label, 'loopback')
    t.equal(cur[0]?.refresh_recency, 'hot', 'refreshed just now')

    const others = await api.post('/api/v1/auth/sessions/logout-others', undefined, { token: current })
    t.equal(others.status, 200, others.text)
    t.same(others.body, { current_session_id: sessionOf(refreshed.body), count: 1 })
    const laptopGone = await refusedWithin(() => me(other.token))
    t.equal(laptopGone.reply.status, 401, `the other session is ended (${laptopGone.ms} ms)`)
    t.equal((await me(current)).status, 200, 'the current one is not')

    const out = await api.post('/api/v1/auth/sessions/logout-current', undefined, { token: current })
    t.equal(out.status, 200, out.text)
    t.match(out.body, { session_id: sessionOf(refreshed.body), status: 'revoked', token_version: Number })
    const gone = await refusedWithin(() => me(current))
    isError(t, gone.reply, 401, 'TOKEN_REVOKED', `the same token after logout-current (${gone.ms} ms)`)
    const refreshAfter = await api.post('/api/v1/auth/refresh', { refresh_token: refreshed.body.refresh_token })
    t.equal(refreshAfter.status, 401, "the logged-out session's refresh token is refused")
  })

  t.test('security users: state, query, sessions, revoke one, revoke-all, revoke-tokens, batch', async (t) => {
    const v = await demoCustomer('target')
    const v2 = await login(api, v.username, v.password, `phone-${suffix}`)
    const v3 = await login(api, v.username, v.password, `tablet-${suffix}`)
    const w = await demoCustomer('second')
    const id = v.user.id

    const state = await api.get(`/api/security/users/${id}`, as)
    t.equal(state.status, 200, state.text)
    t.same(Object.keys(state.body).sort(), [
      'last_login',
      'role',
      'status',
      'token_valid_after',
      'token_version',
      'user_id',
    ])
    t.match(state.body, { user_id: id, role: 'customer', status: 'active', token_version: Number })
    const version0 = state.body.token_version as number

    const query = await api.post('/api/security/users/query', { user_ids: [id, w.user.id, id] }, as)
    t.equal(query.status, 200, query.text)
    t.equal(query.body.count, 2, 'duplicates collapse')
    const qv = query.body.items.find((i: any) => i.user_id === id)
    t.match(qv, { username: v.username, name: String, role: 'customer', status: 'active', token_version: version0 })
    t.equal(qv.next_token_version, version0 + 1, 'the token_version the next revoke would set')
    t.ok('last_login' in qv && 'token_valid_after' in qv)
    isError(t, await api.post('/api/security/users/query', { user_ids: [] }, as), 400, undefined, 'an empty id list')
    isError(
      t,
      await api.get(`/api/security/users/${randomUUID()}`, as),
      404,
      'IDENTITY_USER_NOT_FOUND',
      'an unknown user',
    )

    const sessions = await api.get(`/api/security/users/${id}/sessions`, as)
    t.equal(sessions.status, 200, sessions.text)
    t.equal(sessions.body.user_id, id)
    t.equal(sessions.body.count, 3)
    checkViews(t, sessions.body.items, false)
    t.ok(
      sessions.body.items.every((s: any) => s.risk_reasons.includes('not_current_session')),
      'no management-listed session is the caller’s',
    )
    t.ok(
      sessions.body.items.every((s: any) => s.active_session_count === 3),
      'active_session_count counts the family',
    )

    // One session: only its tokens end.
    const one = await api.post(`/api/security/users/${id}/sessions/revoke`, { session_id: sessionOf(v2) }, as)
    t.equal(one.status, 200, one.text)
    t.match(one.body, { user_id: id, session_id: sessionOf(v2), status: 'revoked', revoked_at: String })
    t.ok(one.body.token_version > (decodeJwt(v2.token).payload.session_token_version as number), 'version raised')
    const v2Gone = await refusedWithin(() => me(v2.token))
    t.equal(v2Gone.reply.status, 401, `the revoked session's token is refused (${v2Gone.ms} ms)`)
    t.equal((await me(v3.token)).status, 200, 'another session of the user is untouched')
    const again = await api.post(`/api/security/users/${id}/sessions/revoke`, { session_id: sessionOf(v2) }, as)
    t.equal(again.status, 200, 'revoking a revoked session is idempotent')
    isError(
      t,
      await api.post(`/api/security/users/${id}/sessions/revoke`, { session_id: randomUUID() }, as),
      404,
      'IDENTITY_SESSION_NOT_FOUND',
      'an unknown session',
    )
    isError(
      t,
      await api.post(`/api/security/users/${id}/sessions/revoke`, { session_id: sessionOf(w) }, as),
      404,
      'IDENTITY_SESSION_NOT_FOUND',
      "another user's session through this user",
    )
    t.equal((await me(w.token)).status, 200, "and that other user's session lives on")

    // All but one.
    const all = await api.post(
      `/api/security/users/${id}/sessions/revoke-all`,
      { except_session_id: sessionOf(v3), reason: 'e2e' },
      as,
    )
    t.equal(all.status, 200, all.text)
    t.match(all.body, { user_id: id, count: 1, except_session_id: sessionOf(v3) })
    t.same(
      all.body.items.map((i: any) => [i.session_id, i.status]),
      [[sessionOf(v), 'revoked']],
      'only the still active, not excepted session',
    )
    const vGone = await refusedWithin(() => me(v.token))
    t.equal(vGone.reply.status, 401, `revoke-all ends the register session (${vGone.ms} ms)`)
    t.equal((await me(v3.token)).status, 200, 'except_session_id is kept')

    // The user: every token, but its sessions stay active (a user revoke raises the user's token_version, not theirs).
    const revoked = await api.post(`/api/security/users/${id}/revoke-tokens`, { reason: 'e2e' }, as)
    t.equal(revoked.status, 200, revoked.text)
    t.same(revoked.body, { user_id: id, role: 'customer', token_version: version0 + 1 })
    const v3Gone = await refusedWithin(() => me(v3.token))
    isError(t, v3Gone.reply, 401, 'TOKEN_REVOKED', `the user's last token after revoke-tokens (${v3Gone.ms} ms)`)
    const after = await api.get(`/api/security/users/${id}`, as)
    t.equal(after.body.token_version, version0 + 1)
    t.ok(after.body.token_valid_after, 'token_valid_after set')
    const refreshAfter = await api.post('/api/v1/auth/refresh', { refresh_token: v3.refresh_token })
    t.equal(refreshAfter.status, 401, 'refresh tokens are subject to the user revoke too')
    const fresh = await login(api, v.username, v.password)
    t.equal((await me(fresh.token)).status, 200, 'a login after the revoke (same second included) works')

    // Batch: all or nothing.
    const outside = await api.post('/api/security/users/revoke-tokens', { user_ids: [id, randomUUID()] }, as)
    isError(t, outside, 404, 'IDENTITY_USER_NOT_FOUND', 'a batch naming an unknown user')
    t.equal((await api.get(`/api/security/users/${id}`, as)).body.token_version, version0 + 1, 'nothing changed')
    t.equal((await me(fresh.token)).status, 200)
    const batch = await api.post('/api/security/users/revoke-tokens', { user_ids: [id, w.user.id] }, as)
    t.equal(batch.status, 200, batch.text)
    t.equal(batch.body.count, 2)
    t.same(
      batch.body.items.map((i: any) => i.user_id).sort(),
      [id, w.user.id].sort(),
      'both users, each with its new token_version',
    )
    const freshGone = await refusedWithin(() => me(fresh.token))
    const wGone = await refusedWithin(() => me(w.token))
    t.equal(freshGone.reply.status, 401, `first user's token ends (${freshGone.ms} ms)`)
    t.equal(wGone.reply.status, 401, `second user's token ends (${wGone.ms} ms)`)
    const bare = await api.post(`/api/security/users/${w.user.id}/sessions/revoke-all`, undefined, as)
    t.equal(bare.status, 200, `a bare POST (no body) revokes all: ${bare.text}`)
    t.match(bare.body, { count: 1, except_session_id: null }, 'a user revoke leaves sessions active; this ends them')

    const agentTry = await api.post(`/api/security/users/${id}/revoke-tokens`, undefined, { token: agent.token })
    isError(t, agentTry, 403, 'PERMISSION_DENIED', 'an agent has no security.write')
    t.equal((await api.get(`/api/security/users/${id}`, { token: agent.token })).status, 403, 'nor security.read')
  })

  t.test('tokens: denylist one JWT, list the records with filters', async (t) => {
    const x = await demoCustomer('deny')
    const second = await login(api, x.username, x.password)
    const access = decodeJwt(x.token).payload

    const denied = await api.post('/api/security/tokens/revoke', { token: x.token, reason: 'stolen laptop' }, as)
    t.equal(denied.status, 200, denied.text)
    t.same(Object.keys(denied.body).sort(), ['expires_at', 'jti', 'revoked_at', 'session_id', 'token_use', 'user_id'])
    t.match(denied.body, { jti: access.jti, user_id: x.user.id, session_id: access.session_id, token_use: 'access' })
    t.equal(Date.parse(denied.body.expires_at), (access.exp as number) * 1000, "the token's own expiry")
    const gone = await refusedWithin(() => me(x.token))
    isError(t, gone.reply, 401, 'TOKEN_REVOKED', `the denylisted token (${gone.ms} ms)`)
    t.equal((await me(second.token)).status, 200, "the user's other tokens still work")
    const again = await api.post('/api/security/tokens/revoke', { token: x.token }, as)
    t.equal(again.status, 200, 'denylisting twice is idempotent')
    t.equal(again.body.revoked_at, denied.body.revoked_at, 'the first record stands')

    const refresh = await api.post('/api/security/tokens/revoke', { token: second.refresh_token }, as)
    t.equal(refresh.status, 200, refresh.text)
    t.equal(refresh.body.token_use, 'refresh')
    const refused = await api.post('/api/v1/auth/refresh', { refresh_token: second.refresh_token })
    t.equal(refused.status, 401, 'a denylisted refresh token is refused')

    // An already expired token of ours can be denylisted too; active_only leaves its record out.
    const expired = forge(second.token, {
      secret: system.env.JWT_SECRET!,
      claims: { iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 },
    })
    const old = await api.post('/api/security/tokens/revoke', { token: expired }, as)
    t.equal(old.status, 200, old.text)
    isError(
      t,
      await api.post('/api/security/tokens/revoke', { token: `${x.token.slice(0, -4)}AAAA` }, as),
      400,
      'IDENTITY_TOKEN_INVALID',
      'a token not signed by us',
    )

    const list = (q: string) => api.get(`/api/security/tokens/revoked?${q}`, as)
    const byJti = await list(`jti=${access.jti}`)
    t.equal(byJti.status, 200, byJti.text)
    t.match(byJti.body, { total: 1, page: 1, page_size: 20, pages: 1 })
    t.match(byJti.body.data[0], {
      jti: access.jti,
      user_id: x.user.id,
      token_use: 'access',
      revoked_by: adminId,
      reason: 'stolen laptop',
    })
    t.equal((await list(`user_id=${x.user.id}`)).body.total, 3, 'by user')
    t.equal((await list(`user_id=${x.user.id}&token_use=refresh`)).body.total, 1, 'by token_use')
    t.equal((await list(`session_id=${sessionOf(second)}`)).body.total, 2, 'by session (refresh + expired copy)')
    const active = await list(`user_id=${x.user.id}&active_only=true`)
    t.equal(active.body.total, 2, 'active_only drops the expired record')
    t.notOk(
      active.body.data.some((r: any) => r.jti === decodeJwt(expired).payload.jti),
      'the expired one is not listed',
    )
    const paged = await list(`user_id=${x.user.id}&page_size=1&page=2`)
    t.match(paged.body, { total: 3, page: 2, page_size: 1, pages: 3 })
    t.equal(paged.body.data.length, 1)
    isError(t, await list('token_use=bogus'), 400, undefined, 'token_use outside access|refresh')
  })

  t.test('audit: security user token revoke with before/after, masked token bodies', async (t) => {
    const u = await demoCustomer('audited')
    const r = await api.post(`/api/security/users/${u.user.id}/revoke-tokens`, { reason: 'audit e2e' }, as)
    t.equal(r.status, 200, r.text)
    const rec = await auditRecord(t, 'security.users_revoke_tokens', u.user.id)
    t.equal(rec.record.actor_user_id, adminId)
    t.equal(rec.record.principal_kind, 'admin')
    t.equal(rec.record.tenant_id, system.tenant_id)
    t.equal(rec.after.token_version, rec.before.token_version + 1, 'token_version before/after')
    t.ok(rec.after.token_valid_after, 'token_valid_after after')

    const denied = await api.post('/api/security/tokens/revoke', { token: u.refresh_token }, as)
    t.equal(denied.status, 200, denied.text)
    const tok = await auditRecord(t, 'security.tokens_revoke', denied.body.jti)
    t.equal(tok.record.request_json.token, '[REDACTED]', 'the JWT in the request body is masked')
    t.equal(tok.before, null, 'a new denylist record has no before')
    t.equal(tok.after.jti, denied.body.jti)

    const failed = await api.post(`/api/security/users/${randomUUID()}/revoke-tokens`, undefined, as)
    t.equal(failed.status, 404)
    const miss = await until('the failed revoke in the audit log', async () => {
      const res = await api.get('/api/audit/logs?action=security.users_revoke_tokens&success=false', as)
      return (res.body.data as any[]).find((x) => x.request_id === failed.body.request_id)
    })
    t.equal(miss.status_code, 404, 'a refused write is audited with success=false')
  })
})
