// Route schemas compile on first use (src/http/lazy-schemas.ts) and behave exactly as Fastify's own compilers:
// the same coercion, defaults and 400 bodies, the same serialization (fields outside the response schema dropped);
// a schema that cannot compile answers 500 on its route and fails compileSchemas(); headers schemas are lower case.
import { Type } from '@sinclair/typebox'
import Fastify from 'fastify'
import t from 'tap'
import { createApp } from '../src/http/app.ts'
import { installErrorHandling } from '../src/http/errors.ts'
import { createMetrics } from '../src/http/metrics.ts'
import { createRootLogger } from '../src/logger.ts'

const logger = createRootLogger({ level: 'silent' })
const Query = Type.Object({ n: Type.Integer({ minimum: 1 }), tags: Type.Array(Type.String(), { default: [] }) })
const Body = Type.Object({ name: Type.String({ minLength: 2 }) }, { additionalProperties: false })
const Out = Type.Object({ n: Type.Integer(), tags: Type.Array(Type.String()), name: Type.String() })
const ajv = { customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true, allErrors: false } }

function routes(app: any) {
  app.post('/echo', { schema: { querystring: Query, body: Body, response: { 200: Out } } }, async (req: any) => ({
    ...req.query,
    ...req.body,
    secret: 'not in the schema',
  }))
  return app
}

t.test('same answers as Fastify compiling at start', async (t) => {
  const lazy = routes(createApp({ service: 'lazy', logger }))
  const eager = Fastify({ ajv: ajv as never, genReqId: (req) => String(req.headers['x-request-id']) })
  installErrorHandling(eager, createMetrics('eager').errorsTotal)
  routes(eager)
  t.teardown(() => Promise.all([lazy.close(), eager.close()]))
  const cases = [
    { url: '/echo?n=3&tags=a', payload: { name: 'Ada' } },
    { url: '/echo?n=3', payload: { name: 'Ada' } },
    { url: '/echo?n=0', payload: { name: 'Ada' } },
    { url: '/echo?n=x', payload: { name: 'Ada' } },
    { url: '/echo?n=2', payload: { name: 'A' } },
    { url: '/echo?n=2', payload: { name: 'Ada', extra: 1 } },
  ]
  for (const c of cases) {
    const headers = { 'x-request-id': 'same' }
    const [a, b] = await Promise.all([lazy, eager].map((app) => app.inject({ method: 'POST', headers, ...c })))
    t.equal(a.statusCode, b.statusCode, `${c.url} ${JSON.stringify(c.payload)}: status`)
    t.same(a.json(), b.json(), 'the same body (the answer, or the same validation error)')
  }
  const ok = await lazy.inject({ method: 'POST', url: '/echo?n=3', payload: { name: 'Ada' } })
  t.same(ok.json(), { n: 3, tags: [], name: 'Ada' }, 'defaults applied, fields outside the schema dropped')
})

t.test('a schema that cannot compile: its route answers 500, compileSchemas() names it', async (t) => {
  const app = createApp({ service: 'lazy', logger })
  app.get('/fine', async () => 'ok')
  app.get(
    '/broken',
    { schema: { querystring: { type: 'object', properties: { q: { type: 'nope' } } } } },
    async () => 'x',
  )
  t.teardown(() => app.close())
  await app.ready()
  t.equal((await app.inject({ url: '/fine' })).statusCode, 200, 'the unit starts and serves its other routes')
  t.equal((await app.inject({ url: '/broken?q=1' })).statusCode, 500)
  const again = createApp({ service: 'lazy', logger })
  again.get(
    '/broken',
    { schema: { querystring: { type: 'object', properties: { q: { type: 'nope' } } } } },
    async () => 'x',
  )
  t.teardown(() => again.close())
  await again.ready()
  t.throws(() => again.compileSchemas(), /GET \/broken querystring does not compile/)
})

t.test('a headers schema names headers in lower case', async (t) => {
  const app = createApp({ service: 'lazy', logger })
  app.get('/h', { schema: { headers: Type.Object({ 'X-Token': Type.String() }) } }, async () => 'x')
  await t.rejects(async () => app.ready(), /header X-Token must be written in lower case/)
  const fine = createApp({ service: 'lazy', logger })
  fine.get('/h', { schema: { headers: Type.Object({ 'x-token': Type.String() }) } }, async (r) => r.headers['x-token'])
  t.teardown(() => fine.close())
  t.equal((await fine.inject({ url: '/h', headers: { 'X-Token': 'abc' } })).body, 'abc')
  t.equal((await fine.inject({ url: '/h' })).statusCode, 400, 'a missing header is refused')
})
