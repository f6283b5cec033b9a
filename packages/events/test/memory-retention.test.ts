import t, { type Test } from 'tap'
import { createMemoryBus, DEFAULT_MEMORY_MAX_MESSAGES, type MemoryRetention } from '../src/memory.ts'
import type { Delivery, EventBus } from '../src/port.ts'
import { PoisonMessageError } from '../src/shared.ts'
import { silentLogger, sleep, testEnvelope, waitFor } from './fixtures/helpers.ts'

const DAY = 86_400_000

async function open(t: Test, retention?: MemoryRetention, now?: () => number) {
  const bus = createMemoryBus({ logger: silentLogger(), retention, now })
  t.teardown(() => bus.close())
  await bus.ensureStreams([{ name: 'ORDERS', subjects: ['orders.>'] }])
  return bus
}

/** The sequences the stream holds, oldest first. */
async function held(bus: EventBus, stream = 'ORDERS'): Promise<number[]> {
  const seqs: number[] = []
  await bus.replay(stream, {}, async (d) => void seqs.push(d.seq))
  return seqs
}

async function publishN(bus: EventBus, n: number, subject = 'orders.order.placed') {
  for (let i = 0; i < n; i++) await bus.publish(subject, testEnvelope({ i }))
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)

t.test('a durable acking everything: the stream holds the newest maxMessages', async (t) => {
  const bus = await open(t, { maxMessages: 100 })
  const seen: number[] = []
  await bus.consume({ durable: 'd', stream: 'ORDERS' }, async (d) => void seen.push(d.seq))
  await publishN(bus, 5000)
  await waitFor(() => seen.length === 5000, 'every message consumed')
  t.same(seen, range(1, 5000), 'the consumer got every message, in order')
  t.same(await held(bus), range(4901, 5000), 'the newest 100 are kept for replay')
  const fromStart: number[] = []
  await bus.replay('ORDERS', { fromSeq: 1 }, async (d) => void fromStart.push(d.seq))
  t.equal(fromStart[0], 4901, 'a replay from the first event starts at the oldest one held')
})

t.test('without retention the default keeps 10,000 per stream', async (t) => {
  const bus = await open(t)
  let seen = 0
  await bus.consume({ durable: 'd', stream: 'ORDERS' }, async () => void seen++)
  const n = DEFAULT_MEMORY_MAX_MESSAGES + 50
  await publishN(bus, n)
  await waitFor(() => seen === n, 'every message consumed')
  const seqs = await held(bus)
  t.equal(seqs.length, DEFAULT_MEMORY_MAX_MESSAGES)
  t.equal(seqs[0], 51)
})

t.test('maxMessages 0 keeps everything (no count limit)', async (t) => {
  const bus = await open(t, { maxMessages: 0 })
  let seen = 0
  await bus.consume({ durable: 'd', stream: 'ORDERS' }, async () => void seen++)
  await publishN(bus, 300)
  await waitFor(() => seen === 300)
  t.equal((await held(bus)).length, 300)
})

t.test('a stream without durables keeps the newest maxMessages', async (t) => {
  const bus = await open(t, { maxMessages: 10 })
  await publishN(bus, 25)
  t.same(await held(bus), range(16, 25))
})

t.test(
  'a stopped durable: nothing it has not acknowledged is dropped, and it gets all of it when resumed',
  async (t) => {
    const bus = await open(t, { maxMessages: 50 })
    const fast: number[] = []
    const slow: number[] = []
    await bus.consume({ durable: 'fast', stream: 'ORDERS' }, async (d) => void fast.push(d.seq))
    const sub = await bus.consume({ durable: 'slow', stream: 'ORDERS' }, async (d) => void slow.push(d.seq))
    await publishN(bus, 10)
    await waitFor(() => slow.length === 10 && fast.length === 10)
    await sub.stop()
    await publishN(bus, 1990)
    await waitFor(() => fast.length === 2000, 'the other durable consumed everything')
    t.same(await held(bus), range(11, 2000), 'every message after the stopped durable’s last ack is held')
    await bus.consume({ durable: 'slow', stream: 'ORDERS' }, async (d) => void slow.push(d.seq))
    await waitFor(() => slow.length === 2000, 'the resumed durable caught up')
    t.same(slow, range(1, 2000), 'the resumed durable got every message once, in order')
    t.same(await held(bus), range(1951, 2000), 'once it acknowledged them the stream is back to the limit')
  },
)

t.test('a slow handler: the message in flight and those after it are held until acknowledged', async (t) => {
  const bus = await open(t, { maxMessages: 5 })
  const got: Delivery[] = []
  let release: () => void = () => {}
  const gate = new Promise<void>((r) => {
    release = r
  })
  await bus.consume({ durable: 'slow', stream: 'ORDERS' }, async (d) => {
    got.push(d)
    if (d.seq === 1) await gate
  })
  await publishN(bus, 200)
  await waitFor(() => got.length === 1)
  t.same(await held(bus), range(1, 200), 'nothing dropped while the first message is in flight')
  release()
  await waitFor(() => got.length === 200, 'the rest delivered after the slow one')
  t.same(
    got.map((d) => d.seq),
    range(1, 200),
  )
  t.same(await held(bus), range(196, 200))
})

t.test('a message waiting for redelivery is held while the durable goes on past it', async (t) => {
  const bus = await open(t, { maxMessages: 5 })
  const acked: number[] = []
  let failed = false
  await bus.consume({ durable: 'd', stream: 'ORDERS', backoffMs: [1000] }, async (d) => {
    if (d.seq === 1 && !failed) {
      failed = true
      throw new Error('transient')
    }
    acked.push(d.seq)
  })
  await publishN(bus, 100)
  await waitFor(() => acked.length === 99, 'the others acknowledged')
  const during = await held(bus)
  t.equal(during[0], 1, 'the message due for redelivery is still held')
  t.equal(during.length, 100, 'and so is everything after it (the floor is the oldest unacknowledged)')
  await waitFor(() => acked.length === 100, 'redelivered and acknowledged')
  t.equal(acked.at(-1), 1)
  await bus.publish('orders.order.placed', testEnvelope({}))
  await waitFor(async () => (await held(bus)).length === 5, 'trimmed once acknowledged')
  t.same(await held(bus), range(97, 101))
})

t.test('a durable whose filter matches nothing does not hold the stream back', async (t) => {
  const bus = await open(t, { maxMessages: 10 })
  let seen = 0
  await bus.consume({ durable: 'all', stream: 'ORDERS' }, async () => void seen++)
  await bus.consume({ durable: 'none', stream: 'ORDERS', filterSubjects: ['orders.refunded'] }, async () => {})
  await publishN(bus, 300)
  await waitFor(() => seen === 300)
  await waitFor(async () => (await held(bus)).length === 10, 'trimmed to the limit')
  t.same(await held(bus), range(291, 300))
})

t.test('a new durable starts at the oldest message still held', async (t) => {
  const bus = await open(t, { maxMessages: 20 })
  await publishN(bus, 100)
  const got: number[] = []
  await bus.consume({ durable: 'late', stream: 'ORDERS' }, async (d) => void got.push(d.seq))
  await waitFor(() => got.length === 20)
  await sleep(20)
  t.same(got, range(81, 100))
})

t.test('dead letters: never trimmed by count, kept past the domain streams’ age', async (t) => {
  let clock = Date.parse('2026-01-01T00:00:00Z')
  const bus = await open(t, { maxMessages: 5, streams: { maxAgeMs: DAY } }, () => clock)
  await bus.consume({ durable: 'bad', stream: 'ORDERS' }, async () => {
    throw new PoisonMessageError('unreadable')
  })
  await publishN(bus, 40)
  await waitFor(async () => (await bus.deadLetters()).length === 40, 'all 40 dead-lettered')
  clock += 30 * DAY
  await publishN(bus, 1)
  await waitFor(async () => (await bus.deadLetters()).length === 41)
  t.equal((await bus.deadLetters()).length, 41, 'every dead letter kept (no DLQ age configured)')
  t.same(await held(bus), [41], 'the domain stream dropped its acknowledged messages past its age meanwhile')
  t.equal(await bus.replayDeadLetters({ seqs: [1, 2] }), 2, 'replay removes them as before')
  await waitFor(async () => (await bus.deadLetters()).length === 41, 'the replayed two dead-lettered again')
})

t.test('a configured dead-letter age drops older dead letters', async (t) => {
  let clock = Date.parse('2026-01-01T00:00:00Z')
  const bus = await open(t, { deadLetters: { maxAgeMs: 7 * DAY } }, () => clock)
  await bus.consume({ durable: 'bad', stream: 'ORDERS' }, async () => {
    throw new PoisonMessageError('unreadable')
  })
  await publishN(bus, 3)
  await waitFor(async () => (await bus.deadLetters()).length === 3)
  clock += 6 * DAY
  t.equal((await bus.deadLetters()).length, 3, 'younger than the age: kept')
  await publishN(bus, 1)
  await waitFor(async () => (await bus.deadLetters()).length === 4)
  clock += 2 * DAY
  const left = await bus.deadLetters()
  t.equal(left.length, 1, 'the three older than 7 days dropped, the newer one kept')
  t.equal(left[0]?.origin_seq, 4)
})

t.test('age: acknowledged messages older than maxAgeMs are dropped, unacknowledged ones kept', async (t) => {
  let clock = Date.parse('2026-01-01T00:00:00Z')
  const bus = await open(t, { maxMessages: 0, streams: { maxAgeMs: 3 * DAY } }, () => clock)
  const fast: number[] = []
  await bus.consume({ durable: 'fast', stream: 'ORDERS' }, async (d) => void fast.push(d.seq))
  await publishN(bus, 10)
  await waitFor(() => fast.length === 10)
  clock += 2 * DAY
  await publishN(bus, 5)
  await waitFor(() => fast.length === 15)
  t.equal((await held(bus)).length, 15, 'within the age every message is held')
  clock += 1 * DAY + 1
  t.same(await held(bus), range(11, 15), 'the first 10 passed the age and were dropped')

  const late: number[] = []
  const sub = await bus.consume({ durable: 'stopped', stream: 'ORDERS' }, async (d) => void late.push(d.seq))
  await waitFor(() => late.length === 5)
  t.same(late, range(11, 15), 'a new durable starts at the oldest message held')
  await sub.stop()
  await publishN(bus, 5)
  await waitFor(() => fast.length === 20)
  clock += 10 * DAY
  t.same(await held(bus), range(16, 20), 'past the age, only what the stopped durable has not acknowledged is held')
})

t.test('a stream’s own age (HUB) stays absolute and the configured age does not replace it', async (t) => {
  let clock = Date.parse('2026-01-01T00:00:00Z')
  const bus = createMemoryBus({ logger: silentLogger(), retention: { streams: { maxAgeMs: DAY } }, now: () => clock })
  t.teardown(() => bus.close())
  await bus.ensureStreams([{ name: 'HUB', subjects: ['hub.>'], maxAgeMs: 60_000 }])
  await publishN(bus, 3, 'hub.signal')
  clock += 61_000
  t.same(await held(bus, 'HUB'), [], 'gone after its own 60 s')
})
