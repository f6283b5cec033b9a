import type { Delivery } from '@switchboard/events'
import { systemCaller } from '@switchboard/platform'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { revokeSession, revokeUserSessions, setUserRole } from '../../src/commands/revocation.ts'
import { claimsOf, identityApp, loginUser, registerUser, tokenState } from '../helpers/app.ts'

inEachStorageMode(t, 'shared revocation operations', async (t, mode) => {
  const { app, svc } = await identityApp(t, mode)
  const events: Delivery[] = []
  await svc.bus.subscribe('identity.>', async (d) => {
    events.push(d)
  })
  await registerUser(app, 'root')
  const { body } = await registerUser(app, 'finn')
  const userId = body.user.id
  const s1 = claimsOf(body.token).session_id
  const s2 = claimsOf((await loginUser(app, 'finn')).body.token).session_id
  const inTx = <T>(work: Parameters<typeof svc.transaction<T>>[1]) => svc.transaction(systemCaller(), work)

  // A session of another user is not found; a second revoke changes nothing.
  t.equal(await inTx((tx) => revokeSession(tx, s1, 'x', 'someone-else')), undefined)
  const once = await inTx((tx) => revokeSession(tx, s1, 'admin', userId))
  t.match(once, { changed: true, session: { status: 'revoked', revoke_reason: 'admin' } })
  const twice = await inTx((tx) => revokeSession(tx, s1, 'admin', userId))
  t.match(twice, { changed: false, session: { status: 'revoked' } })
  const all = await inTx((tx) => revokeUserSessions(tx, userId, { reason: 'all' }))
  t.same(
    all.map((s) => s.id),
    [s2],
  )

  // Role change: new role, tokens revoked (they carry roles), role_changed for projections.
  const changed = await inTx((tx) => setUserRole(tx, userId, 'agent'))
  t.match(changed, { role: 'agent', token_version: 2 })
  t.match((await tokenState(app, { user_id: userId })).user, { token_version: 2 })
  const roleEvent = await waitFor(() => events.find((e) => e.envelope.type === 'identity.user.role_changed'))
  t.same(roleEvent.envelope.data, { user_id: userId, role: 'agent' })
  t.equal(roleEvent.subject, 'identity.user.role_changed')
  const fresh = await loginUser(app, 'finn')
  t.match(claimsOf(fresh.body.token), { roles: ['agent'], token_version: 2 })
})
