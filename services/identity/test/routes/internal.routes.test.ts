import { inEachStorageMode } from '@switchboard/testing'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { denyToken } from '../../src/domain/revocation.ts'
import { inTransaction } from '../../src/events/publish.ts'
import { as, identityApp, principal, registerUser, tokenState } from '../helpers/app.ts'

inEachStorageMode(t, 'internal token-state endpoints', async (t, mode) => {
  const app = await identityApp(t, mode)
  const { body } = await registerUser(app, 'root')

  const anonymous = await app.inject({
    method: 'GET',
    url: '/internal/token-state',
    query: { user_id: body.user.id },
  })
  t.equal(anonymous.statusCode, 401)
  const asAdmin = await app.inject({
    method: 'GET',
    url: '/internal/token-state',
    query: { user_id: body.user.id },
    headers: await as(principal({ kind: 'admin', user_id: body.user.id, roles: ['admin'] })),
  })
  t.equal(asAdmin.statusCode, 403)
  t.match(asAdmin.json(), { code: 'IDENTITY_SERVICE_ONLY' })

  t.same(await tokenState(app, { user_id: 'missing', session_id: 'missing' }), { user: null, session: null })
  t.same(await tokenState(app, {}), { user: null, session: null })

  const now = Date.now()
  for (const [jti, offset] of [
    ['j-live', 3600_000],
    ['j-dead', -1000],
  ] as const) {
    await inTransaction(app as unknown as FastifyInstance, (trx) =>
      denyToken(
        { trx, outbox: app.outbox },
        {
          jti,
          user_id: body.user.id,
          session_id: 's1',
          token_use: 'access',
          expires_at: new Date(now + offset).toISOString(),
          revoked_by: 'test',
          reason: 'test',
        },
      ),
    )
  }
  const denied = await app.inject({
    method: 'GET',
    url: '/internal/token-state/denied',
    headers: await as(principal()),
  })
  t.equal(denied.statusCode, 200)
  t.same(denied.json(), {
    items: [
      {
        jti: 'j-live',
        user_id: body.user.id,
        session_id: 's1',
        token_use: 'access',
        expires_at: new Date(now + 3600_000).toISOString(),
      },
    ],
  })
})
