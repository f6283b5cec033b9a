// Issue 19 §4: a service's relay, consumers, workers and startup hook used to start inside Fastify's onReady, which
// its plugin timeout bounds (10 s): on a loaded machine a slow consumer start failed the unit. Now a unit is live
// at once (/health, it listens) and ready (/ready 200) when its consumers are attached; a slow start only delays
// readiness, a failing one is retried, and close is clean while a start is still in progress. The slowness is the
// test's own: a bus whose consume answers late (never a sleep in production code).
import { setTimeout as sleep } from 'node:timers/promises'
import { Type } from '@sinclair/typebox'
import { createMemoryBus, type EventBus, newEnvelope } from '@switchboard/events'
import { storageFixture, waitFor } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t, { type Test } from 'tap'
import {
  createRootLogger,
  defineService,
  type RouteModule,
  type ServiceBaseConfig,
  type ServiceContext,
  systemCaller,
} from '../src/index.ts'
import { baseConfig } from './helpers/base-config.ts'

const PingEvents = { sent: { type: 'pings.ping.sent', data: Type.Object({ n: Type.Integer() }) } } as const
type PingDb = { seen: { event_id: string } }
type PingService = ServiceContext<ServiceBaseConfig, PingDb>

const routes: RouteModule<PingService> = async (app) => {
  app.get('/api/pings/hello', async () => ({ hello: 'world' }))
}

const pings = defineService<ServiceBaseConfig, PingDb>({
  unit: { name: 'pings', port: 0, prefixes: ['/api/pings'] },
  loadConfig: () => {
    throw new Error('built with an explicit config')
  },
  migrations: {
    '20261201_0001_seen': {
      up: async (db: Kysely<any>) => {
        await db.schema
          .createTable('seen')
          .addColumn('event_id', 'text', (c) => c.primaryKey())
          .execute()
      },
    },
  },
  streams: [{ name: 'PINGS', subjects: ['pings.>'] }],
  events: [PingEvents],
  routes: { public: [routes] },
  consumers: [
    {
      durable: 'pings-seen',
      stream: 'PINGS',
      subjects: ['pings.>'],
      idempotency: 'inbox',
      async handle(_svc, delivery, tx) {
        await tx.db.insertInto('seen').values({ event_id: delivery.envelope.id }).execute()
      },
    },
  ],
})

/**
 * The memory bus, with `consume` answering as the test says (late, or failing first): the test's slowness.
 * `delivered` counts what the consumers attached through it were handed.
 */
function testBus(
  t: Test,
  consume: (attach: () => Promise<unknown>) => Promise<unknown>,
): EventBus & { delivered: number } {
  const bus = createMemoryBus({ logger: createRootLogger({ level: 'silent' }) })
  t.teardown(() => bus.close())
  const counts = { delivered: 0 }
  return new Proxy(bus, {
    get(target, prop) {
      if (prop === 'delivered') return counts.delivered
      if (prop === 'consume')
        return (opts: Parameters<EventBus['consume']>[0], handler: Parameters<EventBus['consume']>[1]) =>
          consume(() =>
            target.consume(opts, (delivery) => {
              counts.delivered++
              return handler(delivery)
            }),
          )
      const value = Reflect.get(target, prop)
      return typeof value === 'function' ? value.bind(target) : value
    },
  }) as EventBus & { delivered: number }
}

async function pingsApp(t: Test, bus: EventBus) {
  const store = await storageFixture(t, 'sqlite', 'start')
  const lines: Array<{ level: number; msg: string; step?: string }> = []
  const logger = createRootLogger({
    level: 'info',
    destination: { write: (l: string) => void lines.push(JSON.parse(l)) },
  })
  const config = baseConfig('pings', store, { log_level: 'info' })
  const app = await pings.build(config, { logger, bus })
  t.teardown(() => app.close())
  return { app, lines, svc: pings.contextOf(app) }
}

const get = async (base: string, path: string) => {
  const res = await fetch(`${base}${path}`)
  return { status: res.status, body: (await res.json()) as Record<string, any> }
}

t.test('a consumer whose start takes 12 s: live at once, ready once attached, nothing lost', async (t) => {
  const bus = testBus(t, async (attach) => {
    await sleep(12_000)
    return attach()
  })
  const { app, lines, svc } = await pingsApp(t, bus)
  const began = Date.now()
  const base = await app.listen({ host: '127.0.0.1', port: 0 })
  t.ok(Date.now() - began < 5000, `listening within 5 s (${Date.now() - began} ms), past no plugin timeout`)

  t.same(await get(base, '/health'), { status: 200, body: { status: 'ok' } }, 'live at once')
  const starting = await get(base, '/ready')
  t.equal(starting.status, 503, 'not ready while its consumers are not attached')
  t.match(starting.body, {
    status: 'starting',
    checks: { database: 'ok', cache: 'ok', bus: 'ok' },
    startup: { status: 'starting', pending: ['consumers', 'workers'], failures: 0 },
  })
  t.same(await get(base, '/api/pings/hello'), { status: 200, body: { hello: 'world' } }, 'its routes answer meanwhile')

  // an event emitted before the consumer is attached reaches it once attached (the relay started first)
  await svc.transaction(systemCaller({ tenant_id: 't', workspace_id: 'w' }), (tx) => tx.emit(PingEvents.sent, { n: 1 }))
  await app.whenStarted()
  t.ok(Date.now() - began >= 12_000, 'started once the slow consumer was attached')
  const ready = await get(base, '/ready')
  t.equal(ready.status, 200, JSON.stringify(ready.body))
  t.same(ready.body, { status: 'ready', checks: { database: 'ok', cache: 'ok', bus: 'ok' } })
  await waitFor(async () => (await svc.db.selectFrom('seen').selectAll().execute()).length === 1)
  t.notOk(
    lines.some((l) => l.level >= 50),
    'nothing logged at error (no hook timeout)',
  )
  t.ok(
    lines.some((l) => l.msg === 'started: ready'),
    'the start is logged when done',
  )
})

t.test('a failing consumer start is retried, and /ready says why meanwhile', async (t) => {
  let attempts = 0
  const bus = testBus(t, async (attach) => {
    if (++attempts <= 2) throw new Error('no responders: JetStream is not available yet')
    return attach()
  })
  const { app, lines } = await pingsApp(t, bus)
  await app.ready()
  const failing = await waitFor(async () => {
    const res = await app.inject({ method: 'GET', url: '/ready' })
    return res.json().startup?.failures >= 1 ? res : undefined
  })
  t.equal(failing.statusCode, 503)
  t.match(failing.json().startup, { status: 'starting', pending: ['consumers', 'workers'], error: /no responders/ })
  await app.whenStarted()
  t.equal(attempts, 3, 'attached on the third attempt')
  t.equal((await app.inject({ method: 'GET', url: '/ready' })).statusCode, 200)
  t.equal(lines.filter((l) => l.msg === 'start step failed; retrying' && l.step === 'consumers').length, 2)
})

t.test('closing while the start is still in progress: prompt and clean', async (t) => {
  // attached 3 s in: after close gave up waiting for it (2 s)
  const bus = testBus(t, async (attach) => {
    await sleep(3000)
    return attach()
  })
  const { app } = await pingsApp(t, bus)
  await app.ready()
  const neverStarted = t.rejects(app.whenStarted(), /closed before it started/, 'whenStarted says it never started')
  await sleep(200)
  const began = Date.now()
  await app.close()
  t.ok(Date.now() - began < 4000, `closed in ${Date.now() - began} ms`)
  await neverStarted
  // the late consume lands after close: it is stopped at once, so an event published now is handled by nobody
  await sleep(1500)
  const before = bus.delivered
  await bus.publish(
    'pings.ping.sent',
    newEnvelope({
      type: 'pings.ping.sent',
      tenant_id: 't',
      workspace_id: 'w',
      actor: { user_id: 'test', kind: 'service' },
      data: { n: 2 },
    }),
  )
  await sleep(500)
  t.equal(bus.delivered, before, 'no consumer of the closed service is left attached')
})
