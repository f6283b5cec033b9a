// A management write's audit record is handed to the sink — and written — before its answer goes out: a process
// killed -9 right after answering must not leave an accepted write without its record (the chaos bench found one).
import Fastify from 'fastify'
import t from 'tap'
import { installAudit } from '../src/http/audit.ts'

t.test('the answer of a management write waits for its record; a read does not', async (t) => {
  const app = Fastify()
  const events: string[] = []
  installAudit(app, 'test', async (_subject, _type, _request, data) => {
    events.push(`record ${data.method} ${data.status_code} queued`)
    await new Promise((r) => setTimeout(r, 50))
    events.push(`record ${data.method} ${data.status_code} written`)
  })
  app.post('/api/things', async (_request, reply) => reply.code(201).send({ id: 't1' }))
  app.post('/api/refused', async (_request, reply) => reply.code(409).send({ error: 'conflict' }))
  app.get('/api/things', async () => ({ items: [] }))
  t.teardown(() => app.close())

  const created = await app.inject({ method: 'POST', url: '/api/things', payload: {} })
  events.push(`answer ${created.statusCode}`)
  t.same(events, ['record POST 201 queued', 'record POST 201 written', 'answer 201'], 'written, then answered')

  events.length = 0
  const refused = await app.inject({ method: 'POST', url: '/api/refused', payload: {} })
  events.push(`answer ${refused.statusCode}`)
  t.same(events, ['record POST 409 queued', 'record POST 409 written', 'answer 409'], 'a refusal too')

  events.length = 0
  const read = await app.inject({ method: 'GET', url: '/api/things' })
  t.equal(read.statusCode, 200)
  t.same(events, [], 'a read has no record')
})

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
