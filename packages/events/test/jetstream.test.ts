import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { engineUrls, uniqueId } from '@switchboard/testing'
import t from 'tap'
import { createJetStreamBus } from '../src/jetstream.ts'
import { appendOutbox, createOutboxRelay } from '../src/outbox.ts'
import { eventBusContract } from './contract.ts'
import { silentLogger, testEnvelope, waitFor } from './fixtures/helpers.ts'
import { openSqlite } from './fixtures/sqlite.ts'
import { migrate } from './outbox-contract.ts'

const url = engineUrls().natsUrl
// One prefix per file, a numbered one per case, so that cases never share a stream.
const base = uniqueId('ev')
let n = 0
const prefixes: string[] = []
const nextPrefix = () => {
  const p = `${base}_${++n}`
  prefixes.push(p)
  return p
}

t.teardown(async () => {
  const nc = await connect({ servers: url })
  const jsm = await jetstreamManager(nc)
  const mine = base.toUpperCase()
  for await (const name of jsm.streams.names()) if (name.startsWith(`${mine}_`)) await jsm.streams.delete(name)
  await nc.close()
})

eventBusContract(t, async (metrics) =>
  createJetStreamBus({ url, prefix: nextPrefix(), logger: silentLogger(), metrics, duplicateWindowMs: 60_000 }),
)

t.test('jetstream: the prefix isolates streams and subjects on the server', async (t) => {
  const prefix = nextPrefix()
  const bus = await createJetStreamBus({ url, prefix, logger: silentLogger() })
  t.teardown(() => bus.close())
  await bus.ensureStreams([{ name: 'ORDERS', subjects: ['orders.>'], maxAgeMs: 3_600_000 }])
  const nc = await connect({ servers: url })
  t.teardown(() => nc.close())
  const jsm = await jetstreamManager(nc)
  const info = await jsm.streams.info(`${prefix}_ORDERS`.toUpperCase())
  t.same(info.config.subjects, [`${prefix}.orders.>`])
  t.equal(info.config.retention, 'limits')
  t.equal(info.config.max_age, 3_600_000 * 1_000_000)
  const dlq = await jsm.streams.info(`${prefix}_DLQ`.toUpperCase())
  t.same(dlq.config.subjects, [`${prefix}.dlq.>`])
  const ack = await bus.publish('orders.order.placed', testEnvelope({}))
  const stored = await jsm.streams.getMessage(info.config.name, { seq: ack.seq })
  t.equal(stored?.subject, `${prefix}.orders.order.placed`)
})

t.test('jetstream: outbox → relay → a subscription on another replica, quickly', async (t) => {
  const prefix = nextPrefix()
  const publisher = await createJetStreamBus({ url, prefix, logger: silentLogger() })
  const replica = await createJetStreamBus({ url, prefix, logger: silentLogger() })
  const db = openSqlite()
  await migrate(db)
  const relay = createOutboxRelay({ db, bus: publisher, logger: silentLogger(), intervalMs: 60_000 })
  t.teardown(async () => {
    await relay.stop()
    await Promise.all([publisher.close(), replica.close(), db.destroy()])
  })
  await publisher.ensureStreams([{ name: 'IDENTITY', subjects: ['identity.>'] }])
  const seenAt = new Map<string, number>()
  await replica.subscribe('identity.token.*', async (d) => void seenAt.set(d.envelope.id, performance.now()))
  relay.start()
  const timings: number[] = []
  for (let i = 0; i < 5; i++) {
    const e = testEnvelope({ jti: `j${i}` }, 'identity.token.revoked')
    await db.transaction().execute((trx) => appendOutbox(trx, 'identity.token.revoked', e))
    const start = performance.now()
    relay.kick()
    await waitFor(() => seenAt.has(e.id), 'the revocation on the replica', 2_000)
    timings.push(seenAt.get(e.id)! - start)
  }
  const median = [...timings].sort((a, b) => a - b)[2]!
  t.ok(median < 100, `kick → replica ${timings.map((x) => x.toFixed(1)).join(', ')} ms`)
})
