// A management write's audit record is written before its answer goes out — a process killed -9 right after answering
// must not leave an accepted write without its record (the chaos bench found one) — and after every hook of the
// route's own, so a route that completes the record on the reply's way out (config-governance's integrations routes
// redact a refused write's body in their onSend) still has its say.
import Fastify, { type FastifyRequest } from 'fastify'
import t from 'tap'
import { type AuditSink, installAudit, RECORD_WAIT_MS } from '../src/http/audit.ts'

function appWithSlowSink() {
  const app = Fastify()
  const events: string[] = []
  const records: { status: number; request: unknown }[] = []
  const sink: AuditSink = async (_subject, _type, _request, data) => {
    events.push(`record ${data.status_code} queued`)
    await new Promise((r) => setTimeout(r, 50))
    records.push({ status: data.status_code, request: data.request_json })
    events.push(`record ${data.status_code} written`)
  }
  installAudit(app, 'test', sink)
  t.teardown(() => app.close())
  return { app, events, records }
}

t.test('the answer of a management write waits for its record; a read does not', async (t) => {
  const { app, events } = appWithSlowSink()
  app.post('/api/things', async (_request, reply) => reply.code(201).send({ id: 't1' }))
  app.post('/api/refused', async (_request, reply) => reply.code(409).send({ error: 'conflict' }))
  app.get('/api/things', async () => ({ items: [] }))

  const created = await app.inject({ method: 'POST', url: '/api/things', payload: {} })
  events.push(`answer ${created.statusCode}`)
  t.same(events, ['record 201 queued', 'record 201 written', 'answer 201'], 'written, then answered')

  events.length = 0
  const refused = await app.inject({ method: 'POST', url: '/api/refused', payload: {} })
  events.push(`answer ${refused.statusCode}`)
  t.same(events, ['record 409 queued', 'record 409 written', 'answer 409'], 'a refusal too')

  events.length = 0
  const read = await app.inject({ method: 'GET', url: '/api/things' })
  t.equal(read.statusCode, 200)
  t.same(events, [], 'a read has no record')
})

t.test("a route's own onSend still completes the record, in a plugin too, refused by its schema or not", async (t) => {
  const { app, records } = appWithSlowSink()
  // `value` is a name masking does not catch: only the route knows it is secret
  const redact = async (request: FastifyRequest, _reply: unknown, payload: unknown) => {
    if (!('request' in request.audit)) request.audit.request = { value: 'set by the route' }
    return payload
  }
  await app.register(async (scoped) => {
    scoped.post(
      '/api/apps/integrations',
      {
        onSend: redact,
        schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
      },
      async (_request, reply) => reply.code(201).send({ id: 'i1' }),
    )
  })

  const refused = await app.inject({
    method: 'POST',
    url: '/api/apps/integrations',
    payload: { value: 'hidden-by-its-schema' },
  })
  t.equal(refused.statusCode, 400, 'refused by the body schema, before the handler')
  const accepted = await app.inject({
    method: 'POST',
    url: '/api/apps/integrations',
    payload: { name: 'crm', value: 'hidden-by-its-schema' },
  })
  t.equal(accepted.statusCode, 201)
  t.same(
    records,
    [
      { status: 400, request: { value: 'set by the route' } },
      { status: 201, request: { value: 'set by the route' } },
    ],
    "each record holds what the route's onSend set, never the secret",
  )
})

t.test('a write that matched no route is still recorded once, after its answer', async (t) => {
  const { app, events } = appWithSlowSink()
  const missing = await app.inject({ method: 'POST', url: '/api/nowhere', payload: {} })
  t.equal(missing.statusCode, 404)
  await new Promise((r) => setTimeout(r, 120))
  t.same(events, ['record 404 queued', 'record 404 written'], 'one record for the not-found answer')
})

t.test(
  'a sink that does not answer holds the answer at most RECORD_WAIT_MS; the record is still written',
  async (t) => {
    const app = Fastify()
    const events: string[] = []
    installAudit(app, 'test', async () => {
      await new Promise((r) => setTimeout(r, RECORD_WAIT_MS + 1500))
      events.push('written')
    })
    app.post('/api/things', async (_request, reply) => reply.code(503).send({ code: 'DEPENDENCY_TIMEOUT' }))
    t.teardown(() => app.close())
    const started = performance.now()
    const answer = await app.inject({ method: 'POST', url: '/api/things', payload: {} })
    const waited = performance.now() - started
    t.equal(answer.statusCode, 503)
    t.ok(waited >= RECORD_WAIT_MS - 50 && waited < RECORD_WAIT_MS + 1000, `answered after ${Math.round(waited)} ms`)
    t.same(events, [], 'not written yet when answered')
    await new Promise((r) => setTimeout(r, 2000))
    t.same(events, ['written'], 'written later')
  },
)

t.test('a sink that fails does not fail the answer', async (t) => {
  const app = Fastify({ logger: false })
  installAudit(app, 'test', async () => {
    throw new Error('outbox unavailable')
  })
  app.post('/api/things', async (_request, reply) => reply.code(201).send({ id: 't1' }))
  t.teardown(() => app.close())
  const created = await app.inject({ method: 'POST', url: '/api/things', payload: {} })
  t.equal(created.statusCode, 201)
  t.same(created.json(), { id: 't1' })
})
