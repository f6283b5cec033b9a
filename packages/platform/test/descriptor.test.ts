// The chores the descriptor takes off every service: contract-checked events in one unit of work, consumers
// that apply an event once, and workers that run on schedule without overlapping, once per interval across
// replicas when asked, and are awaited on close. On both storage modes (PostgreSQL/Redis/NATS and SQLite/memory).
import { Type } from '@sinclair/typebox'
import { signInternalPrincipal } from '@switchboard/auth'
import { type Envelope, PRINCIPAL_HEADER, type Principal } from '@switchboard/contracts'
import { createMemoryBus, type EventBus } from '@switchboard/events'
import { inEachStorageMode, storageFixture, waitFor } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import {
  callerOf,
  createCache,
  createRootLogger,
  defineService,
  type RouteModule,
  type ServiceBaseConfig,
  type ServiceContext,
  type ServiceDefinition,
  systemCaller,
  type WorkerDef,
} from '../src/index.ts'
import { baseConfig, TEST_SECRET } from './helpers/base-config.ts'

const logger = createRootLogger({ level: 'silent' })

const NoteEvents = {
  added: { type: 'notes.note.added', data: Type.Object({ note_id: Type.String(), length: Type.Integer() }) },
} as const
const Undeclared = { type: 'notes.note.secret', data: Type.Object({}) }

interface NotesDb {
  notes: { id: string; body: string }
  seen: { event_id: string; note_id: string }
}
type NotesService = ServiceContext<ServiceBaseConfig, NotesDb>

const migrations = {
  '20261124_0001_notes': {
    up: async (db: Kysely<any>) => {
      await db.schema
        .createTable('notes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('body', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('seen')
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('note_id', 'text', (c) => c.notNull())
        .execute()
    },
  },
}

const routes: RouteModule<NotesService> = async (app, svc) => {
  app.post('/api/notes', async (request, reply) => {
    const { id, body, bad, undeclared } = request.body as {
      id: string
      body: string
      bad?: string
      undeclared?: string
    }
    await svc.transaction(callerOf(request), async (tx) => {
      await tx.db.insertInto('notes').values({ id, body }).execute()
      if (undeclared) await tx.emit(Undeclared as never, {} as never)
      // a payload off the contract: `length` must be an integer
      await tx.emit(NoteEvents.added, { note_id: id, length: bad ? (bad as never) : body.length })
    })
    return reply.code(201).send({ id })
  })
}

const principal: Principal = {
  user_id: 'u1',
  kind: 'admin',
  roles: ['admin'],
  permissions: ['*'],
  tenant_id: 'acme',
  workspace_id: 'support',
  session_id: 's1',
  jti: 'j1',
  token_tenant_id: 'acme',
  token_workspace_id: 'support',
}

function notesService(
  workers: WorkerDef<NotesService>[] = [],
  extra: Pick<ServiceDefinition<ServiceBaseConfig, NotesDb, Record<never, never>>, 'shutdown'> = {},
) {
  return defineService<ServiceBaseConfig, NotesDb>({
    ...extra,
    unit: { name: 'notes', port: 0, prefixes: ['/api/notes'] },
    loadConfig: () => {
      throw new Error('built with an explicit config')
    },
    migrations,
    streams: [{ name: 'NOTES', subjects: ['notes.>'] }],
    events: [NoteEvents],
    routes: { protected: [routes] },
    consumers: [
      {
        durable: 'notes-seen',
        stream: 'NOTES',
        subjects: ['notes.>'],
        idempotency: 'inbox',
        options: () => ({ maxDeliver: 3, backoffMs: [50] }),
        async handle(_svc, delivery, tx) {
          const data = delivery.envelope.data as { note_id: string }
          await tx.db.insertInto('seen').values({ event_id: delivery.envelope.id, note_id: data.note_id }).execute()
        },
      },
    ],
    workers,
  })
}

inEachStorageMode(t, 'descriptor', async (t, mode) => {
  const store = await storageFixture(t, mode, 'dsc')
  const notes = notesService()
  const app = await notes.build(baseConfig('notes', store), { logger })
  t.teardown(() => app.close())
  await app.ready()
  const svc = notes.contextOf(app)
  const headers = { [PRINCIPAL_HEADER]: await signInternalPrincipal(TEST_SECRET, principal) }

  t.test('a change and its checked event commit together; the consumer applies it once', async (t) => {
    const res = await app.inject({ method: 'POST', url: '/api/notes', headers, payload: { id: 'n1', body: 'hello' } })
    t.equal(res.statusCode, 201)
    await waitFor(async () => (await svc.db.selectFrom('seen').selectAll().execute()).length === 1)
    const seen = await svc.db.selectFrom('seen').selectAll().execute()
    t.same(
      seen.map((r) => r.note_id),
      ['n1'],
    )
    // the same event again (a redelivery or a replay) past the bus's own dedup: the inbox has it
    const envelopes: Envelope[] = []
    await svc.bus.replay('NOTES', { fromSeq: 1 }, async (d) => {
      envelopes.push(d.envelope)
    })
    await svc.bus.publish('notes.note.added', envelopes[0]!, { msgId: `${envelopes[0]!.id}-again` })
    await new Promise((r) => setTimeout(r, 300))
    t.equal((await svc.db.selectFrom('seen').selectAll().execute()).length, 1, 'applied once')
    // a service with consumers gets the inbox's retention worker: nothing is old yet, then past the retention it goes
    t.equal(await svc.workers.runOnce('inbox-retention'), 0, 'within the retention: kept')
    const later = new Date(Date.now() + (svc.config.inbox_retention_days + 1) * 86_400_000)
    t.ok(Number(await svc.workers.runOnce('inbox-retention', later)) >= 1, 'past it: pruned')
  })

  t.test('a payload off its contract is refused and nothing of the change is kept', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/notes',
      headers,
      payload: { id: 'n2', body: 'x', bad: 'not-an-integer' },
    })
    t.equal(res.statusCode, 500, 'a programming error')
    t.notOk(await svc.db.selectFrom('notes').where('id', '=', 'n2').selectAll().executeTakeFirst(), 'rolled back')
  })

  t.test('an event the service did not declare is refused', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/notes',
      headers,
      payload: { id: 'n3', body: 'x', undeclared: 'yes' },
    })
    t.equal(res.statusCode, 500)
    t.notOk(await svc.db.selectFrom('notes').where('id', '=', 'n3').selectAll().executeTakeFirst())
  })

  t.test('commands outside a request act as the system', async (t) => {
    await svc.transaction(systemCaller({ tenant_id: 'acme', workspace_id: 'support' }), async (tx) => {
      await tx.db.insertInto('notes').values({ id: 'n4', body: 'sys' }).execute()
      await tx.emit(NoteEvents.added, { note_id: 'n4', length: 3 })
    })
    const events: Array<{ actor: { user_id: string }; tenant_id: string }> = []
    await waitFor(async () => {
      events.length = 0
      await svc.bus.replay('NOTES', { fromSeq: 1 }, async (d) => {
        if ((d.envelope.data as { note_id: string }).note_id === 'n4') events.push(d.envelope as never)
      })
      return events.length > 0
    })
    t.equal(events[0]!.actor.user_id, 'system')
    t.equal(events[0]!.tenant_id, 'acme')
  })
})

t.test('workers: on schedule, never overlapping, awaited on close, counted', async (t) => {
  const store = await storageFixture(t, 'sqlite', 'wk')
  let running = 0
  let most = 0
  let runs = 0
  let finishedAfterClose = false
  const slow: WorkerDef<NotesService> = {
    name: 'slow',
    every: () => 20,
    runs: 'every-replica',
    immediately: true,
    async run(_svc, { signal }) {
      running++
      most = Math.max(most, running)
      runs++
      await new Promise((r) => setTimeout(r, 60))
      running--
      if (signal.aborted) finishedAfterClose = true
      return 1
    },
  }
  const notes = notesService([slow])
  const app = await notes.build(baseConfig('notes', store), { logger })
  await app.ready()
  await waitFor(async () => runs >= 3)
  t.equal(most, 1, 'a run never starts while the previous one is going')
  const metrics = await app.inject({ url: '/metrics' })
  t.match(metrics.body, /worker_runs_total\{worker="slow",outcome="ok",service="notes"\} [1-9]/)
  await app.close()
  const after = runs
  await new Promise((r) => setTimeout(r, 100))
  t.equal(runs, after, 'no run after close')
  t.equal(running, 0, 'the run in progress was awaited')
  t.ok(finishedAfterClose, 'the run saw the abort signal of the close')
})

inEachStorageMode(
  t,
  'shutdown: after the workers stopped, while consumers and the relay still run',
  async (t, mode) => {
    const store = await storageFixture(t, mode, 'sd')
    const order: string[] = []
    let started = false
    const waiting: WorkerDef<NotesService> = {
      name: 'waiting',
      every: () => 60_000,
      runs: 'every-replica',
      immediately: true,
      async run(_svc, { signal }) {
        started = true
        await new Promise((r) => signal.addEventListener('abort', r, { once: true }))
        order.push('worker stopped')
        return 0
      },
    }
    const notes = notesService([waiting], {
      async shutdown(svc) {
        order.push('shutdown')
        // what the service's own background work still commits is published and consumed
        await svc.transaction(systemCaller({ tenant_id: 'acme', workspace_id: 'support' }), async (tx) => {
          await tx.db.insertInto('notes').values({ id: 'late', body: 'x' }).execute()
          await tx.emit(NoteEvents.added, { note_id: 'late', length: 1 })
        })
        await waitFor(
          async () => (await svc.db.selectFrom('seen').selectAll().where('note_id', '=', 'late').execute()).length > 0,
        )
        order.push('consumed during shutdown')
      },
    })
    const app = await notes.build(baseConfig('notes', store), { logger })
    t.teardown(() => app.close())
    await app.ready()
    await waitFor(() => started)
    await app.close()
    t.same(order, ['worker stopped', 'shutdown', 'consumed during shutdown'])

    const failing = notesService([], {
      async shutdown() {
        throw new Error('could not stop')
      },
    })
    const sub = mode === 'postgres' ? await storageFixture(t, mode, 'sdf') : store
    const other = await failing.build({ ...baseConfig('notes', store), database: sub.database }, { logger })
    await other.ready()
    await t.resolves(other.close(), 'a failing shutdown is logged; the rest still stops and closes')
  },
)

inEachStorageMode(t, 'one-replica workers run on one replica per interval', async (t, mode) => {
  const store = await storageFixture(t, mode, 'lease')
  // two replicas: the same cache (Redis or one shared in-memory cache) and bus, their own databases
  const cache = createCache(store.cache)
  const bus: EventBus | undefined = mode === 'sqlite' ? createMemoryBus({ logger }) : undefined
  t.teardown(async () => {
    await cache.close()
    await bus?.close()
  })
  const ran: string[] = []
  const worker = (replica: string): WorkerDef<NotesService> => ({
    name: 'sweep',
    every: () => 400,
    runs: 'one-replica',
    immediately: true,
    async run() {
      ran.push(replica)
      return 0
    },
  })
  const apps = await Promise.all(
    ['a', 'b'].map(async (replica) => {
      const sub = mode === 'postgres' ? await storageFixture(t, mode, `lease${replica}`) : store
      const app = await notesService([worker(replica)]).build(
        { ...baseConfig('notes', store), database: sub.database },
        { logger, cache, ...(bus ? { bus } : {}) },
      )
      t.teardown(() => app.close())
      return app
    }),
  )
  await Promise.all(apps.map((a) => a.ready()))
  await new Promise((r) => setTimeout(r, 1000))
  t.ok(ran.length >= 2 && ran.length <= 4, `about one run per interval in all (${ran.length} in ~2.5 intervals)`)
  t.equal(new Set(ran).size, 1, `all by the replica holding the lease (${ran.join(' ')})`)
})
