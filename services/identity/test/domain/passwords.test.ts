import t from 'tap'
import { createPasswordHasher } from '../../src/domain/passwords.ts'
import { CONTACT_PASSWORD_HASH } from '../../src/domain/usernames.ts'

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

t.test("a contact account's marker never verifies, at a real verify's cost", async (t) => {
  // costs high enough that a verify is milliseconds, so skipping the work would show even on a loaded machine
  const hasher = await createPasswordHasher({ memory_cost_kib: 8192, time_cost: 3, parallelism: 1 })
  const real = await hasher.hash('pw-12345678')
  const timed = async (stored: string) => {
    const times: number[] = []
    for (let i = 0; i < 3; i++) {
      const start = performance.now()
      t.equal(await hasher.verify(stored, 'pw-wrong'), false)
      times.push(performance.now() - start)
    }
    return times.sort((a, b) => a - b)[1] ?? 0
  }
  t.equal(await hasher.verify(CONTACT_PASSWORD_HASH, CONTACT_PASSWORD_HASH), false, 'not even its own text')
  const [wrong, contact] = [await timed(real), await timed(CONTACT_PASSWORD_HASH)]
  t.ok(contact > wrong * 0.3, `contact ${contact.toFixed(1)} ms vs wrong password ${wrong.toFixed(1)} ms`)
})
