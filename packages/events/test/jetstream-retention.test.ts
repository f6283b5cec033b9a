// Stream retention on a real JetStream: what an operator configures is applied when a unit starts, what an operator
// set by hand survives a unit's start without configuration, and a changed configuration wins on the next start.
import { type JetStreamManager, jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { engineUrls, uniqueId } from '@switchboard/testing'
import t from 'tap'
import { createJetStreamBus, type JetStreamBusOptions } from '../src/jetstream.ts'
import { wantedStreamConfig } from '../src/jetstream-streams.ts'
import { silentLogger, testEnvelope } from './fixtures/helpers.ts'

const url = engineUrls().natsUrl
const base = uniqueId('ret')
let n = 0
const MS = 1_000_000 // ns per ms
const DAY = 86_400_000
const TICKETS = { name: 'TICKETS', subjects: ['tickets.>'] }
const HUB = { name: 'HUB', subjects: ['hub.>'], maxAgeMs: 60_000 }

const nc = await connect({ servers: url })
const jsm: JetStreamManager = await jetstreamManager(nc)
t.teardown(async () => {
  const mine = base.toUpperCase()
  for await (const name of jsm.streams.names()) if (name.startsWith(`${mine}_`)) await jsm.streams.delete(name)
  await nc.close()
})

/** One unit's start: a bus with these options ensures the streams, then goes away. */
async function start(prefix: string, over: Partial<JetStreamBusOptions> = {}) {
  const bus = await createJetStreamBus({ url, prefix, logger: silentLogger(), ...over })
  try {
    await bus.ensureStreams([TICKETS, HUB])
  } finally {
    await bus.close()
  }
}

const info = async (prefix: string, name: string) => (await jsm.streams.info(`${prefix}_${name}`.toUpperCase())).config

t.test('without configuration a new stream has no limits (as before), HUB its own 60 s', async (t) => {
  const prefix = `${base}_${++n}`
  await start(prefix)
  const tickets = await info(prefix, 'TICKETS')
  t.equal(tickets.max_age, 0)
  t.equal(tickets.max_bytes, -1)
  t.equal(tickets.duplicate_window, 120_000 * MS)
  const dlq = await info(prefix, 'DLQ')
  t.equal(dlq.max_age, 0)
  t.equal(dlq.max_bytes, -1)
  t.equal((await info(prefix, 'HUB')).max_age, 60_000 * MS)
})

t.test('a stream created with configured limits has them; the DLQ its own; HUB keeps its 60 s', async (t) => {
  const prefix = `${base}_${++n}`
  await start(prefix, {
    retention: {
      streams: { maxAgeMs: 14 * DAY, maxBytes: 64 * 1024 * 1024 },
      deadLetters: { maxAgeMs: 30 * DAY, maxBytes: 8 * 1024 * 1024 },
    },
  })
  const tickets = await info(prefix, 'TICKETS')
  t.equal(tickets.max_age, 14 * DAY * MS)
  t.equal(tickets.max_bytes, 64 * 1024 * 1024)
  t.equal(tickets.duplicate_window, 120_000 * MS, 'the duplicate window is under the age: unchanged')
  const dlq = await info(prefix, 'DLQ')
  t.equal(dlq.max_age, 30 * DAY * MS)
  t.equal(dlq.max_bytes, 8 * 1024 * 1024)
  const hub = await info(prefix, 'HUB')
  t.equal(hub.max_age, 60_000 * MS, "a stream's own age wins over the configured one")
  t.equal(hub.max_bytes, -1, 'and it takes no configured size')
})

t.test('a hand-set age and size survive a restart without configuration', async (t) => {
  const prefix = `${base}_${++n}`
  await start(prefix)
  // the operator: nats stream edit <PREFIX>_TICKETS --max-age 1h --max-bytes 1MB; the same on DLQ
  for (const name of ['TICKETS', 'DLQ']) {
    const config = await info(prefix, name)
    await jsm.streams.update(config.name, { ...config, max_age: 3_600_000 * MS, max_bytes: 1_048_576 })
  }
  await start(prefix)
  await start(prefix, { retention: { streams: {}, deadLetters: {} } })
  for (const name of ['TICKETS', 'DLQ']) {
    const config = await info(prefix, name)
    t.equal(config.max_age, 3_600_000 * MS, `${name}: the hand-set age is kept`)
    t.equal(config.max_bytes, 1_048_576, `${name}: the hand-set size is kept`)
  }
})

t.test('a hand-set age shorter than the duplicate window: the window follows it on a start', async (t) => {
  const prefix = `${base}_${++n}`
  await start(prefix)
  const config = await info(prefix, 'TICKETS')
  await jsm.streams.update(config.name, { ...config, max_age: 30_000 * MS, duplicate_window: 30_000 * MS })
  await start(prefix)
  const after = await info(prefix, 'TICKETS')
  t.equal(after.max_age, 30_000 * MS)
  t.equal(after.duplicate_window, 30_000 * MS, 'capped at the age, which the server requires')
})

t.test('a changed configuration is applied on the next start; 0 lifts a limit', async (t) => {
  const prefix = `${base}_${++n}`
  await start(prefix, { retention: { streams: { maxAgeMs: 7 * DAY }, deadLetters: { maxAgeMs: 7 * DAY } } })
  t.equal((await info(prefix, 'TICKETS')).max_age, 7 * DAY * MS)

  await start(prefix, {
    retention: { streams: { maxAgeMs: 30 * DAY, maxBytes: 2_097_152 }, deadLetters: { maxAgeMs: 90 * DAY } },
  })
  const longer = await info(prefix, 'TICKETS')
  t.equal(longer.max_age, 30 * DAY * MS)
  t.equal(longer.max_bytes, 2_097_152)
  t.equal((await info(prefix, 'DLQ')).max_age, 90 * DAY * MS)

  // only the size configured now: the age stays at what it was
  await start(prefix, { retention: { streams: { maxBytes: 0 } } })
  const sizeLifted = await info(prefix, 'TICKETS')
  t.equal(sizeLifted.max_age, 30 * DAY * MS, 'an age not configured is left as it is')
  t.equal(sizeLifted.max_bytes, -1, 'maxBytes 0: no size limit')

  await start(prefix, { retention: { streams: { maxAgeMs: 0 }, deadLetters: { maxAgeMs: 0 } } })
  t.equal((await info(prefix, 'TICKETS')).max_age, 0, 'maxAgeMs 0: kept until removed')
  t.equal((await info(prefix, 'DLQ')).max_age, 0)
  t.equal((await info(prefix, 'HUB')).max_age, 60_000 * MS, 'HUB untouched throughout')
})

t.test('messages past a configured age are gone from the stream', async (t) => {
  const prefix = `${base}_${++n}`
  const bus = await createJetStreamBus({
    url,
    prefix,
    logger: silentLogger(),
    retention: { streams: { maxAgeMs: 1_000 } },
  })
  t.teardown(() => bus.close())
  await bus.ensureStreams([TICKETS])
  await bus.publish('tickets.ticket.created', testEnvelope({}, 'tickets.ticket.created'))
  t.equal((await jsm.streams.info(`${prefix}_TICKETS`.toUpperCase())).state.messages, 1)
  const deadline = Date.now() + 10_000
  let left = 1
  while (left > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250))
    left = (await jsm.streams.info(`${prefix}_TICKETS`.toUpperCase())).state.messages
  }
  t.equal(left, 0, 'expired by the server')
})

t.test('wantedStreamConfig: what a start asks of the server', async (t) => {
  const spec = { name: 'S', subjects: ['s.>'], maxAgeMs: undefined, maxBytes: undefined, duplicateWindowMs: 120_000 }
  const existing = { subjects: ['s.>'], max_age: 3_600_000 * MS, max_bytes: 10, duplicate_window: 120_000 * MS }
  t.same(wantedStreamConfig(spec, undefined), {
    subjects: ['s.>'],
    max_age: 0,
    max_bytes: -1,
    duplicate_window: 120_000 * MS,
  })
  t.same(wantedStreamConfig(spec, existing), existing, 'nothing configured: the existing limits')
  t.same(wantedStreamConfig({ ...spec, maxAgeMs: 60_000, maxBytes: 0 }, existing), {
    subjects: ['s.>'],
    max_age: 60_000 * MS,
    max_bytes: -1,
    duplicate_window: 60_000 * MS,
  })
})
