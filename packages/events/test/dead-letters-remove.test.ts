// Removing dead letters by sequence without replaying them (a person's erasure), on both adapters: only the named
// ones go, a sequence no longer held is skipped, nothing is republished, the origin stream keeps its events, and on
// JetStream the message is gone from the server's DLQ stream itself.
import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { engineUrls, uniqueId } from '@switchboard/testing'
import t, { type Test } from 'tap'
import { createJetStreamBus } from '../src/jetstream.ts'
import { createMemoryBus } from '../src/memory.ts'
import type { EventBus } from '../src/port.ts'
import { PoisonMessageError } from '../src/shared.ts'
import { silentLogger, testEnvelope, waitFor } from './fixtures/helpers.ts'

const url = engineUrls().natsUrl
const base = uniqueId('dlrm')
let n = 0

t.teardown(async () => {
  const nc = await connect({ servers: url })
  const jsm = await jetstreamManager(nc)
  const mine = base.toUpperCase()
  for await (const name of jsm.streams.names()) if (name.startsWith(`${mine}_`)) await jsm.streams.delete(name)
  await nc.close()
})

const ORDERS = { name: 'ORDERS', subjects: ['orders.>'] }

/** Three dead letters (a consumer that refuses everything) and the events behind them. */
async function threeDeadLetters(t: Test, bus: EventBus) {
  await bus.ensureStreams([ORDERS])
  const sub = await bus.consume({ durable: 'c_refuses', stream: 'ORDERS' }, async () => {
    throw new PoisonMessageError('refused')
  })
  t.teardown(() => sub.stop())
  const sent = [0, 1, 2].map((i) => testEnvelope({ i }))
  for (const e of sent) await bus.publish('orders.order.placed', e)
  await waitFor(async () => (await bus.deadLetters()).length === 3, 'three dead letters')
  await sub.stop()
  const letters = await bus.deadLetters()
  t.same(
    letters.map((d) => d.envelope.id),
    sent.map((e) => e.id),
  )
  return { letters, sent }
}

const adapters: Array<[string, () => Promise<EventBus>]> = [
  ['memory', async () => createMemoryBus({ logger: silentLogger() })],
  ['jetstream', () => createJetStreamBus({ url, prefix: `${base}_${++n}`, logger: silentLogger() })],
]

for (const [name, open] of adapters) {
  t.test(`${name}: removeDeadLetters removes the named dead letters only, replaying nothing`, async (t) => {
    const bus = await open()
    t.teardown(() => bus.close())
    const { letters, sent } = await threeDeadLetters(t, bus)
    const [first, second, third] = letters
    const republished: string[] = []
    const watch = await bus.subscribe('orders.>', async (d) => void republished.push(d.envelope.id))
    t.teardown(() => watch.stop())

    t.equal(await bus.removeDeadLetters([first!.seq, third!.seq, third!.seq, 999_999]), 2, 'two removed')
    t.same(
      (await bus.deadLetters()).map((d) => d.seq),
      [second!.seq],
      'the other one is still a dead letter',
    )
    t.equal(await bus.removeDeadLetters([first!.seq]), 0, 'removing again removes nothing')
    t.equal(await bus.removeDeadLetters([]), 0)
    t.equal(await bus.replayDeadLetters({ seqs: [first!.seq, third!.seq] }), 0, 'a removed one cannot be replayed')
    t.same(republished, [], 'nothing was republished')

    let held = 0
    await bus.replay('ORDERS', {}, async () => void held++)
    t.equal(held, sent.length, 'the origin stream keeps its events')
    t.equal(await bus.replayDeadLetters(), 1, 'the kept one replays as before')
  })
}

t.test('jetstream: the removed dead letter is gone from the server, not only from the list', async (t) => {
  const prefix = `${base}_${++n}`
  const bus = await createJetStreamBus({ url, prefix, logger: silentLogger() })
  t.teardown(() => bus.close())
  const { letters } = await threeDeadLetters(t, bus)
  t.equal(await bus.removeDeadLetters([letters[1]!.seq]), 1)
  const nc = await connect({ servers: url })
  t.teardown(() => nc.close())
  const stream = await (await jetstreamManager(nc)).streams.get(`${prefix}_DLQ`.toUpperCase())
  t.equal((await stream.info()).state.messages, 2, 'two messages left in the DLQ stream')
  t.equal(await stream.getMessage({ seq: letters[1]!.seq }), null, 'the removed sequence holds nothing')
  t.ok(await stream.getMessage({ seq: letters[0]!.seq }), 'a kept sequence still holds its message')
})
