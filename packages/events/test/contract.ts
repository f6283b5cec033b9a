import type { Envelope } from '@switchboard/contracts'
import { Registry } from 'prom-client'
import type { Test } from 'tap'
import { createEventBusMetrics, type EventBusMetrics } from '../src/metrics.ts'
import type { Delivery, EventBus, StreamDef } from '../src/port.ts'
import { PoisonMessageError } from '../src/shared.ts'
import { counterValue, sleep, testEnvelope, waitFor } from './fixtures/helpers.ts'

/** Builds a fresh, isolated bus for one contract case. */
export type BusFactory = (metrics: EventBusMetrics) => Promise<EventBus>

const ORDERS: StreamDef = { name: 'ORDERS', subjects: ['orders.>'] }

/**
 * The EventBus contract (docs/architecture.md §2): every adapter passes these cases unchanged. If an
 * adapter can't pass one, the adapter is wrong, not the case.
 */
export function eventBusContract(t: Test, factory: BusFactory): void {
  const open = async (t: Test) => {
    const registry = new Registry()
    const bus = await factory(createEventBusMetrics(registry))
    t.teardown(() => bus.close())
    await bus.ensureStreams([ORDERS])
    return { bus, registry }
  }
  const publishN = async (bus: EventBus, n: number, subject = 'orders.order.placed') => {
    const sent: Envelope[] = []
    for (let i = 0; i < n; i++) {
      const e = testEnvelope({ i })
      await bus.publish(subject, e)
      sent.push(e)
    }
    return sent
  }

  t.test('delivers every message at least once to a durable, from the start of the stream', async (t) => {
    const { bus, registry } = await open(t)
    const before = await publishN(bus, 2)
    const got: Delivery[] = []
    await bus.consume({ durable: 'c_all', stream: 'ORDERS' }, async (d) => {
      got.push(d)
    })
    const after = await publishN(bus, 3, 'orders.order.shipped')
    await waitFor(() => got.length >= 5, '5 deliveries')
    t.same(
      got.map((d) => d.envelope.id),
      [...before, ...after].map((e) => e.id),
      'all messages, in order',
    )
    t.same(
      got.map((d) => d.seq),
      [1, 2, 3, 4, 5],
    )
    t.ok(got.every((d) => d.deliveryCount === 1))
    t.equal(got[4]!.subject, 'orders.order.shipped', 'handlers see logical subjects')
    t.equal(got[0]!.headers['Nats-Msg-Id'], before[0]!.id, 'message id defaults to the envelope id')
    t.equal(await counterValue(registry, 'eventbus_published_total', { subject_root: 'orders' }), 5)
  })

  t.test('a durable with filter subjects gets only the matching messages', async (t) => {
    const { bus } = await open(t)
    await publishN(bus, 2, 'orders.order.placed')
    const [shipped] = await publishN(bus, 1, 'orders.order.shipped')
    const [sentinel] = await publishN(bus, 1, 'orders.order.cancelled')
    const got: string[] = []
    await bus.consume(
      { durable: 'c_filtered', stream: 'ORDERS', filterSubjects: ['orders.*.shipped'] },
      async (d) => void got.push(d.envelope.id),
    )
    const all: string[] = []
    await bus.consume({ durable: 'c_unfiltered', stream: 'ORDERS' }, async (d) => void all.push(d.envelope.id))
    await waitFor(() => all.includes(sentinel!.id) && got.length >= 1, 'both durables caught up')
    t.same(got, [shipped!.id])
  })

  t.test('a handler that throws once is redelivered after the nak delay', async (t) => {
    const { bus, registry } = await open(t)
    const seen: { count: number; at: number }[] = []
    await bus.consume({ durable: 'c_once', stream: 'ORDERS', backoffMs: [300] }, async (d) => {
      seen.push({ count: d.deliveryCount, at: performance.now() })
      if (d.deliveryCount === 1) throw new Error('transient')
    })
    await publishN(bus, 1)
    await waitFor(() => seen.length >= 2, 'redelivery')
    t.same(
      seen.map((s) => s.count),
      [1, 2],
    )
    t.ok(seen[1]!.at - seen[0]!.at >= 250, `redelivered after the delay (${Math.round(seen[1]!.at - seen[0]!.at)} ms)`)
    t.equal(await counterValue(registry, 'eventbus_failed_total', { consumer: 'c_once' }), 1)
    t.same(await bus.deadLetters(), [], 'nothing dead-lettered')
  })

  t.test('a handler that always throws sends the message to the dead letters after maxDeliver', async (t) => {
    const { bus, registry } = await open(t)
    const counts: number[] = []
    await bus.consume({ durable: 'c_poison', stream: 'ORDERS', maxDeliver: 3, backoffMs: [20, 40] }, async (d) => {
      counts.push(d.deliveryCount)
      throw new Error('cannot apply\nthis event')
    })
    const [sent] = await publishN(bus, 1)
    await waitFor(async () => (await bus.deadLetters()).length === 1, 'a dead letter')
    t.same(counts, [1, 2, 3], 'delivered maxDeliver times')
    const [dl] = await bus.deadLetters()
    t.match(dl, {
      origin_subject: 'orders.order.placed',
      origin_stream: 'ORDERS',
      origin_seq: 1,
      consumer: 'c_poison',
      deliveries: 3,
      envelope: { id: sent!.id, data: { i: 0 } },
    })
    t.match(dl!.error, /cannot apply this event/, 'error text, on one line')
    t.ok(!Number.isNaN(Date.parse(dl!.failed_at)))
    t.equal(await counterValue(registry, 'eventbus_dead_letters_total', { consumer: 'c_poison' }), 1)
    t.equal(await counterValue(registry, 'eventbus_failed_total', { consumer: 'c_poison' }), 3)
    t.same(await bus.deadLetters({ consumer: 'someone_else' }), [], 'filter by consumer')
  })

  t.test('a poison message (PoisonMessageError) is dead-lettered on its first failure, not retried', async (t) => {
    const { bus, registry } = await open(t)
    const counts: number[] = []
    await bus.consume({ durable: 'c_never', stream: 'ORDERS', maxDeliver: 5, backoffMs: [20] }, async (d) => {
      counts.push(d.deliveryCount)
      throw new PoisonMessageError('invalid audit record: /status_code must be integer')
    })
    const [sent] = await publishN(bus, 1)
    await waitFor(async () => (await bus.deadLetters()).length === 1, 'a dead letter')
    await sleep(100)
    t.same(counts, [1], 'delivered once')
    const [dl] = await bus.deadLetters()
    t.match(dl, { consumer: 'c_never', deliveries: 1, envelope: { id: sent!.id } })
    t.match(dl!.error, /PoisonMessageError: invalid audit record/, 'the reason travels with the dead letter')
    t.equal(await counterValue(registry, 'eventbus_poison_total', { consumer: 'c_never' }), 1)
    t.equal(await counterValue(registry, 'eventbus_dead_letters_total', { consumer: 'c_never' }), 1)
  })

  t.test('publishing the same event id twice stores and delivers it once', async (t) => {
    const { bus } = await open(t)
    const e = testEnvelope({ dup: true })
    const first = await bus.publish('orders.order.placed', e)
    const second = await bus.publish('orders.order.placed', e)
    t.same(first, { seq: 1, duplicate: false })
    t.same(second, { seq: 1, duplicate: true })
    const third = await bus.publish('orders.order.placed', e, { msgId: `${e.id}:other` })
    t.same(third, { seq: 2, duplicate: false }, 'a different msgId is a new message')
    const sentinel = testEnvelope({ sentinel: true })
    await bus.publish('orders.order.placed', sentinel)
    const ids: string[] = []
    await bus.consume({ durable: 'c_dedup', stream: 'ORDERS' }, async (d) => {
      ids.push(d.envelope.id)
    })
    await waitFor(() => ids.includes(sentinel.id), 'the sentinel')
    t.same(ids, [e.id, e.id, sentinel.id])
  })

  t.test('replays a stream from a sequence or from a time to its current end', async (t) => {
    const { bus } = await open(t)
    const first = await publishN(bus, 2)
    // Stream timestamps have clock resolution: keep the cut clear of both sides.
    await sleep(20)
    const cut = new Date()
    await sleep(20)
    const rest = await publishN(bus, 3)
    const fromSeq: Delivery[] = []
    t.equal(await bus.replay('ORDERS', { fromSeq: 3 }, async (d) => void fromSeq.push(d)), 3)
    t.same(
      fromSeq.map((d) => d.seq),
      [3, 4, 5],
    )
    t.same(
      fromSeq.map((d) => d.envelope.id),
      rest.map((e) => e.id),
    )
    const fromTime: string[] = []
    t.equal(await bus.replay('ORDERS', { fromTime: cut }, async (d) => void fromTime.push(d.envelope.id)), 3)
    t.same(
      fromTime,
      rest.map((e) => e.id),
    )
    const all: string[] = []
    t.equal(await bus.replay('ORDERS', {}, async (d) => void all.push(d.envelope.id)), 5)
    t.same(
      all,
      [...first, ...rest].map((e) => e.id),
    )
    t.equal(await bus.replay('ORDERS', { fromSeq: 6 }, async () => void t.fail('nothing past the end')), 0)
    t.equal(await bus.replay('ORDERS', { fromTime: new Date(Date.now() + 60_000) }, async () => void t.fail('none')), 0)
  })

  t.test('replayed dead letters reach the origin subject again and leave the dead-letter stream', async (t) => {
    const { bus } = await open(t)
    let broken = true
    const applied: Delivery[] = []
    await bus.consume({ durable: 'c_repaired', stream: 'ORDERS', maxDeliver: 2, backoffMs: [10] }, async (d) => {
      if (broken) throw new Error('bug')
      applied.push(d)
    })
    const e = testEnvelope({ fix: 1 })
    await bus.publish('orders.order.placed', e, { headers: { 'X-Trace': 'abc' } })
    await waitFor(async () => (await bus.deadLetters({ consumer: 'c_repaired' })).length === 1, 'a dead letter')
    const [dl] = await bus.deadLetters()
    t.same(dl!.headers, { 'X-Trace': 'abc' }, 'custom headers travel with the dead letter')
    broken = false
    const progress: [number, number][] = []
    const n = await bus.replayDeadLetters({
      consumer: 'c_repaired',
      onProgress: (d, total) => progress.push([d, total]),
    })
    t.equal(n, 1)
    t.same(progress, [[1, 1]])
    await waitFor(() => applied.length === 1, 'the replayed event applied')
    t.equal(applied[0]!.envelope.id, e.id, 'same envelope id, so inboxes dedupe')
    t.equal(applied[0]!.subject, 'orders.order.placed')
    t.equal(applied[0]!.headers['X-Trace'], 'abc')
    t.same(await bus.deadLetters(), [], 'removed from the dead letters')
    t.equal(await bus.replayDeadLetters(), 0, 'nothing left to replay')
  })

  t.test('two consume() calls on one durable share the messages without duplicates', async (t) => {
    const { bus } = await open(t)
    const a: string[] = []
    const b: string[] = []
    const slow = (into: string[]) => async (d: Delivery) => {
      await sleep(5)
      into.push(d.envelope.id)
    }
    await bus.consume({ durable: 'c_shared', stream: 'ORDERS' }, slow(a))
    await bus.consume({ durable: 'c_shared', stream: 'ORDERS' }, slow(b))
    const sent = await publishN(bus, 30)
    await waitFor(() => a.length + b.length >= 30, 'all 30 handled')
    const all = [...a, ...b]
    t.equal(new Set(all).size, 30, 'no message handled twice')
    t.same([...all].sort(), sent.map((e) => e.id).sort(), 'every message handled')
    t.ok(a.length > 0 && b.length > 0, `both got a share (${a.length}/${b.length})`)
  })

  t.test('subscribe fans every new message out to every subscriber', async (t) => {
    const { bus } = await open(t)
    const [old] = await publishN(bus, 1)
    const one: Delivery[] = []
    const two: string[] = []
    const latency: number[] = []
    const sentAt = new Map<string, number>()
    const s1 = await bus.subscribe('orders.>', async (d) => {
      latency.push(performance.now() - sentAt.get(d.envelope.id)!)
      one.push(d)
      if (one.length === 1) throw new Error('a failing subscriber keeps receiving')
    })
    await bus.subscribe('orders.*.placed', async (d) => void two.push(d.envelope.id))
    const sent: Envelope[] = []
    for (let i = 0; i < 3; i++) {
      const e = testEnvelope({ i })
      sentAt.set(e.id, performance.now())
      await bus.publish('orders.order.placed', e)
      sent.push(e)
    }
    await waitFor(() => one.length === 3 && two.length === 3, 'both subscribers')
    const ids = sent.map((e) => e.id)
    t.same(
      one.map((d) => d.envelope.id),
      ids,
      'subscriber one, in order',
    )
    t.same(two, ids, 'subscriber two, in order')
    t.notOk(
      one.some((d) => d.envelope.id === old!.id),
      'only messages published after subscribing',
    )
    t.equal(one[0]!.subject, 'orders.order.placed')
    const median = [...latency].sort((a, b) => a - b)[1]!
    t.ok(median < 50, `publish → subscriber latency ${latency.map((x) => x.toFixed(1)).join(', ')} ms`)
    await s1.stop()
    await publishN(bus, 1)
    await waitFor(() => two.length === 4, 'the remaining subscriber')
    t.equal(one.length, 3, 'a stopped subscription receives nothing')
  })

  t.test('ensureStreams is idempotent, healthy() follows the connection', async (t) => {
    const { bus } = await open(t)
    await bus.ensureStreams([ORDERS])
    await bus.ensureStreams([{ ...ORDERS, maxAgeMs: 3_600_000 }])
    await publishN(bus, 1)
    t.equal(await bus.replay('ORDERS', {}, async () => {}), 1, 'messages survive a stream update')
    t.equal(await bus.healthy(), true)
    await bus.close()
    t.equal(await bus.healthy(), false)
    await t.rejects(bus.publish('orders.order.placed', testEnvelope({})), 'publish after close fails')
  })
}
