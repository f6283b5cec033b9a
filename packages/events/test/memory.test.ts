import t from 'tap'
import { createMemoryBus } from '../src/memory.ts'
import { eventBusContract } from './contract.ts'
import { silentLogger, testEnvelope, waitFor } from './fixtures/helpers.ts'

eventBusContract(t, async (metrics) => createMemoryBus({ logger: silentLogger(), metrics }))

t.test('memory: the duplicate window expires', async (t) => {
  const bus = createMemoryBus({ logger: silentLogger(), duplicateWindowMs: 30 })
  t.teardown(() => bus.close())
  await bus.ensureStreams([{ name: 'ORDERS', subjects: ['orders.>'] }])
  const e = testEnvelope({})
  t.equal((await bus.publish('orders.x', e)).duplicate, false)
  t.equal((await bus.publish('orders.x', e)).duplicate, true)
  await new Promise((r) => setTimeout(r, 40))
  t.equal((await bus.publish('orders.x', e)).duplicate, false, 'outside the window it is a new message')
})

t.test('memory: a durable keeps its place across consume() calls', async (t) => {
  const bus = createMemoryBus({ logger: silentLogger() })
  t.teardown(() => bus.close())
  await bus.ensureStreams([{ name: 'ORDERS', subjects: ['orders.>'] }])
  const seen: number[] = []
  const sub = await bus.consume({ durable: 'd', stream: 'ORDERS' }, async (d) => void seen.push(d.seq))
  await bus.publish('orders.x', testEnvelope({}))
  await waitFor(() => seen.length === 1)
  await sub.stop()
  await bus.publish('orders.x', testEnvelope({}))
  await bus.consume({ durable: 'd', stream: 'ORDERS' }, async (d) => void seen.push(d.seq))
  await waitFor(() => seen.length === 2)
  t.same(seen, [1, 2], 'resumes after the last acked message')
})

t.test('memory: publishing to a subject without a stream fails', async (t) => {
  const bus = createMemoryBus({ logger: silentLogger() })
  t.teardown(() => bus.close())
  await t.rejects(bus.publish('nowhere.x', testEnvelope({})), /no stream/)
})
