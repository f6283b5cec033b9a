import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import t from 'tap'
import { createMemoryBus, type MemoryRetention } from '../src/memory.ts'
import { silentLogger, testEnvelope, waitFor } from './fixtures/helpers.ts'

// The heap an embedded run holds after many events, with and without the count limit. The figure in the events
// README comes from MEMORY_HEAP_EVENTS=200000 MEMORY_HEAP_MAX=10000; the default run is small and checks the ratio.
const EVENTS = Number(process.env.MEMORY_HEAP_EVENTS ?? 10_000)
const MAX = Number(process.env.MEMORY_HEAP_MAX ?? 500)
const STREAMS = ['TICKETS', 'CONVERSATIONS', 'IDENTITY', 'AUDIT']
const DUPLICATE_WINDOW_MS = 120_000

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const heapMb = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed / 1_048_576
}

/** Publishes EVENTS envelopes of ~1 KB over the streams, two acking durables on each; the heap before and after. */
async function run(retention: MemoryRetention) {
  let clock = Date.now()
  const before = heapMb()
  const bus = createMemoryBus({ logger: silentLogger(), retention, now: () => clock })
  await bus.ensureStreams(STREAMS.map((name) => ({ name, subjects: [`${name.toLowerCase()}.>`] })))
  let acked = 0
  for (const stream of STREAMS)
    for (const durable of ['projection', 'audit']) await bus.consume({ durable, stream }, async () => void acked++)
  const body = 'x'.repeat(800)
  for (let i = 0; i < EVENTS; i++) {
    const stream = STREAMS[i % STREAMS.length]!.toLowerCase()
    await bus.publish(`${stream}.thing.happened`, testEnvelope({ i, body }))
    if (i % 1000 === 999) await waitFor(() => acked === (i + 1) * 2, 'consumers keep up', 60_000)
  }
  await waitFor(() => acked === EVENTS * 2, 'every event acknowledged by both durables', 60_000)
  const after = heapMb()
  // past the duplicate window the ids kept for dedup go too (one publish per stream prunes them)
  clock += DUPLICATE_WINDOW_MS + 1
  for (const s of STREAMS) await bus.publish(`${s.toLowerCase()}.thing.happened`, testEnvelope({ body }))
  await waitFor(() => acked === (EVENTS + STREAMS.length) * 2, 'the last ones acknowledged', 60_000)
  const settled = heapMb()
  let held = 0
  for (const s of STREAMS) held += await bus.replay(s, {}, async () => {})
  await bus.close()
  return { before, after, settled, held }
}

t.test(`heap after ${EVENTS} events of ~1 KB, limit ${MAX} per stream vs none`, async (t) => {
  const capped = await run({ maxMessages: MAX })
  const unbounded = await run({ maxMessages: 0 })
  const fmt = (r: Awaited<ReturnType<typeof run>>) =>
    `before ${r.before.toFixed(1)} MB, after ${r.after.toFixed(1)} MB, after the dedup window ${r.settled.toFixed(1)} MB, ${r.held} held`
  t.comment(`limit ${MAX}/stream: ${fmt(capped)}`)
  t.comment(`no limit: ${fmt(unbounded)}`)
  t.equal(capped.held, Math.min(EVENTS + STREAMS.length, MAX * STREAMS.length), 'the limit holds per stream')
  t.equal(unbounded.held, EVENTS + STREAMS.length, 'without a limit every event is held')
  const growth = (r: typeof capped) => r.settled - r.before
  t.ok(growth(capped) < growth(unbounded) / 3, 'the limited heap grows a fraction of the unlimited one')
})
