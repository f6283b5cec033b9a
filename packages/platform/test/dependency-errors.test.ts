// Issue 19 §3: a dependency that does not answer is answered 503 DEPENDENCY_TIMEOUT / DEPENDENCY_UNAVAILABLE with
// Retry-After by every unit, never a bare 500: one rule in the platform's error handler, logged at warn with its
// cause and counted in errors_total{category="dependency",module=<engine>}. Each engine's real failure is provoked
// here — through a TCP proxy this test owns (frozen, or closed), a pool held busy, a statement past its timeout, a
// SQLite write lock held by another connection — never by pausing the machine's shared servers.
import { DatabaseSync } from 'node:sqlite'
import { newEnvelope } from '@switchboard/events'
import { type Storage, startTcpProxy, storageFixture } from '@switchboard/testing'
import { type Kysely, sql } from 'kysely'
import t, { type Test } from 'tap'
import {
  createRootLogger,
  defineService,
  type RouteModule,
  type ServiceBaseConfig,
  type ServiceContext,
} from '../src/index.ts'
import { baseConfig } from './helpers/base-config.ts'

type ProbeService = ServiceContext<ServiceBaseConfig, { probes: { id: string } }>

const routes: RouteModule<ProbeService> = async (app, svc) => {
  app.get('/api/probe/cache', async () => ({ value: await svc.cache.get('k') }))
  app.get('/api/probe/db', async () => (await sql<{ one: number }>`select 1 as one`.execute(svc.db)).rows[0])
  app.get('/api/probe/db-slow', async () => {
    await svc.db.transaction().execute(async (trx) => {
      await sql`set local statement_timeout = 100`.execute(trx)
      await sql`select pg_sleep(2)`.execute(trx)
    })
    return {}
  })
  // holds one pooled connection for a while
  app.post('/api/probe/hold', async () => {
    await sql`select pg_sleep(1.5)`.execute(svc.db)
    return {}
  })
  app.post('/api/probe/write', async () => {
    await svc.db.insertInto('probes').values({ id: crypto.randomUUID() }).execute()
    return {}
  })
  app.post('/api/probe/publish', async () => {
    const envelope = newEnvelope({
      type: 'probe.ping.sent',
      tenant_id: 't',
      workspace_id: 'w',
      actor: { user_id: 'probe', kind: 'service' },
      data: {},
    })
    await svc.bus.publish('probe.ping.sent', envelope)
    return {}
  })
  app.get('/api/probe/bug', async () => {
    throw new Error('select * from secrets: a bug, not a dependency')
  })
}

const probe = defineService<ServiceBaseConfig, { probes: { id: string } }>({
  unit: { name: 'probe', port: 0, prefixes: ['/api/probe'] },
  loadConfig: () => {
    throw new Error('built with an explicit config')
  },
  migrations: {
    '20261201_0001_probes': {
      up: async (db: Kysely<any>) => {
        await db.schema
          .createTable('probes')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .execute()
      },
    },
  },
  streams: [{ name: 'PROBE', subjects: ['probe.>'] }],
  events: [],
  routes: { public: [routes] },
})

/** The probe service on `store` (parts replaced by `over`), with what it logs at warn and above. */
async function probeApp(t: Test, store: Storage, over: Partial<ServiceBaseConfig> = {}) {
  const lines: Array<{ level: number; msg: string; err?: { message: string }; dependency?: unknown }> = []
  const logger = createRootLogger({
    level: 'warn',
    destination: { write: (l: string) => void lines.push(JSON.parse(l)) },
  })
  const config = baseConfig('probe', store, { log_level: 'warn', ...over })
  const app = await probe.build(config, { logger })
  t.teardown(() => app.close())
  await app.ready()
  return { app, lines }
}

type ProbeApp = Awaited<ReturnType<typeof probeApp>>

/** The documented answer, its log line and its count. */
async function isDependencyFailure(
  t: Test,
  { app, lines }: ProbeApp,
  res: { statusCode: number; headers: Record<string, unknown>; json(): any; body: string },
  expected: { code: 'DEPENDENCY_TIMEOUT' | 'DEPENDENCY_UNAVAILABLE'; engine: string; role: string; count?: number },
) {
  t.equal(res.statusCode, 503, res.body)
  t.equal(res.headers['retry-after'], '1', 'Retry-After')
  const body = res.json()
  t.same(Object.keys(body).sort(), ['code', 'error', 'message', 'request_id'], 'the documented body')
  t.match(body, { error: 'unavailable', code: expected.code })
  t.match(body.message, new RegExp(`^${expected.role} (did not answer in time|is unavailable); try again$`))
  const logged = lines.filter((l) => l.msg === 'dependency failed')
  t.ok(logged.length > 0, 'logged')
  t.match(
    logged.at(-1),
    { level: 40, dependency: { engine: expected.engine }, err: { message: String } },
    'at warn, with its cause',
  )
  // (background work — the outbox relay's poll — may log its own failure to reach the same dependency)
  t.notOk(
    lines.some((l) => l.msg === 'request failed'),
    'not logged as a failed request (error)',
  )
  const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body
  t.match(
    metrics,
    new RegExp(
      `errors_total\\{severity="warn",category="dependency",module="${expected.engine}",service="probe"\\} ${expected.count ?? 1}\\b`,
    ),
    'counted',
  )
}

t.test('Redis: a command that times out, a server that went away', async (t) => {
  const store = await storageFixture(t, 'postgres', 'dep')
  const proxy = await startTcpProxy((store.cache as { url: string }).url)
  t.teardown(() => proxy.close())
  const probe = await probeApp(t, store, {
    cache: { ...store.cache, url: proxy.urlFor((store.cache as { url: string }).url) } as never,
  })
  t.equal((await probe.app.inject({ method: 'GET', url: '/api/probe/cache' })).statusCode, 200)

  proxy.freeze() // accepts, never answers
  const frozen = await probe.app.inject({ method: 'GET', url: '/api/probe/cache' })
  await isDependencyFailure(t, probe, frozen, { code: 'DEPENDENCY_TIMEOUT', engine: 'redis', role: 'the cache' })

  await proxy.close() // the port refuses from now on
  const gone = await probe.app.inject({ method: 'GET', url: '/api/probe/cache' })
  t.equal(gone.statusCode, 503, gone.body)
  t.match(gone.json().code, /^DEPENDENCY_(TIMEOUT|UNAVAILABLE)$/)
  const ready = await probe.app.inject({ method: 'GET', url: '/ready' })
  t.equal(ready.statusCode, 503)
  t.equal(ready.json().checks.cache, 'failed')
})

t.test('PostgreSQL: a statement past its timeout, a pool that stays busy, a server that went away', async (t) => {
  const store = await storageFixture(t, 'postgres', 'dep')
  const url = (store.database as { url: string }).url
  const proxy = await startTcpProxy(url)
  t.teardown(() => proxy.close())
  const database = { ...store.database, url: proxy.urlFor(url), pool_max: 1, connect_timeout_ms: 300 }
  const probe = await probeApp(t, store, { database: database as never })

  const slow = await probe.app.inject({ method: 'GET', url: '/api/probe/db-slow' })
  await isDependencyFailure(t, probe, slow, { code: 'DEPENDENCY_TIMEOUT', engine: 'postgres', role: 'the database' })

  // the pool's one connection is busy for 1.5 s; the next query waits 300 ms for it, then gives up
  const holding = probe.app.inject({ method: 'POST', url: '/api/probe/hold' })
  await new Promise((r) => setTimeout(r, 100))
  const busy = await probe.app.inject({ method: 'GET', url: '/api/probe/db' })
  await isDependencyFailure(t, probe, busy, {
    code: 'DEPENDENCY_TIMEOUT',
    engine: 'postgres',
    role: 'the database',
    count: 2,
  })
  t.equal((await holding).statusCode, 200)
  t.equal((await probe.app.inject({ method: 'GET', url: '/api/probe/db' })).statusCode, 200, 'free again')

  // the server goes away under a pooled connection: the process survives, the queries get 503
  await proxy.close()
  for (let i = 0; i < 2; i++) {
    const gone = await probe.app.inject({ method: 'GET', url: '/api/probe/db' })
    t.equal(gone.statusCode, 503, gone.body)
    t.equal(gone.json().code, 'DEPENDENCY_UNAVAILABLE')
  }
  const metrics = (await probe.app.inject({ method: 'GET', url: '/metrics' })).body
  t.match(metrics, /errors_total\{severity="warn",category="dependency",module="postgres",service="probe"\} 4\b/)
})

t.test('SQLite: a write that waited out busy_timeout on a lock another connection holds', async (t) => {
  const store = await storageFixture(t, 'sqlite', 'dep')
  const file = `${t.testdir()}/probe.sqlite`
  const probe = await probeApp(t, store, { database: { driver: 'sqlite', file } })
  t.equal((await probe.app.inject({ method: 'POST', url: '/api/probe/write' })).statusCode, 200)
  const other = new DatabaseSync(file)
  t.teardown(() => other.close())
  other.exec('BEGIN IMMEDIATE')
  const locked = await probe.app.inject({ method: 'POST', url: '/api/probe/write' })
  other.exec('ROLLBACK')
  await isDependencyFailure(t, probe, locked, { code: 'DEPENDENCY_TIMEOUT', engine: 'sqlite', role: 'the database' })
  t.equal((await probe.app.inject({ method: 'POST', url: '/api/probe/write' })).statusCode, 200, 'free again')
})

t.test('NATS: a publish while the server is gone', async (t) => {
  const store = await storageFixture(t, 'postgres', 'dep')
  const url = (store.bus as { url: string }).url
  const proxy = await startTcpProxy(url)
  t.teardown(() => proxy.close())
  const probe = await probeApp(t, store, { bus: { ...store.bus, url: proxy.urlFor(url) } as never })
  t.equal((await probe.app.inject({ method: 'POST', url: '/api/probe/publish' })).statusCode, 200)
  await proxy.close()
  const gone = await probe.app.inject({ method: 'POST', url: '/api/probe/publish' })
  await isDependencyFailure(t, probe, gone, { code: 'DEPENDENCY_TIMEOUT', engine: 'nats', role: 'the event bus' })
})

t.test('anything else is still a 500 that says nothing', async (t) => {
  const store = await storageFixture(t, 'sqlite', 'dep')
  const { app } = await probeApp(t, store)
  const res = await app.inject({ method: 'GET', url: '/api/probe/bug' })
  t.equal(res.statusCode, 500)
  t.match(res.json(), { code: 'INTERNAL', message: 'internal error' })
  t.notOk(res.headers['retry-after'])
})
