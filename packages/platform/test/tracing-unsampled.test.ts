// What a trace that is not sampled costs our wrappers (the 90 % of requests at the default ratio 0.1), with a sampler
// that keeps nothing and counts every span asked of it. Where a trace starts (the gateway), one span is asked for,
// with nothing built for it (no attributes); under a trace that is not sampled, none at all — not the request's under
// a caller's unsampled traceparent, not its queries (PostgreSQL, in a transaction), its Redis calls, its publish, the
// relay's publish of its outbox row, nor the consumers' deliveries. The context still travels (flags 00), so that
// parent-based sampling downstream follows the decision, and the consumers run in the request's trace.
import { type Attributes, context, propagation, trace } from '@opentelemetry/api'
import { type Sampler, SamplingDecision } from '@opentelemetry/sdk-trace-base'
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import { SYSTEM_ACTOR } from '@switchboard/contracts'
import {
  appendOutbox,
  createMemoryBus,
  createOutboxRelay,
  eventsMigrations,
  newEnvelope,
  setTracingActive,
  tracingActive,
} from '@switchboard/events'
import { engineUrls, pgSchemaFixture, redisPrefix } from '@switchboard/testing'
import { sql } from 'kysely'
import t from 'tap'
import { createApp, createCache, createDatabase, createRootLogger, migrateToLatest } from '../src/index.ts'

const asked: Array<{ name: string; attributes: Attributes }> = []
const neverSampled: Sampler = {
  shouldSample(_ctx, _traceId, name, _kind, attributes) {
    asked.push({ name, attributes: { ...attributes } })
    return { decision: SamplingDecision.NOT_RECORD }
  },
  toString: () => 'never sampled, counted',
}
let recorded = 0
// asked for every span, whatever its parent (not parent-based: a span under an unsampled parent would count too)
const provider = new NodeTracerProvider({
  sampler: neverSampled,
  spanProcessors: [
    {
      onStart: () => {
        recorded++
      },
      onEnd: () => {},
      forceFlush: async () => {},
      shutdown: async () => {},
    },
  ],
})
provider.register()
setTracingActive(true)
t.teardown(async () => {
  setTracingActive(false)
  await provider.shutdown()
  trace.disable()
  context.disable()
  propagation.disable()
})

const logger = createRootLogger({ level: 'silent' })
const { url, schema } = await pgSchemaFixture(t, { label: 'trz' })
const database = await createDatabase({ driver: 'postgres', url, schema, pool_max: 2 }, logger)
t.teardown(() => database.close())
await migrateToLatest(database.db, eventsMigrations, logger)
const cache = createCache({ driver: 'redis', url: engineUrls().redisUrl, prefix: redisPrefix('trz') })
t.teardown(() => cache.close())
const bus = createMemoryBus({ logger })
t.teardown(() => bus.close())
await bus.ensureStreams([{ name: 'UNSAMPLED', subjects: ['unsampled.>'] }])
const relay = createOutboxRelay({ db: database.db, bus, logger, dialect: 'postgres' })
t.teardown(() => relay.stop())

const deliveries: Array<{ subject: string; traceparent?: string; traceId?: string }> = []
const sub = await bus.consume({ durable: 'unsampled', stream: 'UNSAMPLED' }, async (delivery) => {
  await sql`select 1 as one`.execute(database.db) // the consumer's own query
  deliveries.push({
    subject: delivery.subject,
    traceparent: delivery.headers.traceparent,
    traceId: trace.getActiveSpan()?.spanContext().traceId,
  })
})
t.teardown(() => sub.stop())

const envelope = (type: string) =>
  newEnvelope({ type, tenant_id: 't1', workspace_id: 'w1', actor: SYSTEM_ACTOR, data: { n: 1 } })

const app = createApp({ service: 'unsampled-test', logger })
app.post('/work', async (request) => {
  await database.db.transaction().execute(async (tx) => {
    await sql`select 1 as one`.execute(tx)
    await appendOutbox(tx, 'unsampled.row.written', envelope('unsampled.row.written'))
  })
  await cache.set('k', 'v', 10_000)
  await cache.get('k')
  await bus.publish('unsampled.direct.sent', envelope('unsampled.direct.sent'))
  return { traceId: trace.getActiveSpan()?.spanContext().traceId, traceparent: request.headers.traceparent }
})
t.teardown(() => app.close())

/** The request, then the relay's pass, then both deliveries handled. */
async function work(headers: Record<string, string>) {
  deliveries.length = 0
  const res = await app.inject({ method: 'POST', url: '/work', headers })
  await relay.flush()
  const deadline = Date.now() + 10_000
  while (deliveries.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  return { status: res.statusCode, body: res.json() as { traceId?: string; traceparent?: string } }
}

t.ok(tracingActive(), 'the wrappers are installed')

t.test('where a trace starts: one span asked for, nothing built for it; the context travels, flags 00', async (t) => {
  asked.length = 0
  const { status, body } = await work({})
  t.equal(status, 200)
  t.equal(asked.length, 1, "one sampling decision: the request's, nothing under it")
  t.same(asked[0]?.attributes, {}, 'no attributes built for a span before it is known to record')
  t.match(body.traceId, /^[0-9a-f]{32}$/, 'the request runs in its trace')
  t.match(body.traceparent, new RegExp(`^00-${body.traceId}-[0-9a-f]{16}-00$`), 'its traceparent says: not sampled')
  t.equal(deliveries.length, 2, 'both events handled')
  for (const d of deliveries) {
    t.equal(d.traceparent, body.traceparent, `${d.subject}: the message carries the request's unsampled context`)
    t.equal(d.traceId, body.traceId, `${d.subject}: its consumer runs in the request's trace`)
  }
  t.equal(recorded, 0, 'no span recorded')
})

t.test("under a caller's unsampled traceparent: no span asked for at all", async (t) => {
  asked.length = 0
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00'
  const { status, body } = await work({ traceparent })
  t.equal(status, 200)
  t.same(asked, [], 'no sampling decision: request, queries, Redis calls, publishes, deliveries')
  t.equal(body.traceId, '0af7651916cd43dd8448eb211c80319c', "the request runs in the caller's trace")
  t.equal(body.traceparent, traceparent, 'the header goes on as it came')
  t.equal(deliveries.length, 2, 'both events handled')
  for (const d of deliveries) {
    t.equal(d.traceparent, traceparent, `${d.subject}: the message carries the caller's context`)
    t.equal(d.traceId, '0af7651916cd43dd8448eb211c80319c', `${d.subject}: its consumer runs in that trace`)
  }
  t.equal(recorded, 0, 'no span recorded')
})
