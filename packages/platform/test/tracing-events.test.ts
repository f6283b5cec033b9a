// The trace across the bus with tracing on (packages/events/src/tracing.ts), on both adapters: an outbox row
// written inside a span keeps its traceparent, the relay's publish is that span's child and carries its own context
// in the message's headers (NATS headers on JetStream), and the consumer's handler runs in a span under it, its
// queries too.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { trace } from '@opentelemetry/api'
import { SYSTEM_ACTOR } from '@switchboard/contracts'
import {
  appendOutbox,
  createJetStreamBus,
  createMemoryBus,
  createOutboxRelay,
  type Delivery,
  type EventBus,
  eventsMigrations,
  newEnvelope,
  tracingActive,
} from '@switchboard/events'
import { deleteNatsStreams, engineUrls, natsPrefix } from '@switchboard/testing'
import { sql } from 'kysely'
import t from 'tap'
import { createDatabase, createRootLogger, migrateToLatest, startTracing, tracingConfigFromEnv } from '../src/index.ts'

interface Span {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes: Array<{ key: string; value: { stringValue?: string } }>
}

const spans: Span[] = []
const collector = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString())
    for (const rs of body.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans)
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
  })
})
await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve))
t.teardown(() => collector.close())
const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`

t.equal(tracingActive(), false, 'off until started')
const logger = createRootLogger({ level: 'silent' })
const bare = createMemoryBus({ logger })
t.equal(Object.getPrototypeOf(bare), Object.prototype, 'off: the factory hands out the bare bus')
await bare.close()

const tracing = await startTracing(
  tracingConfigFromEnv(
    { TRACING_ENABLED: 'true', OTEL_TRACES_SAMPLER_ARG: '1', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint },
    'bus-test',
  ),
)
t.teardown(() => tracing.shutdown())

const natsUrl = engineUrls().natsUrl
const prefix = natsPrefix('trc')
t.teardown(() => deleteNatsStreams(natsUrl, prefix))

const adapters: Array<[string, () => Promise<EventBus>]> = [
  ['memory', async () => createMemoryBus({ logger })],
  ['jetstream', () => createJetStreamBus({ url: natsUrl, prefix, logger })],
]

for (const [name, make] of adapters) {
  t.test(`${name}: outbox row → publish → consumer, one trace, parents right`, async (t) => {
    const bus = await make()
    t.teardown(() => bus.close())
    await bus.ensureStreams([{ name: 'TRACED', subjects: ['traced.>'] }])
    const database = await createDatabase({ driver: 'sqlite', file: ':memory:' }, logger)
    t.teardown(() => database.close())
    await migrateToLatest(database.db, eventsMigrations, logger)
    const relay = createOutboxRelay({ db: database.db, bus, logger, dialect: 'sqlite' })
    t.teardown(() => relay.stop())

    const handled: Array<{ delivery: Delivery; traceId?: string }> = []
    const sub = await bus.consume({ durable: `traced-${name}`, stream: 'TRACED' }, async (delivery) => {
      await sql`select 1 as one`.execute(database.db) // the consumer's own query
      handled.push({ delivery, traceId: trace.getActiveSpan()?.spanContext().traceId })
    })
    t.teardown(() => sub.stop())

    const envelope = newEnvelope({
      type: 'traced.thing.done',
      tenant_id: 't1',
      workspace_id: 'w1',
      actor: SYSTEM_ACTOR,
      data: { n: 1 },
    })
    const request = await trace.getTracer('test').startActiveSpan('request', async (span) => {
      await appendOutbox(database.db, 'traced.thing.done', envelope)
      span.end()
      return span.spanContext()
    })
    const row = await database.db
      .selectFrom('outbox' as never)
      .select(sql<string>`headers`.as('headers'))
      .executeTakeFirstOrThrow()
    t.match(
      JSON.parse((row as { headers: string }).headers),
      { traceparent: `00-${request.traceId}-${request.spanId}-01` },
      "the outbox row keeps the writer's trace context",
    )
    await relay.flush()
    const deadline = Date.now() + 10_000
    while (handled.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    t.equal(handled.length, 1, 'handled once')
    const got = handled[0]!
    t.match(got.delivery.headers.traceparent, new RegExp(`^00-${request.traceId}-[0-9a-f]{16}-01$`))
    t.not(got.delivery.headers.traceparent, `00-${request.traceId}-${request.spanId}-01`, "the publish's own span")
    t.equal(got.traceId, request.traceId, 'the handler runs in the same trace')

    await tracing.flush()
    const mine = spans.filter((s) => s.traceId === request.traceId)
    const publish = mine.find((s) => s.kind === 4)
    t.ok(publish, 'a PRODUCER span')
    t.equal(publish?.name, 'publish traced.thing.done')
    t.equal(publish?.parentSpanId, request.spanId, "the publish is the writer's child")
    t.ok(
      got.delivery.headers.traceparent?.includes(publish!.spanId),
      `the message's headers carry the publish span (${name === 'jetstream' ? 'NATS headers' : 'the delivery'})`,
    )
    const consumer = mine.find((s) => s.kind === 5)
    t.equal(consumer?.parentSpanId, publish?.spanId, 'the CONSUMER span is the publish’s child')
    t.match(consumer?.attributes, [{ key: 'messaging.system', value: { stringValue: String } }])
    t.ok(
      consumer?.attributes.some(
        (a) => a.key === 'messaging.consumer.group.name' && a.value.stringValue === `traced-${name}`,
      ),
      'named by its durable',
    )
    const query = mine.find((s) => s.kind === 3 && s.parentSpanId === consumer?.spanId)
    t.ok(query, "the consumer's query is its child")
    t.notOk(
      mine.some((s) => s.kind === 3 && /from "outbox"/i.test(JSON.stringify(s.attributes))),
      "the relay's own queries are not part of the trace",
    )
  })
}
