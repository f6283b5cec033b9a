import { systemCaller } from '@switchboard/platform'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { denyToken } from '../../src/commands/revocation.ts'
import { identityApp } from '../helpers/app.ts'

inEachStorageMode(t, 'denylist cleanup', async (t, mode) => {
  const { svc } = await identityApp(t, mode, { DENYLIST_CLEANUP_INTERVAL_SECONDS: '1' })
  const now = Date.now()
  const deny = (jti: string, expires: number) =>
    svc.transaction(systemCaller(), (tx) =>
      denyToken(tx, {
        jti,
        user_id: 'u',
        session_id: '',
        token_use: 'access',
        expires_at: new Date(expires).toISOString(),
        revoked_by: 'test',
        reason: 'test',
      }),
    )
  const first = await deny('live', now + 3600_000)
  t.equal(first.created, true)
  t.equal((await deny('live', now + 3600_000)).created, false, 'idempotent')
  await deny('expired', now - 60_000)
  await deny('later', now + 120_000)

  t.equal(await svc.workers.runOnce('denylist-cleanup', new Date(now)), 1, 'one pass removes what expired')
  const left = async () =>
    (await svc.db.selectFrom('revoked_tokens').select('jti').orderBy('jti').execute()).map((r) => r.jti)
  t.same(await left(), ['later', 'live'])
  t.equal(await svc.workers.runOnce('denylist-cleanup', new Date(now + 600_000)), 1)
  t.same(await left(), ['live'])

  // The worker started on ready runs by itself.
  await deny('soon', Date.now() + 200)
  await waitFor(async () => !(await left()).includes('soon'), 4000)
  t.same(await left(), ['live'])
})
