// Issue 19 §4, the gateway's part: its streams, its token-state subscription and the denylist used to be set up in
// Fastify's onReady, bounded by the 10 s plugin timeout. Now it is live at once and ready when they are done; a
// slow bus (here the test's own: a subscribe answering 12 s late) only delays readiness.
import { setTimeout as sleep } from 'node:timers/promises'
import { createMemoryBus, type EventBus } from '@switchboard/events'
import { createCache } from '@switchboard/platform'
import t from 'tap'
import { build } from '../src/build.ts'
import { logger, testConfig } from './fixtures/gateway.ts'
import { startUpstream } from './fixtures/upstream.ts'

t.test('a token-state subscription that takes 12 s: live at once, ready once subscribed', async (t) => {
  const upstream = await startUpstream()
  t.teardown(() => upstream.close())
  const memory = createMemoryBus({ logger })
  t.teardown(() => memory.close())
  const bus = new Proxy(memory, {
    get(target, prop) {
      if (prop === 'subscribe')
        return async (...args: Parameters<EventBus['subscribe']>) => {
          await sleep(12_000)
          return target.subscribe(...args)
        }
      const value = Reflect.get(target, prop)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  const cache = createCache({ driver: 'memory', prefix: 'gw:' })
  const app = await build(testConfig(upstream.url), { logger, bus, cache })
  t.teardown(() => app.close())
  const began = Date.now()
  const base = await app.listen({ host: '127.0.0.1', port: 0 })
  t.ok(Date.now() - began < 5000, `listening within 5 s (${Date.now() - began} ms)`)
  t.equal((await fetch(`${base}/health`)).status, 200, 'live at once')
  const starting = await fetch(`${base}/ready`)
  t.equal(starting.status, 503)
  t.match(await starting.json(), {
    status: 'starting',
    startup: { status: 'starting', pending: ['token-state events', 'denylist'] },
  })
  await app.whenStarted()
  t.ok(Date.now() - began >= 12_000, 'started once subscribed')
  const ready = await fetch(`${base}/ready`)
  t.equal(ready.status, 200, await ready.text())
})
