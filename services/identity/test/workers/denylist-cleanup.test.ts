import { inEachStorageMode, waitFor } from '@switchboard/testing'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { denyToken } from '../../src/domain/revocation.ts'
import { inTransaction } from '../../src/events/publish.ts'
import { cleanupDenylist } from '../../src/workers/denylist-cleanup.ts'
import { identityApp } from '../helpers/app.ts'

inEachStorageMode(t, 'denylist cleanup', async (t, mode) => {
  const app = await identityApp(t, mode, { DENYLIST_CLEANUP_INTERVAL_SECONDS: '1' })
  const base = app as unknown as FastifyInstance
  const now = Date.now()
  const deny = (jti: string, expires: number) =>
    inTransaction(base, (trx) =>
      denyToken(
        { trx, outbox: app.outbox },
        {
          jti,
          user_id: 'u',
          session_id: '',
          token_use: 'access',
          expires_at: new Date(expires).toISOString(),
          revoked_by: 'test',
          reason: 'test',
        },
      ),
    )
  const first = await deny('live', now + 3600_000)
  t.equal(first.created, true)
  t.equal((await deny('live', now + 3600_000)).created, false, 'idempotent')
  await deny('expired', now - 60_000)
  await deny('later', now + 120_000)

  t.equal(await cleanupDenylist(base, new Date(now)), 1, 'one pass removes what expired')
  const left = async () =>
    (await app.db.selectFrom('revoked_tokens').select('jti').orderBy('jti').execute()).map((r) => r.jti)
  t.same(await left(), ['later', 'live'])
  t.equal(await cleanupDenylist(base, new Date(now + 600_000)), 1)
  t.same(await left(), ['live'])

  // The worker started on ready runs by itself.
  await deny('soon', Date.now() + 200)
  await waitFor(async () => !(await left()).includes('soon'), 4000)
  t.same(await left(), ['live'])
})
