import type { Delivery } from '@switchboard/events'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { revokeSession, revokeUserSessions, setUserRole } from '../../src/domain/revocation.ts'
import { inTransaction } from '../../src/events/publish.ts'
import { claimsOf, identityApp, loginUser, registerUser, tokenState } from '../helpers/app.ts'

inEachStorageMode(t, 'shared revocation operations', async (t, mode) => {
  const app = await identityApp(t, mode)
  const base = app as unknown as FastifyInstance
  const events: Delivery[] = []
  await app.bus.subscribe('identity.>', async (d) => {
    events.push(d)
  })
  await registerUser(app, 'root')
  const { body } = await registerUser(app, 'finn')
  const userId = body.user.id
  const s1 = claimsOf(body.token).session_id
  const s2 = claimsOf((await loginUser(app, 'finn')).body.token).session_id
  const ctx = (trx: Parameters<Parameters<typeof inTransaction>[1]>[0]) => ({ trx, outbox: app.outbox })

  // A session of another user is not found; a second revoke changes nothing.
  t.equal(await inTransaction(base, (trx) => revokeSession(ctx(trx), s1, 'x', 'someone-else')), undefined)
  const once = await inTransaction(base, (trx) => revokeSession(ctx(trx), s1, 'admin', userId))
  t.match(once, { changed: true, session: { status: 'revoked', revoke_reason: 'admin' } })
  const twice = await inTransaction(base, (trx) => revokeSession(ctx(trx), s1, 'admin', userId))
  t.match(twice, { changed: false, session: { status: 'revoked' } })
  const all = await inTransaction(base, (trx) => revokeUserSessions(ctx(trx), userId, { reason: 'all' }))
  t.same(
    all.map((s) => s.id),
    [s2],
  )

  // Role change: new role, tokens revoked (they carry roles), role_changed for projections.
  const changed = await inTransaction(base, (trx) => setUserRole(ctx(trx), userId, 'agent'))
  t.match(changed, { role: 'agent', token_version: 2 })
  t.match((await tokenState(app, { user_id: userId })).user, { token_version: 2 })
  const roleEvent = await waitFor(() => events.find((e) => e.envelope.type === 'identity.user.role_changed'))
  t.same(roleEvent.envelope.data, { user_id: userId, role: 'agent' })
  t.equal(roleEvent.subject, 'identity.user.role_changed')
  const fresh = await loginUser(app, 'finn')
  t.match(claimsOf(fresh.body.token), { roles: ['agent'], token_version: 2 })
})
