// Typed, batchable consumers (service/consumers.ts, consumer-batch.ts, event-handlers.ts): each handler gets its
// contract's payload checked first (a mismatch is dead-lettered on its first delivery); a `batch` consumer applies
// several deliveries in one transaction whose unit of work is flushed once, replays them one by one when one of them
// throws, and still applies each event once (inbox). On PostgreSQL + NATS JetStream and on SQLite + the in-process bus.
import { Type } from '@sinclair/typebox'
import { type Envelope, SYSTEM_ACTOR } from '@switchboard/contracts'
import { type Delivery, isPoison, newEnvelope } from '@switchboard/events'
import { inEachStorageMode, storageFixture, waitFor } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import {
  createRootLogger,
  defineService,
  type InboxConsumer,
  on,
  replayInbox,
  type ServiceBaseConfig,
  type ServiceContext,
} from '../src/index.ts'
import { baseConfig } from './helpers/base-config.ts'

const logger = createRootLogger({ level: 'silent' })

const TallyEvents = {
  added: { type: 'tally.count.added', data: Type.Object({ key: Type.String(), by: Type.Integer() }) },
  reset: { type: 'tally.count.reset', data: Type.Object({ key: Type.String() }) },
} as const

interface TallyDb {
  tallies: { key: string; count: number }
  seen: { event_id: string }
}
type TallyService = ServiceContext<ServiceBaseConfig, TallyDb>

const migrations = {
  '20261127_0001_tallies': {
    up: async (db: Kysely<any>) => {
      await db.schema
        .createTable('tallies')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('seen')
        .addColumn('event_id', 'text', (c) => c.notNull())
        .execute()
    },
  },
}

/** The batch's unit of work: counters added up in memory, written once by the flush. */
interface Work {
  sums: Map<string, number>
  events: number
}

/** What the batches did, for the assertions: the events of each flushed batch (committed or not), opens. */
interface Log {
  opened: number
  flushed: number[]
}

function tallyConsumer(log: Log): InboxConsumer<TallyService, Work> {
  return {
    durable: 'tally-counts',
    stream: 'TALLY',
    subjects: ['tally.>'],
    idempotency: 'inbox',
    options: () => ({ maxDeliver: 2, backoffMs: [50] }),
    handlers: [
      on(TallyEvents.added, async (event, tx) => {
        // a handler that cannot apply its event (its transaction rolls back, the event is redelivered)
        if (event.data.key === 'boom') throw new Error('boom cannot be counted')
        tx.work.sums.set(event.data.key, (tx.work.sums.get(event.data.key) ?? 0) + event.data.by)
        tx.work.events++
        await tx.db.insertInto('seen').values({ event_id: event.envelope.id }).execute()
      }),
    ],
    batch: {
      size: 50,
      lanes: 20,
      open() {
        log.opened++
        return { sums: new Map(), events: 0 }
      },
      async flush(work, tx) {
        log.flushed.push(work.events)
        for (const [key, by] of [...work.sums].sort()) {
          await tx.db
            .insertInto('tallies')
            .values({ key, count: by })
            .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ count: eb('tallies.count', '+', by) })))
            .execute()
        }
      },
    },
  }
}

function tallyService(log: Log) {
  return defineService<ServiceBaseConfig, TallyDb>({
    unit: { name: 'tally', port: 0, prefixes: ['/api/tally'] },
    loadConfig: () => {
      throw new Error('built with an explicit config')
    },
    migrations,
    streams: [{ name: 'TALLY', subjects: ['tally.>'] }],
    events: [],
    routes: {},
    consumers: [tallyConsumer(log)],
  })
}

const SCOPE = { tenant_id: 'acme', workspace_id: 'support' }
const envelopeOf = (type: string, data: unknown): Envelope =>
  newEnvelope({ type, ...SCOPE, actor: SYSTEM_ACTOR, data }) as Envelope
let seq = 0
const deliveryOf = (envelope: Envelope): Delivery => ({
  subject: envelope.type,
  envelope,
  seq: ++seq,
  deliveryCount: 1,
  headers: {},
})
const added = (key: string, by = 1) => deliveryOf(envelopeOf(TallyEvents.added.type, { key, by }))

async function tallies(svc: TallyService): Promise<Record<string, number>> {
  const rows = await svc.db.selectFrom('tallies').selectAll().orderBy('key').execute()
  return Object.fromEntries(rows.map((r) => [r.key, Number(r.count)]))
}

inEachStorageMode(t, 'typed, batched consumers', async (t, mode) => {
  const store = await storageFixture(t, mode, 'cns')
  const log: Log = { opened: 0, flushed: [] }
  const tally = tallyService(log)
  const def = tallyConsumer(log)

  await t.test('a batch: one transaction, its unit of work flushed once; each event once (inbox)', async (t) => {
    const app = await tally.build(baseConfig('tally', store), { logger })
    t.teardown(() => app.close())
    const svc = tally.contextOf(app) as TallyService
    const a = added('a', 2)
    const outcomes = await replayInbox(svc, def, [a, added('b', 3), a, added('a', 5)])
    t.same(
      outcomes.map((o) => o.ok && o.applied),
      [true, true, false, true],
      'the copy of an event in the batch is seen already',
    )
    t.same(log.flushed, [3], 'one flush for the whole batch, with its three events')
    t.equal(log.opened, 1, 'one unit of work')
    t.same(await tallies(svc), { a: 7, b: 3 })
    const again = await replayInbox(svc, def, [a, added('c', 1)])
    t.same(
      again.map((o) => o.ok && o.applied),
      [false, true],
      'an event applied by an earlier batch is skipped',
    )
    t.same(await tallies(svc), { a: 7, b: 3, c: 1 })
    t.equal((await svc.db.selectFrom('seen').selectAll().execute()).length, 4, 'each event applied once')
  })

  await t.test('a batch with an event that throws: rolled back whole, then one by one', async (t) => {
    const app = await tally.build(baseConfig('tally', store), { logger })
    t.teardown(() => app.close())
    const svc = tally.contextOf(app) as TallyService
    log.opened = 0
    log.flushed = []
    const before = await tallies(svc)
    const outcomes = await replayInbox(svc, def, [added('d', 1), added('boom'), added('d', 10)])
    t.match(outcomes[0], { ok: true, applied: true }, 'the event before it applied')
    t.match(outcomes[1], { ok: false, error: { message: 'boom cannot be counted' } }, 'it fails alone')
    t.match(outcomes[2], { ok: true, applied: true }, 'the event after it applied')
    t.equal(log.opened, 4, 'the batch, then each of its three events alone')
    t.same(log.flushed, [1, 1], 'only the two single transactions that held flushed (the batch threw first)')
    t.same(await tallies(svc), { ...before, d: 11 }, 'nothing of the rolled-back batch counted twice')
  })

  await t.test('a payload off its contract never enters a batch: PoisonMessageError', async (t) => {
    const app = await tally.build(baseConfig('tally', store), { logger })
    t.teardown(() => app.close())
    const svc = tally.contextOf(app) as TallyService
    log.opened = 0
    const bad = deliveryOf(envelopeOf(TallyEvents.added.type, { key: 'e', by: 'many' }))
    const other = deliveryOf(envelopeOf('tally.count.renamed', { anything: true }))
    const outcomes = await replayInbox(svc, def, [bad, added('e', 4), other])
    t.equal(outcomes[0]!.ok, false)
    const error = (outcomes[0] as { error: Error }).error
    t.ok(isPoison(error), 'a poison message')
    t.match(error.message, /tally\.count\.added .* does not match its contract: \/by/, 'naming the field')
    t.same(outcomes.slice(1), [
      { ok: true, applied: true },
      { ok: true, applied: true },
    ])
    t.equal(log.opened, 1, 'the others in one batch (an event of no handler is acknowledged)')
    t.equal((await tallies(svc)).e, 4)
  })

  await t.test('on the bus: batches of the backlog, poison dead-lettered at once, a failure alone', async (t) => {
    // 60 events published at once: while one batch commits, the consumer's lanes gather the next
    const app = await tally.build(baseConfig('tally', store), { logger })
    t.teardown(() => app.close())
    const svc = tally.contextOf(app) as TallyService
    log.opened = 0
    log.flushed = []
    const dup = envelopeOf(TallyEvents.added.type, { key: 'live', by: 1 })
    const poison = envelopeOf(TallyEvents.added.type, { key: 'live' })
    const boom = envelopeOf(TallyEvents.added.type, { key: 'boom', by: 1 })
    const publish = (e: Envelope, msgId?: string) => svc.bus.publish(e.type, e, msgId ? { msgId } : {})
    await app.ready()
    await publish(dup)
    await publish(poison)
    await publish(boom)
    for (let i = 0; i < 60; i++) await publish(envelopeOf(TallyEvents.added.type, { key: 'live', by: 1 }))
    await publish(dup, `${dup.id}-again`) // the same event published again (a relay retry past the dedup window)
    await waitFor(async () => ((await tallies(svc)).live === 61 ? true : undefined), 15_000)
    t.equal((await tallies(svc)).live, 61, 'every good event counted once, the copy not again')
    const dead = await waitFor(async () => {
      const letters = await svc.bus.deadLetters({ consumer: def.durable })
      return letters.length >= 2 ? letters : undefined
    }, 15_000)
    const byId = new Map(dead.map((d) => [d.envelope.id, d]))
    t.match(byId.get(poison.id), { deliveries: 1, error: /does not match its contract/ }, 'poison: first delivery')
    t.match(byId.get(boom.id), { deliveries: 2, error: /boom cannot be counted/ }, 'the failing one: after maxDeliver')
    t.ok(
      log.flushed.some((n) => n > 1),
      `several deliveries in one transaction (batches: ${log.flushed.join(', ')})`,
    )
    // a batch holding the failing event throws before its flush: what was flushed is what was applied
    t.equal(
      log.flushed.reduce((a, n) => a + n, 0),
      61,
      'the flushed events are the applied ones',
    )
  })
})
