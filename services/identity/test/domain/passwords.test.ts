import t from 'tap'
import { createPasswordHasher } from '../../src/domain/passwords.ts'

t.test('argon2id hash and verify', async (t) => {
  const hasher = await createPasswordHasher({ memory_cost_kib: 1024, time_cost: 1, parallelism: 1 })
  const hash = await hasher.hash('correct horse battery')
  t.match(hash, /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/)
  t.equal(await hasher.verify(hash, 'correct horse battery'), true)
  t.equal(await hasher.verify(hash, 'wrong'), false)
  t.not(await hasher.hash('correct horse battery'), hash, 'salted')
  t.equal(await hasher.verify('not a hash', 'x'), false, 'a malformed stored hash is a failed login, not a throw')
  await t.resolves(hasher.dummyVerify('anything'))
})

t.test('a hash made with other costs still verifies (costs live in the hash)', async (t) => {
  const old = await createPasswordHasher({ memory_cost_kib: 2048, time_cost: 2, parallelism: 1 })
  const current = await createPasswordHasher({ memory_cost_kib: 1024, time_cost: 1, parallelism: 1 })
  t.equal(await current.verify(await old.hash('pw-12345678'), 'pw-12345678'), true)
})
