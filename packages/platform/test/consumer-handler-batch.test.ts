// Group commit for handler consumers (service/consumer-handler-batch.ts): the deliveries ready together go to the
// consumer's `batch.handle` at once, no wait added for a lone one; each is acknowledged, redelivered or dead-lettered
// by its own outcome; a `handle` that throws as a whole is called again per delivery. The queue and the fallback
// alone, then on the bus: PostgreSQL + NATS JetStream and SQLite + the in-process bus.
import { type Envelope, SYSTEM_ACTOR } from '@switchboard/contracts'
import { type Delivery, newEnvelope, PoisonMessageError } from '@switchboard/events'
import { inEachStorageMode, storageFixture, waitFor } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import {
  type ConsumerDef,
  createRootLogger,
  defineService,
  type Outcome,
  type ServiceBaseConfig,
  type ServiceContext,
} from '../src/index.ts'
import { deliveryQueue, type HandlerBatch, handleBatch } from '../src/service/consumer-handler-batch.ts'
import { baseConfig } from './helpers/base-config.ts'

const logger = createRootLogger({ level: 'silent' })
const SCOPE = { tenant_id: 'acme', workspace_id: 'support' }
const envelopeOf = (key: string): Envelope =>
  newEnvelope({ type: 'notes.note.added', ...SCOPE, actor: SYSTEM_ACTOR, data: { key } }) as Envelope
let seq = 0
const deliveryOf = (key: string): Delivery => ({
  subject: 'notes.note.added',
  envelope: envelopeOf(key),
  seq: ++seq,
  deliveryCount: 1,
  headers: {},
})
const keyOf = (d: Delivery) => (d.envelope.data as { key: string }).key

/** Writes what it is given unless a key says otherwise: `poison` refused for good, `boom` throws the whole call. */
function recordingBatch(calls: string[][]): HandlerBatch<unknown> {
  return {
    size: () => 8,
    async handle(_svc, deliveries) {
      calls.push(deliveries.map(keyOf))
      if (deliveries.some((d) => keyOf(d) === 'boom')) throw new Error('boom breaks the statement')
      return deliveries.map(
        (d): Outcome =>
          keyOf(d) === 'poison' ? { ok: false, error: new PoisonMessageError('never') } : { ok: true, applied: true },
      )
    },
  }
}

t.test('handleBatch: one call, or each alone when the call throws', async (t) => {
  const calls: string[][] = []
  const batch = recordingBatch(calls)
  const outcomes = await handleBatch(batch, {}, ['a', 'poison', 'b'].map(deliveryOf))
  t.same(calls, [['a', 'poison', 'b']], 'one call for the three')
  t.match(outcomes, [{ ok: true }, { ok: false, error: PoisonMessageError }, { ok: true }], 'the poison one alone')
  calls.length = 0
  const again = await handleBatch(batch, {}, ['c', 'boom', 'd'].map(deliveryOf))
  t.same(calls, [['c', 'boom', 'd'], ['c'], ['boom'], ['d']], 'the batch, then each alone')
  t.match(again, [{ ok: true }, { ok: false, error: { message: 'boom breaks the statement' } }, { ok: true }])
  const short: HandlerBatch<unknown> = { size: () => 2, handle: async () => [{ ok: true, applied: true }] }
  t.match(
    await handleBatch(short, {}, ['e', 'f'].map(deliveryOf)),
    [{ ok: true }, { ok: true }],
    'an answer of the wrong length: each alone',
  )
})

t.test(
  'deliveryQueue: a lone delivery at once, those of one turn together, the next batch while one runs',
  async (t) => {
    const batches: string[][] = []
    let release = () => {}
    const queue = deliveryQueue(3, async (deliveries) => {
      batches.push(deliveries.map(keyOf))
      if (batches.length === 2) await new Promise<void>((r) => (release = r))
      return deliveries.map(() => ({ ok: true, applied: true }))
    })
    t.equal(await queue.submit(deliveryOf('alone')), true)
    t.same(batches, [['alone']], 'no wait for company')
    const turn = ['a', 'b', 'c', 'd'].map((k) => queue.submit(deliveryOf(k)))
    await new Promise((r) => setImmediate(r))
    const later = ['e', 'f'].map((k) => queue.submit(deliveryOf(k)))
    release()
    await Promise.all([...turn, ...later])
    t.same(batches, [['alone'], ['a', 'b', 'c'], ['d', 'e', 'f']], 'at most 3; d waits for the running batch')
  },
)

interface NotesDb {
  notes: { key: string }
}
type NotesService = ServiceContext<ServiceBaseConfig, NotesDb>

inEachStorageMode(t, 'a handler consumer with a batch, on the bus', async (t, mode) => {
  const store = await storageFixture(t, mode, 'hbt')
  const calls: number[] = []
  const firstSeen: string[] = []
  const notes: ConsumerDef<NotesService> = {
    durable: 'notes-writer',
    stream: 'NOTES',
    subjects: ['notes.>'],
    idempotency: 'handler',
    options: () => ({ maxDeliver: 2, backoffMs: [50] }),
    batch: {
      size: () => 16,
      async handle(svc, deliveries) {
        calls.push(deliveries.length)
        for (const d of deliveries) if (!firstSeen.includes(keyOf(d))) firstSeen.push(keyOf(d))
        if (deliveries.some((d) => keyOf(d) === 'boom')) throw new Error('boom breaks the statement')
        const good = deliveries.filter((d) => keyOf(d) !== 'poison')
        const written = good.length
          ? await svc.db
              .insertInto('notes')
              .values(good.map((d) => ({ key: keyOf(d) })))
              .onConflict((oc) => oc.column('key').doNothing())
              .returning('key')
              .execute()
          : []
        const keys = new Set(written.map((r) => r.key))
        return deliveries.map(
          (d): Outcome =>
            keyOf(d) === 'poison'
              ? { ok: false, error: new PoisonMessageError('not a note') }
              : { ok: true, applied: keys.has(keyOf(d)) },
        )
      },
    },
  }
  const service = defineService<ServiceBaseConfig, NotesDb>({
    unit: { name: 'notes', port: 0, prefixes: ['/api/notes'] },
    loadConfig: () => {
      throw new Error('built with an explicit config')
    },
    migrations: {
      '20261127_0001_notes': {
        up: async (db: Kysely<any>) => {
          await db.schema
            .createTable('notes')
            .addColumn('key', 'text', (c) => c.primaryKey())
            .execute()
        },
      },
    },
    streams: [{ name: 'NOTES', subjects: ['notes.>'] }],
    events: [],
    routes: {},
    consumers: [notes],
  })
  const app = await service.build(baseConfig('notes', store), { logger })
  t.teardown(() => app.close())
  const svc = service.contextOf(app) as NotesService
  const keys = Array.from({ length: 100 }, (_, i) => `n${i}`)
  const sent = [...keys.slice(0, 40), 'poison', ...keys.slice(40, 70), 'boom', ...keys.slice(70), 'n5']
  for (const key of sent) await svc.bus.publish('notes.note.added', envelopeOf(key))
  await app.ready()
  await app.whenStarted()
  await waitFor(async () => {
    const rows = await svc.db.selectFrom('notes').select('key').execute()
    return rows.length >= 100 ? rows : undefined
  }, 15_000)
  t.same(
    (await svc.db.selectFrom('notes').select('key').execute()).map((r) => r.key).sort(),
    [...keys].sort(),
    'every note once (n5 twice published, once written)',
  )
  t.ok(
    calls.some((n) => n > 1),
    `several deliveries per call (calls: ${calls.join(', ')})`,
  )
  // One pull loop with deliveries in flight, not one loop per delivery pulling runs of its own (whose batches took
  // the 1st, 11th, 21st… message together): a consumer whose events depend on earlier ones may batch.
  t.same(firstSeen, sent.slice(0, -1), 'the batches took the deliveries in stream order')
  const letters = await waitFor(async () => {
    const l = await svc.bus.deadLetters({ consumer: 'notes-writer' })
    return l.length >= 2 ? l : undefined
  }, 15_000)
  const byKey = new Map(letters.map((l) => [keyOf({ envelope: l.envelope } as Delivery), l]))
  t.same([...byKey.keys()].sort(), ['boom', 'poison'], 'only the two bad ones dead-lettered')
  t.match(byKey.get('poison'), { deliveries: 1 }, 'poison: at its first delivery')
  t.match(byKey.get('boom'), { deliveries: 2, error: /boom breaks the statement/ }, 'a failure: after maxDeliver')
})
