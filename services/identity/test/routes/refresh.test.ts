import { createHmac } from 'node:crypto'
import { systemCaller } from '@switchboard/platform'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { denyToken, revokeUserTokens } from '../../src/commands/revocation.ts'
import { type App, claimsOf, identityApp, JWT_SECRET, loginUser, registerUser, tokenState } from '../helpers/app.ts'

const refresh = (app: App, token: string) =>
  app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refresh_token: token } })

inEachStorageMode(t, 'refresh with refresh_reuse_revokes_session', async (t, mode) => {
  const { app } = await identityApp(t, mode, { REFRESH_REUSE_REVOKES_SESSION: 'true' })
  await registerUser(app, 'root')
  const { body } = await registerUser(app, 'dora')
  const sid = claimsOf(body.token).session_id

  const first = await refresh(app, body.refresh_token)
  t.equal(first.statusCode, 200)
  const replay = await refresh(app, body.refresh_token)
  t.equal(replay.statusCode, 401)
  t.match(replay.json(), { code: 'IDENTITY_REFRESH_TOKEN_REUSED' })
  t.match((await tokenState(app, { session_id: sid })).session, { active: false }, 're-use revoked the session')
  const newest = await refresh(app, first.json().refresh_token)
  t.equal(newest.statusCode, 401, 'the legitimate newest token dies with the session')
})

inEachStorageMode(t, 'refresh acceptance rules against the database', async (t, mode) => {
  const { app, svc } = await identityApp(t, mode)
  await registerUser(app, 'root')
  const { body } = await registerUser(app, 'eve')
  const userId = body.user.id

  // Two concurrent refreshes with one token: exactly one wins.
  const [a, b] = await Promise.all([refresh(app, body.refresh_token), refresh(app, body.refresh_token)])
  t.same([a.statusCode, b.statusCode].sort(), [200, 401])
  const live = (a.statusCode === 200 ? a : b).json()

  // A denylisted refresh jti is refused.
  const other = await loginUser(app, 'eve')
  const rc = claimsOf(other.body.refresh_token)
  await svc.transaction(systemCaller(), (tx) =>
    denyToken(tx, {
      jti: rc.jti,
      user_id: userId,
      session_id: rc.session_id,
      token_use: 'refresh',
      expires_at: new Date(rc.exp * 1000).toISOString(),
      revoked_by: 'test',
      reason: 'test',
    }),
  )
  const denied = await refresh(app, other.body.refresh_token)
  t.equal(denied.statusCode, 401)
  t.match(denied.json(), { code: 'IDENTITY_INVALID_REFRESH_TOKEN', message: /revoked/ })

  // User revoke: token_version and token_valid_after move, every older refresh token is refused.
  const revoked = await svc.transaction(systemCaller(), (tx) => revokeUserTokens(tx, userId, 'test'))
  t.equal(revoked?.state.token_version, 2)
  t.match(revoked?.state.token_valid_after, /T\d\d:\d\d:\d\d\.000Z$/, 'whole seconds, like iat')
  const state = await tokenState(app, { user_id: userId })
  t.match(state.user, { token_version: 2, active: true, seq: 2 })
  const afterRevoke = await refresh(app, live.refresh_token)
  t.equal(afterRevoke.statusCode, 401)
  t.match(afterRevoke.json(), { message: /token version/ })

  // A fresh login after the revoke works at once (same second included) and carries the new version.
  const fresh = await loginUser(app, 'eve')
  t.equal(claimsOf(fresh.body.token).token_version, 2)
  t.equal((await refresh(app, fresh.body.refresh_token)).statusCode, 200)

  // Garbage and forged tokens.
  t.equal((await refresh(app, 'not-a-jwt')).statusCode, 401)
  const [h, p] = fresh.body.refresh_token.split('.')
  t.equal((await refresh(app, `${h}.${p}.forgedsignature`)).statusCode, 401)
})

inEachStorageMode(t, 'a refresh token that lived longer than JWT_REFRESH_TTL_SECONDS is refused', async (t, mode) => {
  const { app } = await identityApp(t, mode, { JWT_REFRESH_TTL_SECONDS: '86400' })
  await registerUser(app, 'root')
  const { body } = await registerUser(app, 'finn')
  t.equal(body.refresh_expires_in, 86_400)
  // The same claims, signed with the fleet's key: only the lifetime differs between the two.
  const [h] = body.refresh_token.split('.')
  const resign = (claims: Record<string, unknown>) => {
    const input = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`
    return `${input}.${createHmac('sha256', JWT_SECRET).update(input).digest('base64url')}`
  }
  const claims = claimsOf(body.refresh_token)
  const month = await refresh(app, resign({ ...claims, exp: claims.iat + 30 * 86_400 }))
  t.equal(month.statusCode, 401, 'thirty days where a day is configured')
  t.match(month.json(), { code: 'IDENTITY_INVALID_REFRESH_TOKEN', message: /lifetime/ })
  t.equal((await refresh(app, resign(claims))).statusCode, 200, 'control: the configured lifetime is accepted')
})
