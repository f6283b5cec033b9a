import type { Claims } from '@switchboard/auth'
import type { SessionTokenState, UserTokenState } from '@switchboard/contracts'
import t from 'tap'
import { evaluate } from '../src/token-state/evaluate.ts'
import { createLocalStore } from '../src/token-state/local-store.ts'
import { sessionIsNewer, userIsNewer } from '../src/token-state/merge.ts'

const now = Math.floor(Date.now() / 1000)
const claims: Claims = {
  sub: 'u',
  user_id: 'u',
  jti: 'j',
  iat: now,
  exp: now + 600,
  token_use: 'access',
  token_version: 2,
  session_id: 's',
  session_token_version: 3,
  roles: ['agent'],
  tenant_id: 'acme',
  workspace_id: 'w',
}
const user: UserTokenState = { user_id: 'u', active: true, token_version: 2, token_valid_after: null, seq: 1 }
const session: SessionTokenState = { session_id: 's', user_id: 'u', active: true, token_version: 3 }

t.test('evaluate', async (t) => {
  const v = (
    c: Partial<Claims>,
    u: UserTokenState | null = user,
    s: SessionTokenState | null = session,
    kind = 'agent',
  ) => evaluate({ ...claims, ...c }, kind as 'agent', u, s).kind
  t.equal(v({}), 'ok')
  t.equal(v({}, null), 'refuse', 'user missing')
  t.equal(v({}, { ...user, active: false }), 'refuse')
  t.equal(v({ token_version: 1 }), 'refuse')
  t.equal(v({ token_version: 3 }), 'stale')
  t.equal(v({}, user, null), 'refuse', 'session missing')
  t.equal(v({}, user, { ...session, active: false }), 'refuse')
  t.equal(v({}, user, { ...session, user_id: 'other' }), 'refuse')
  t.equal(v({ session_token_version: 2 }), 'refuse')
  t.equal(v({ session_token_version: 4 }), 'stale')
  t.equal(v({ session_id: '' }, user, null), 'refuse', 'user token without session')
  t.equal(v({ session_id: '' }, null, null, 'service'), 'ok', 'service token: no identity state needed')
  t.equal(
    v({ session_id: '' }, { ...user, active: false }, null, 'service'),
    'refuse',
    'but a known, inactive one is refused',
  )
  const tva = (ms: number) => ({ ...user, token_valid_after: new Date(ms).toISOString() })
  t.equal(v({ iat: now - 10 }, tva(now * 1000)), 'refuse', 'issued before token_valid_after')
  t.equal(v({ iat: now }, tva(now * 1000 + 700)), 'ok', 'same second as token_valid_after')
  t.equal(v({ iat: now }, tva((now + 1) * 1000)), 'refuse')
})

t.test('merge rules', async (t) => {
  t.ok(userIsNewer({ ...user, seq: 2 }, user))
  t.notOk(userIsNewer(user, user))
  t.notOk(userIsNewer({ ...user, seq: 0, token_version: 9 }, user), 'seq decides, not the version')
  t.ok(userIsNewer(user, null))
  t.ok(sessionIsNewer({ ...session, token_version: 4 }, session))
  t.notOk(sessionIsNewer({ ...session, token_version: 2, active: false }, session), 'lower version never wins')
  t.ok(sessionIsNewer({ ...session, active: false }, session), 'revoked wins at equal version')
  t.notOk(sessionIsNewer(session, { ...session, active: false }), 'a revoked session stays revoked')
})

t.test('local store', async (t) => {
  const store = createLocalStore({ max: 10, ttlMs: 10_000, negativeTtlMs: 50 })
  t.ok(store.putUser('u', user))
  t.notOk(store.putUser('u', { ...user, seq: 0, active: false }), 'older snapshot ignored')
  t.equal(store.getUser('u')?.state?.active, true)
  store.putSession('x', null)
  t.same(store.getSession('x'), { state: null }, 'negative entry')
  await new Promise((r) => setTimeout(r, 80))
  t.equal(store.getSession('x'), undefined, 'negative entries expire quickly')
  store.deny('j1', Date.now() + 1000)
  store.deny('j2', Date.now() - 1)
  t.ok(store.isDenied('j1'))
  t.notOk(store.isDenied('j2'), 'already expired denials are not kept')
  t.notOk(store.isDenied('j1', Date.now() + 2000))
  store.pruneDenied(Date.now() + 2000)
  t.equal(store.deniedCount, 0)
})
