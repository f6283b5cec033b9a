import { type Cache, createCache } from '@switchboard/platform'
import { engine, redisPrefix } from '@switchboard/testing'
import t, { type Test } from 'tap'
import { createBreaker } from '../../src/breaker/breaker.ts'
import type { Breaker } from '../../src/breaker/port.ts'
import type { BreakerSettings } from '../../src/config.ts'

const SETTINGS: BreakerSettings = {
  enabled: true,
  max_failures: 5,
  reset_timeout_ms: 60_000,
  half_open_max_requests: 3,
}

/** Two replicas' caches: two Redis clients on one prefix, or one in-memory cache (one process). */
async function sharedCaches(t: Test, kind: 'redis' | 'memory'): Promise<[Cache, Cache]> {
  if (kind === 'memory') {
    const one = createCache({ driver: 'memory', prefix: 'ai:' })
    return [one, one]
  }
  const url = await engine('redis')
  const prefix = redisPrefix('brk')
  const a = createCache({ driver: 'redis', url, prefix })
  const b = createCache({ driver: 'redis', url, prefix })
  t.teardown(async () => {
    const keys = await a.redis!.keys(`${prefix}*`)
    if (keys.length > 0) await a.redis!.del(...keys)
    await Promise.all([a.close(), b.close()])
  })
  return [a, b]
}

/** Breaker `name` on replicas A and B, on one clock the test moves. */
async function replicas(t: Test, kind: 'redis' | 'memory', settings = SETTINGS, name = 'primary') {
  const [ca, cb] = await sharedCaches(t, kind)
  const clock = { now: 1_700_000_000_000 }
  const now = () => clock.now
  return { a: createBreaker(ca, name, settings, now), b: createBreaker(cb, name, settings, now), clock, cache: ca }
}

async function fail(breaker: Breaker, times: number) {
  for (let i = 0; i < times; i++) await breaker.failure(await breaker.acquire())
}

for (const kind of ['redis', 'memory'] as const) {
  t.test(`${kind}: opens after 5 consecutive failures on A, and is open on B`, async (t) => {
    const { a, b, clock, cache } = await replicas(t, kind)
    await fail(a, 4)
    t.match(await b.snapshot(), { name: 'primary', state: 'closed', failure_count: 4, opened_at: null })
    await b.success(await b.acquire())
    t.equal((await a.snapshot()).failure_count, 0, 'a success while closed clears the count')

    await fail(a, 4)
    await fail(b, 1)
    t.match(await b.snapshot(), { state: 'open', failure_count: 5, opened_at: clock.now, half_open_requests: 0 })
    t.same(await a.acquire(), { allowed: false, trial: false, state: 'open' })
    t.same(await b.acquire(), { allowed: false, trial: false, state: 'open' })
    if (kind === 'redis') {
      const hash = await cache.redis!.hgetall(`${cache.prefix}ai:breaker:primary`)
      t.match(hash, { state: 'open', failures: '5' }, 'one hash under the cache prefix')
    }

    clock.now += SETTINGS.reset_timeout_ms - 1
    t.equal((await b.acquire()).allowed, false, 'still open before the cool-down')
  })

  t.test(`${kind}: half-open after the cool-down with exactly 3 trials; a trial success closes it`, async (t) => {
    const { a, b, clock } = await replicas(t, kind)
    await fail(a, 5)
    clock.now += SETTINGS.reset_timeout_ms
    const trials = [await a.acquire(), await b.acquire(), await a.acquire()]
    t.same(trials, Array(3).fill({ allowed: true, trial: true, state: 'half_open' }))
    t.same(await b.acquire(), { allowed: false, trial: false, state: 'half_open' }, 'a fourth waits')
    t.match(await a.snapshot(), { state: 'half_open', half_open_requests: 3 })

    await b.success(trials[0]!)
    t.match(await a.snapshot(), { state: 'closed', failure_count: 0, opened_at: null, half_open_requests: 0 })
    t.same(await a.acquire(), { allowed: true, trial: false, state: 'closed' })
    await a.failure(trials[1]!)
    t.match(await b.snapshot(), { state: 'closed', failure_count: 1 }, 'a late trial failure counts as a failure')
  })

  t.test(`${kind}: a trial failure opens it again, for another cool-down`, async (t) => {
    const { a, b, clock } = await replicas(t, kind)
    await fail(a, 5)
    clock.now += SETTINGS.reset_timeout_ms
    const trial = await b.acquire()
    const other = await a.acquire()
    clock.now += 1000
    await b.failure(trial)
    t.match(await a.snapshot(), { state: 'open', opened_at: clock.now, half_open_requests: 0 })
    const reopened = clock.now
    await a.failure(other)
    t.equal((await a.snapshot()).opened_at, reopened, "another trial's failure does not extend it")
    clock.now += SETTINGS.reset_timeout_ms - 1
    t.equal((await a.acquire()).allowed, false)
    clock.now += 1
    t.match(await a.acquire(), { allowed: true, trial: true })
  })

  t.test(`${kind}: outcomes of calls let through before it opened change nothing`, async (t) => {
    const { a, b, clock } = await replicas(t, kind)
    const early = await a.acquire()
    const late = await a.acquire()
    await fail(b, 5)
    const opened = (await a.snapshot()).opened_at
    clock.now += 10
    await a.failure(early)
    await a.success(late)
    t.match(await b.snapshot(), { state: 'open', opened_at: opened, failure_count: 5 })
    clock.now += SETTINGS.reset_timeout_ms
    await b.acquire()
    await a.success(early)
    t.equal((await a.snapshot()).state, 'half_open', 'only a trial closes a half-open breaker')
  })

  t.test(`${kind}: reset closes it on every replica`, async (t) => {
    const { a, b } = await replicas(t, kind)
    await fail(a, 5)
    await b.reset()
    t.match(await a.snapshot(), { state: 'closed', failure_count: 0, opened_at: null, half_open_requests: 0 })
    t.same(await a.acquire(), { allowed: true, trial: false, state: 'closed' })
  })

  t.test(`${kind}: 50 concurrent acquires while half-open let exactly 3 through`, async (t) => {
    const { a, b, clock } = await replicas(t, kind)
    await fail(a, 5)
    clock.now += SETTINGS.reset_timeout_ms
    const permits = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).acquire()))
    t.equal(permits.filter((p) => p.allowed).length, 3)
    t.ok(permits.filter((p) => p.allowed).every((p) => p.trial))
    t.equal((await b.snapshot()).half_open_requests, 3)
  })

  t.test(`${kind}: trials that never report back do not keep it half-open for good`, async (t) => {
    const { a, clock } = await replicas(t, kind)
    await fail(a, 5)
    clock.now += SETTINGS.reset_timeout_ms
    for (let i = 0; i < 3; i++) await a.acquire()
    t.equal((await a.acquire()).allowed, false)
    clock.now += SETTINGS.reset_timeout_ms
    t.same(await a.acquire(), { allowed: true, trial: true, state: 'half_open' }, 'a new round after another cool-down')
    t.equal((await a.acquire()).allowed, true)
    t.equal((await a.acquire()).allowed, true)
    t.equal((await a.acquire()).allowed, false)
  })

  t.test(`${kind}: settings are honoured; breakers are separate by name; disabled never opens`, async (t) => {
    const settings = { ...SETTINGS, max_failures: 2, reset_timeout_ms: 1000, half_open_max_requests: 1 }
    const { a, b, clock, cache } = await replicas(t, kind, settings, 'llm')
    await fail(a, 2)
    t.equal((await b.acquire()).allowed, false)
    clock.now += 1000
    t.match(await b.acquire(), { allowed: true, trial: true })
    t.equal((await a.acquire()).allowed, false, 'one trial only')

    const other = createBreaker(cache, 'compatibility', SETTINGS, () => clock.now)
    t.equal((await other.snapshot()).state, 'closed', 'another name, another breaker')

    const off = createBreaker(cache, 'off', { ...SETTINGS, enabled: false }, () => clock.now)
    await fail(off, 20)
    t.same(await off.acquire(), { allowed: true, trial: false, state: 'closed' })
    t.match(await off.snapshot(), { state: 'closed', failure_count: 0 })
  })
}

t.test('redis: a store that fails lets calls through and never throws', async (t) => {
  const url = await engine('redis')
  const cache = createCache({ driver: 'redis', url, prefix: redisPrefix('brk') })
  const errors: unknown[] = []
  const breaker = createBreaker(cache, 'primary', SETTINGS, Date.now, (err) => errors.push(err))
  await cache.close()
  t.same(await breaker.acquire(), { allowed: true, trial: false, state: 'closed' })
  await breaker.failure({ allowed: true, trial: false, state: 'closed' })
  await breaker.success({ allowed: true, trial: true, state: 'half_open' })
  t.match(await breaker.snapshot(), { state: 'closed', error: /unreadable/ })
  t.equal(errors.length, 4, 'each failure reported')
  await t.rejects(breaker.reset(), 'an explicit reset that did not happen says so')
})
