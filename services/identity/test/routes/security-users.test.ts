import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { claimsOf } from '../helpers/app.ts'
import { createMember, directoryFixture, errorShape, login } from '../helpers/directory.ts'

inEachStorageMode(t, 'security users surface', async (t, mode) => {
  const { app, who, rec } = await directoryFixture(t, mode)

  const alice = await createMember(app, who.acmeAdmin, 'Alice', 'acme.test')
  const bob = await createMember(app, who.acmeAdmin, 'Bob', 'acme.test')
  const gina = await createMember(app, who.globexAdmin, 'Gina', 'globex.test')
  const s1 = await login(app, 'alice', 'laptop', '8.8.8.8')
  const s2 = await login(app, 'alice', 'phone', '1.1.1.1')
  const sid1 = claimsOf(s1.token).session_id as string
  const sid2 = claimsOf(s2.token).session_id as string

  const get = (url: string, headers: Record<string, string>) => app.inject({ method: 'GET', url, headers })
  const post = (url: string, headers: Record<string, string>, payload: unknown = {}) =>
    app.inject({ method: 'POST', url, headers, payload: payload as object })

  await t.test('GET /users/:id: state in scope, 404 like a missing user outside it', async (t) => {
    const res = await get(`/api/security/users/${alice.user_id}`, who.acmeAdmin)
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.same(Object.keys(body).sort(), ['last_login', 'role', 'status', 'token_valid_after', 'token_version', 'user_id'])
    t.equal(body.user_id, alice.user_id)
    t.equal(body.role, 'customer')
    t.equal(body.status, 'active')
    t.equal(body.token_version, 1)
    t.ok(body.last_login, 'login recorded')
    const missing = await get('/api/security/users/no-such-user', who.acmeAdmin)
    const foreign = await get(`/api/security/users/${gina.user_id}`, who.acmeAdmin)
    t.equal(missing.statusCode, 404)
    t.same(errorShape(foreign), errorShape(missing), 'same body as a missing user')
    t.equal((await get(`/api/security/users/${gina.user_id}`, who.platform)).statusCode, 200, 'unscoped: everything')
    t.equal((await get(`/api/security/users/${gina.user_id}`, who.globexAdmin)).statusCode, 200)
  })

  await t.test('kind and permission are checked here too', async (t) => {
    const endUser = await get(`/api/security/users/${alice.user_id}`, who.acmeUser)
    t.equal(endUser.statusCode, 403)
    t.equal(endUser.json().code, 'IDENTITY_PRINCIPAL_KIND')
    const agent = await get(`/api/security/users/${alice.user_id}`, who.acmeAgent)
    t.equal(agent.statusCode, 403)
    t.equal(agent.json().code, 'IDENTITY_PERMISSION_MISSING')
    t.equal((await post(`/api/security/users/${alice.user_id}/revoke-tokens`, who.acmeAgent)).statusCode, 403)
    const anonymous = await app.inject({ method: 'GET', url: `/api/security/users/${alice.user_id}` })
    t.equal(anonymous.statusCode, 401)
  })

  await t.test('POST /users/query previews next_token_version; one foreign id → 404', async (t) => {
    const res = await post('/api/security/users/query', who.acmeAdmin, {
      user_ids: [alice.user_id, bob.user_id, alice.user_id],
    })
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.equal(body.count, 2)
    const a = body.items.find((i: any) => i.user_id === alice.user_id)
    t.same(Object.keys(a).sort(), [
      'admin_tenant_id',
      'last_login',
      'name',
      'next_token_version',
      'role',
      'status',
      'token_valid_after',
      'token_version',
      'user_id',
      'username',
    ])
    t.equal(a.username, 'alice')
    t.equal(a.admin_tenant_id, '', "'' for a role other than admin")
    t.equal(a.next_token_version, a.token_version + 1)
    const mixed = await post('/api/security/users/query', who.acmeAdmin, { user_ids: [alice.user_id, gina.user_id] })
    t.equal(mixed.statusCode, 404)
    t.equal(mixed.json().code, 'IDENTITY_USER_NOT_FOUND')
    const empty = await post('/api/security/users/query', who.acmeAdmin, { user_ids: [] })
    t.equal(empty.statusCode, 400)
    t.match(empty.json().message, /user_ids/)
  })

  await t.test('GET /users/:id/sessions: risk views without is_current', async (t) => {
    const res = await get(`/api/security/users/${alice.user_id}/sessions`, who.acmeAdmin)
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.equal(body.user_id, alice.user_id)
    t.equal(body.count, 2)
    for (const v of body.items) {
      t.notOk('is_current' in v, 'management views carry no is_current')
      for (const f of [
        'session_id',
        'status',
        'token_version',
        'device_fingerprint',
        'network_label',
        'location_label',
        'risk_score',
        'risk_level',
        'risk_reasons',
        'family_public_ip_count',
        'family_device_count',
        'active_session_count',
        'family_hot_refresh_count',
        'reference_session_id',
        'ip_drift',
        'device_drift',
        'rapid_ip_change',
        'rapid_device_change',
        'rapid_refresh_activity',
        'refresh_recency',
      ]) {
        t.ok(f in v, `view has ${f}`)
      }
      t.equal(v.network_label, 'public')
      t.equal(v.location_label, 'public_unknown')
      t.equal(v.family_public_ip_count, 2)
      t.equal(v.family_device_count, 2)
      t.equal(v.active_session_count, 2)
      t.equal(v.risk_reasons[0], 'not_current_session')
      t.ok(v.risk_reasons.includes('multi_public_ip_family'))
    }
    const drifting = body.items.find((v: any) => v.session_id !== v.reference_session_id)
    t.same(
      drifting.risk_reasons,
      [
        'not_current_session',
        'public_network',
        'multi_public_ip_family',
        'ip_drift',
        'device_drift',
        'rapid_ip_change',
        'rapid_device_change',
      ],
      'reasons in the documented order',
    )
    t.equal(drifting.risk_score, 7)
    t.equal(drifting.risk_level, 'high')
    const foreign = await get(`/api/security/users/${gina.user_id}/sessions`, who.acmeAdmin)
    t.equal(foreign.statusCode, 404)
  })

  await t.test('POST /users/:id/sessions/revoke: state, event, audit', async (t) => {
    const res = await post(`/api/security/users/${alice.user_id}/sessions/revoke`, who.acmeAdmin, {
      session_id: sid1,
      reason: 'lost laptop',
    })
    t.equal(res.statusCode, 200, res.body)
    const body = res.json()
    t.same(Object.keys(body).sort(), ['revoked_at', 'session_id', 'status', 'token_version', 'user_id'])
    t.equal(body.status, 'revoked')
    t.equal(body.token_version, 2, 'session token_version raised')
    t.ok(body.revoked_at)
    const ev = await rec.find(
      'identity.session.token_state_changed',
      (d: any) => d.session.session_id === sid1 && !d.session.active,
    )
    t.equal(ev.data.session.token_version, 2)
    t.equal(ev.tenant_id, 'acme')
    const audit = await rec.audit('security.sessions_revoke', alice.user_id)
    t.same(audit.before_json, { session_id: sid1, status: 'active', token_version: 1, revoked_at: null })
    t.equal(audit.after_json.status, 'revoked')
    t.equal(audit.success, true)
    // another user's session through alice's id, and an unknown session: not found
    const bobSession = await login(app, 'bob', 'desk')
    const other = await post(`/api/security/users/${alice.user_id}/sessions/revoke`, who.acmeAdmin, {
      session_id: claimsOf(bobSession.token).session_id,
    })
    t.equal(other.statusCode, 404)
    t.equal(other.json().code, 'IDENTITY_SESSION_NOT_FOUND')
    const foreignUser = await post(`/api/security/users/${gina.user_id}/sessions/revoke`, who.acmeAdmin, {
      session_id: sid1,
    })
    t.equal(foreignUser.statusCode, 404)
    t.equal(foreignUser.json().code, 'IDENTITY_USER_NOT_FOUND')
    const again = await post(`/api/security/users/${alice.user_id}/sessions/revoke`, who.acmeAdmin, {
      session_id: sid1,
    })
    t.equal(again.statusCode, 200, 'revoking a revoked session is idempotent')
    t.equal(again.json().token_version, 2, 'and changes nothing')
    const views = (await get(`/api/security/users/${alice.user_id}/sessions`, who.acmeAdmin)).json()
    const revoked = views.items.find((v: any) => v.session_id === sid1)
    t.equal(revoked.status, 'revoked')
    t.equal(revoked.risk_reasons[0], 'revoked_session')
    t.equal(revoked.active_session_count, 1)
  })

  await t.test('POST /users/:id/sessions/revoke-all keeps except_session_id', async (t) => {
    const s3 = await login(app, 'alice', 'tablet', '9.9.9.9')
    const sid3 = claimsOf(s3.token).session_id
    const res = await post(`/api/security/users/${alice.user_id}/sessions/revoke-all`, who.acmeAdmin, {
      except_session_id: sid2,
      reason: 'cleanup',
    })
    t.equal(res.statusCode, 200, res.body)
    const body = res.json()
    t.equal(body.user_id, alice.user_id)
    t.equal(body.except_session_id, sid2)
    t.equal(body.count, 1)
    t.same(Object.keys(body.items[0]).sort(), ['revoked_at', 'session_id', 'status', 'token_version'])
    t.equal(body.items[0].session_id, sid3)
    t.equal(body.items[0].status, 'revoked')
    await rec.find(
      'identity.session.token_state_changed',
      (d: any) => d.session.session_id === sid3 && !d.session.active,
    )
    const audit = await rec.audit('security.sessions_revoke_all', alice.user_id)
    t.same(audit.after_json, { revoked_sessions: [sid3] })
    const views = (await get(`/api/security/users/${alice.user_id}/sessions`, who.acmeAdmin)).json()
    t.same(
      views.items.filter((v: any) => v.status === 'active').map((v: any) => v.session_id),
      [sid2],
    )
    const none = await post(`/api/security/users/${alice.user_id}/sessions/revoke-all`, who.acmeAdmin)
    t.equal(none.statusCode, 200)
    t.equal(none.json().count, 1, 'without except_session_id the kept one goes too')
    t.equal(none.json().except_session_id, null)
    t.equal((await post(`/api/security/users/${gina.user_id}/sessions/revoke-all`, who.acmeAdmin)).statusCode, 404)
  })

  await t.test('POST /users/:id/revoke-tokens: version raised, event, audit snapshot', async (t) => {
    const res = await post(`/api/security/users/${bob.user_id}/revoke-tokens`, who.acmeAdmin, {
      reason: 'suspicious',
    })
    t.equal(res.statusCode, 200, res.body)
    t.same(res.json(), { user_id: bob.user_id, role: 'customer', token_version: 2 })
    const ev = await rec.find(
      'identity.user.token_state_changed',
      (d: any) => d.user.user_id === bob.user_id && d.user.token_version === 2,
    )
    t.ok(ev.data.user.token_valid_after, 'token_valid_after set')
    t.equal(ev.data.reason, 'suspicious')
    const audit = await rec.audit('security.users_revoke_tokens', bob.user_id)
    t.equal(audit.before_json.token_version, 1)
    t.equal(audit.after_json.token_version, 2)
    t.equal(audit.before_json.token_valid_after, null)
    t.ok(audit.after_json.token_valid_after)
    const state = (await get(`/api/security/users/${bob.user_id}`, who.acmeAdmin)).json()
    t.equal(state.token_version, 2)
    const foreign = await post(`/api/security/users/${gina.user_id}/revoke-tokens`, who.acmeAdmin)
    t.same(errorShape(foreign), errorShape(await post('/api/security/users/nobody/revoke-tokens', who.acmeAdmin)))
  })

  await t.test('POST /users/revoke-tokens: all or nothing', async (t) => {
    const before = (await get(`/api/security/users/${gina.user_id}`, who.platform)).json().token_version
    const aliceBefore = (await get(`/api/security/users/${alice.user_id}`, who.platform)).json().token_version
    const refused = await post('/api/security/users/revoke-tokens', who.acmeAdmin, {
      user_ids: [alice.user_id, gina.user_id],
    })
    t.equal(refused.statusCode, 404)
    t.equal(refused.json().code, 'IDENTITY_USER_NOT_FOUND')
    const refusedAudit = await rec.audit('security.users_batch_revoke_tokens', `${alice.user_id},${gina.user_id}`)
    t.same(
      [refusedAudit.success, refusedAudit.status_code, refusedAudit.after_json],
      [false, 404, null],
      'refusal audited',
    )
    t.equal(
      (await get(`/api/security/users/${gina.user_id}`, who.platform)).json().token_version,
      before,
      'foreign user unchanged',
    )
    t.equal(
      (await get(`/api/security/users/${alice.user_id}`, who.platform)).json().token_version,
      aliceBefore,
      'in-scope user unchanged too: nothing changed',
    )
    const ok = await post('/api/security/users/revoke-tokens', who.acmeAdmin, {
      user_ids: [alice.user_id, bob.user_id],
    })
    t.equal(ok.statusCode, 200, ok.body)
    const body = ok.json()
    t.equal(body.count, 2)
    t.same(
      body.items.map((i: any) => [i.user_id, i.token_version]),
      [
        [alice.user_id, aliceBefore + 1],
        [bob.user_id, 3],
      ],
    )
    await rec.find(
      'identity.user.token_state_changed',
      (d: any) => d.user.user_id === alice.user_id && d.user.token_version === aliceBefore + 1,
    )
    const audit = await rec.audit('security.users_batch_revoke_tokens', `${alice.user_id},${bob.user_id}`)
    t.equal(audit.after_json.length, 2)
    const platformBatch = await post('/api/security/users/revoke-tokens', who.platform, { user_ids: [gina.user_id] })
    t.equal(platformBatch.statusCode, 200, 'unscoped service reaches every tenant')
  })
})
