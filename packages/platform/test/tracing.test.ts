// The tracing setup (src/tracing.ts) and what it turns on: off, no SDK module is even loaded and the API stays its
// no-op; on, a request's span continues the caller's traceparent, its queries are its children, its log lines carry
// the trace id, and the spans reach an OTLP/HTTP endpoint as JSON.
import { execFileSync } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { tracingActive } from '@switchboard/events'
import { sql } from 'kysely'
import t from 'tap'
import {
  ConfigError,
  createApp,
  createDatabase,
  createRootLogger,
  startTracing,
  tracingConfigFromEnv,
} from '../src/index.ts'

t.test('monitoring.tracing from the environment', async (t) => {
  t.match(tracingConfigFromEnv({}, 'tickets'), {
    enabled: false,
    sample_ratio: 0.1,
    endpoint: 'http://127.0.0.1:4318/v1/traces',
    service_name: 'tickets',
    headers: {},
  })
  t.match(
    tracingConfigFromEnv(
      {
        TRACING_ENABLED: 'true',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
        OTEL_SERVICE_NAME: 'sb-tickets',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-token=a%3Db,tenant=t1',
      },
      'tickets',
    ),
    {
      enabled: true,
      sample_ratio: 0.25,
      endpoint: 'http://collector:4318/v1/traces',
      service_name: 'sb-tickets',
      headers: { 'x-token': 'a=b', tenant: 't1' },
    },
  )
  t.equal(
    tracingConfigFromEnv({ TRACING_ENABLED: '1', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c/t' }, 'x').endpoint,
    'http://c/t',
    'the traces endpoint is taken as it is',
  )
  t.equal(
    tracingConfigFromEnv({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c' }, 'x').enabled,
    true,
    'the standard exporter variables turn it on',
  )
  t.equal(tracingConfigFromEnv({ OTEL_TRACES_EXPORTER: 'otlp' }, 'x').enabled, false, 'not without an endpoint')
  t.equal(
    tracingConfigFromEnv({ TRACING_ENABLED: 'true', OTEL_SDK_DISABLED: 'true' }, 'x').enabled,
    false,
    'OTEL_SDK_DISABLED wins',
  )
  t.equal(tracingConfigFromEnv({ TRACING_ENABLED: 'false', OTEL_TRACES_EXPORTER: 'otlp' }, 'x').enabled, false)
  t.throws(() => tracingConfigFromEnv({ OTEL_TRACES_SAMPLER_ARG: '1.5' }, 'x'), ConfigError, 'a ratio above 1')
  t.throws(() => tracingConfigFromEnv({ TRACING_SAMPLE_RATIO: 'half' }, 'x'), ConfigError, 'a ratio not a number')
})

t.test('off: no SDK module is loaded, the API is a no-op, a request and a query work untraced', async (t) => {
  // in a process of its own, with a resolve hook that records every module it loads
  const src = (path: string) => fileURLToPath(new URL(path, import.meta.url))
  const script = `
    import { registerHooks } from 'node:module'
    const seen = []
    registerHooks({ resolve(spec, ctx, next) { seen.push(spec); return next(spec, ctx) } })
    const platform = await import(${JSON.stringify(src('../src/index.ts'))})
    const { trace } = await import('@opentelemetry/api')
    const tracing = await platform.startTracing(platform.tracingConfigFromEnv({}, 'unit'))
    const logger = platform.createRootLogger({ level: 'silent' })
    const app = platform.createApp({ service: 'unit', logger })
    app.get('/x', async () => {
      const db = await platform.createDatabase({ driver: 'sqlite', file: ':memory:' }, logger)
      await db.db.selectNoFrom((eb) => eb.lit(1).as('one')).execute()
      await db.close()
      return { recording: trace.getActiveSpan()?.isRecording() ?? false }
    })
    const res = await app.inject({ url: '/x', headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } })
    await tracing.shutdown()
    const span = trace.getTracer('t').startSpan('s')
    console.log(JSON.stringify({
      sdk: seen.filter((s) => /@opentelemetry\\/(sdk|exporter|resources)/.test(s)),
      api: seen.some((s) => s === '@opentelemetry/api'),
      status: res.statusCode,
      body: res.json(),
      noop: !span.isRecording() && span.spanContext().traceId === '0'.repeat(32),
    }))
    await app.close()
  `
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    encoding: 'utf8',
  })
  const result = JSON.parse(out.trim().split('\n').at(-1)!)
  t.same(result.sdk, [], 'no @opentelemetry/sdk-*, exporter or resources module was loaded')
  t.ok(result.api, 'only the API (the no-op) is')
  t.equal(result.status, 200)
  t.same(result.body, { recording: false }, 'no span is active in the handler, even given a traceparent')
  t.ok(result.noop, 'a span started through the API is the no-op span')
})

t.test('on: a request span continues the traceparent; queries are its children; logs carry trace_id', async (t) => {
  const bodies: Array<{ type: string; body: any }> = []
  const collector = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      bodies.push({ type: String(req.headers['content-type']), body: JSON.parse(Buffer.concat(chunks).toString()) })
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve))
  t.teardown(() => collector.close())
  const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`

  const tracing = await startTracing(
    tracingConfigFromEnv({ TRACING_ENABLED: 'true', OTEL_TRACES_SAMPLER_ARG: '1' }, 'unit-test'),
  )
  t.equal(await startTracing(tracingConfigFromEnv({ TRACING_ENABLED: 'true' }, 'x')), tracing, 'once per process')
  await tracing.shutdown()
  t.notOk(tracingActive(), 'shut down: off again')

  const on = await startTracing(
    tracingConfigFromEnv(
      { TRACING_ENABLED: 'true', OTEL_TRACES_SAMPLER_ARG: '1', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint },
      'unit-test',
    ),
  )
  t.teardown(() => on.shutdown())
  t.ok(tracingActive())
  const lines: Record<string, unknown>[] = []
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)))
      done()
    },
  })
  const logger = createRootLogger({ level: 'info', destination })
  const database = await createDatabase({ driver: 'sqlite', file: ':memory:' }, logger)
  t.teardown(() => database.close())
  const app = createApp({ service: 'unit-test', logger })
  app.get('/items/:id', async (request) => {
    await sql`select 1 as one`.execute(database.db)
    request.log.info('inside')
    return { ok: true }
  })
  t.teardown(() => app.close())
  const traceId = '0af7651916cd43dd8448eb211c80319c'
  const res = await app.inject({ url: '/items/7', headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` } })
  t.equal(res.statusCode, 200)
  logger.info('outside any span')
  await on.flush()

  const spans = bodies.flatMap((b) =>
    b.body.resourceSpans.flatMap((rs: any) =>
      rs.scopeSpans.flatMap((ss: any) =>
        ss.spans.map((s: any) => ({
          ...s,
          service: rs.resource.attributes.find((a: any) => a.key === 'service.name')?.value.stringValue,
        })),
      ),
    ),
  )
  t.ok(
    bodies.every((b) => b.type.includes('json')),
    'OTLP/HTTP JSON',
  )
  const server = spans.find((s) => s.name === 'GET /items/:id')
  t.ok(server, 'the request span, named by its route template')
  t.equal(server.traceId, traceId, 'in the caller’s trace')
  t.equal(server.parentSpanId, 'b7ad6b7169203331', 'the caller’s span is its parent')
  t.equal(server.kind, 2, 'SERVER')
  t.equal(server.service, 'unit-test')
  const query = spans.find((s) => s.attributes.some((a: any) => a.key === 'db.system.name'))
  t.ok(query, 'a span for the query')
  t.equal(query.parentSpanId, server.spanId, 'the query is the request span’s child')
  t.match(query.attributes, [{ key: 'db.system.name', value: { stringValue: 'sqlite' } }])
  const inside = lines.find((l) => l.msg === 'inside')
  t.equal(inside?.trace_id, traceId, 'a log line inside the request carries its trace_id')
  t.equal(inside?.span_id, server.spanId)
  t.notOk('trace_id' in (lines.find((l) => l.msg === 'outside any span') ?? {}), 'one outside carries none')
})
