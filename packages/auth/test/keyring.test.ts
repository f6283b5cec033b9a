import t from 'tap'
import { buildKeyring, keyringFromEnv, kidOf } from '../src/keyring.ts'

t.test('from env', async (t) => {
  const k = keyringFromEnv({ JWT_SECRET: 'a', JWT_PREVIOUS_SECRETS: 'b, c,,a' })
  t.equal(k.current.kid, kidOf('a'))
  t.same(
    k.previous.map((p) => p.secret),
    ['b', 'c'],
    'deduplicated, current excluded',
  )
  const files: Record<string, string> = { '/s': 'filesecret\n', '/p': 'old1\nold2\n' }
  const f = keyringFromEnv(
    { JWT_SECRET: 'ignored', JWT_SECRET_FILE: '/s', JWT_PREVIOUS_SECRETS_FILE: '/p' },
    (p) => files[p] ?? '',
  )
  t.equal(f.current.secret, 'filesecret')
  t.same(
    f.previous.map((p) => p.secret),
    ['old1', 'old2'],
  )
  t.throws(() => keyringFromEnv({}), /empty/)
  t.throws(() => buildKeyring(''), /empty/)
})
