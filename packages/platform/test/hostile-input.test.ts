// Hostile input found by an outside probe (issue 14 §1): a 20,000-level nested body, NUL characters, and
// out-of-range pagination. Each is a 400 in the documented body (docs/api.md §5, §7, §9), never a 500, and a refused
// write still leaves its audit record. On PostgreSQL and SQLite, so both run modes answer alike.
import { Type } from '@sinclair/typebox'
import { signInternalPrincipal } from '@switchboard/auth'
import { PRINCIPAL_HEADER, type Principal } from '@switchboard/contracts'
import { createMemoryBus, type Delivery } from '@switchboard/events'
import { inEachStorageMode, storageFixture, waitFor } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import {
  CommonErrors,
  createRootLogger,
  defineService,
  PageQuery,
  pageWindow,
  type RouteModule,
  type ServiceBaseConfig,
  type ServiceContext,
  TOO_DEEP,
} from '../src/index.ts'

const secret = 'internal-secret-for-tests-0123456789'
const logger = createRootLogger({ level: 'silent' })

interface ThingsDb {
  things: { id: string; title: string }
}

const routes: RouteModule<ServiceContext<ServiceBaseConfig, ThingsDb>> = async (app, svc) => {
  app.post(
    '/api/things',
    { schema: { body: Type.Object({ id: Type.String(), title: Type.String() }, { additionalProperties: false }) } },
    async (request, reply) => {
      await svc.db.insertInto('things').values(request.body).execute()
      return reply.code(201).send(request.body)
    },
  )
  app.get('/api/things/:id', async (request) => {
    const { id } = request.params as { id: string }
    const row = await svc.db.selectFrom('things').selectAll().where('id', '=', id).executeTakeFirst()
    if (!row) throw new CommonErrors.NotFound('thing')
    return row
  })
  app.get('/api/things', { schema: { querystring: PageQuery } }, async (request) => {
    const w = pageWindow(request.query)
    const rows = await svc.db.selectFrom('things').selectAll().offset(w.offset).limit(w.limit).execute()
    return { data: rows }
  })
}

const principal: Principal = {
  user_id: 'u1',
  kind: 'admin',
  roles: ['admin'],
  permissions: ['*'],
  tenant_id: 'acme',
  workspace_id: 'support',
  session_id: 's1',
  jti: 'j1',
  token_tenant_id: 'acme',
  token_workspace_id: 'support',
}

inEachStorageMode(t, 'hostile input', async (t, mode) => {
  const store = await storageFixture(t, mode, 'hostile')
  const bus = createMemoryBus({ logger })
  await bus.ensureStreams([{ name: 'AUDIT', subjects: ['audit.>'] }])
  const audits: Delivery[] = []
  await bus.subscribe('audit.>', async (d) => {
    audits.push(d)
  })
  const things = defineService<ServiceBaseConfig, ThingsDb>({
    unit: { name: 'things', port: 0, prefixes: ['/api/things'] },
    loadConfig: () => {
      throw new Error('explicit config')
    },
    migrations: {
      '20261124_0001_things': {
        up: async (db: Kysely<any>) => {
          await db.schema
            .createTable('things')
            .addColumn('id', 'text', (c) => c.primaryKey())
            .addColumn('title', 'text')
            .execute()
        },
      },
    },
    events: [],
    routes: { protected: [routes] },
  })
  const app = await things.build(
    {
      service: 'things',
      host: '127.0.0.1',
      port: 0,
      log_level: 'silent',
      environment: 'test',
      internal_secret: secret,
      body_limit_bytes: 1_048_576,
      inbox_retention_days: 7,
      database: store.database,
      cache: store.cache,
      bus: { driver: 'memory' },
    } as ServiceBaseConfig,
    { logger, bus },
  )
  t.teardown(async () => {
    await app.close()
    await bus.close()
  })
  const headers = {
    [PRINCIPAL_HEADER]: await signInternalPrincipal(secret, principal),
    'content-type': 'application/json',
  }

  t.test('a 20,000-level nested body: 400, and its audit record is kept, truncated', async (t) => {
    const depth = 20_000
    const payload = `{"id":"n1","title":${'['.repeat(depth)}${']'.repeat(depth)}}`
    const res = await app.inject({ method: 'POST', url: '/api/things', headers, payload })
    t.equal(res.statusCode, 400)
    t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'request_id'])
    const record = await waitFor(async () =>
      audits.map((d) => d.envelope.data as Record<string, any>).find((r) => r.request_id === res.json().request_id),
    )
    t.equal(record.success, false)
    t.equal(record.status_code, 400)
    t.match(JSON.stringify(record.request_json), TOO_DEEP, 'the deep part is replaced by a marker')
    t.ok(JSON.stringify(record.request_json).length < 2000, 'the record stays small')
  })

  t.test('NUL characters: 400 naming where, in a body, a path id and a query value', async (t) => {
    const body = await app.inject({
      method: 'POST',
      url: '/api/things',
      headers,
      payload: '{"id":"a","title":"x\\u0000y"}',
    })
    t.equal(body.statusCode, 400)
    t.equal(body.json().code, 'NUL_BYTE')
    t.match(body.json().message, /^body\.title/)
    const key = await app.inject({
      method: 'POST',
      url: '/api/things',
      headers,
      payload: '{"id":"a","ti\\u0000tle":"x"}',
    })
    t.equal(key.statusCode, 400, 'in a key too')
    const path = await app.inject({ url: '/api/things/a%00b', headers })
    t.equal(path.statusCode, 400)
    t.equal(path.json().code, 'NUL_BYTE')
    const query = await app.inject({ url: '/api/things?page=1&x=%00', headers })
    t.equal(query.statusCode, 400)
    t.match(query.json().message, /^querystring\.x/)
    const fine = await app.inject({ method: 'POST', url: '/api/things', headers, payload: { id: 'ok', title: 'ü' } })
    t.equal(fine.statusCode, 201, 'ordinary text passes')
  })

  t.test('unpaired surrogates and nesting past 64 levels: 400, on both engines', async (t) => {
    for (const payload of ['{"id":"s1","title":"\\ud800"}', '{"id":"s2","title":"x","\\udc00":1}']) {
      const res = await app.inject({ method: 'POST', url: '/api/things', headers, payload })
      t.equal(res.statusCode, 400, payload)
      t.equal(res.json().code, 'VALIDATION_FAILED')
      t.match(res.json().message, /well-formed/)
    }
    const emoji = await app.inject({ method: 'POST', url: '/api/things', headers, payload: { id: 'e1', title: '😀' } })
    t.equal(emoji.statusCode, 201, 'a surrogate pair (an emoji) is fine')
    const deep = `{"id":"d1","title":${'['.repeat(70)}"\\u0000"${']'.repeat(70)}}`
    const res = await app.inject({ method: 'POST', url: '/api/things', headers, payload: deep })
    t.equal(res.statusCode, 400, 'a NUL below 64 levels is not missed: the nesting itself is refused')
    t.match(res.json().message, /nested deeper than 64/)
  })

  t.test('out-of-range pagination: 400 naming the parameter', async (t) => {
    for (const page of ['Infinity', '1e309', '99999999999999999999999', '0', '-1', '1.5']) {
      const res = await app.inject({ url: `/api/things?page=${page}`, headers })
      t.equal(res.statusCode, 400, `page=${page}`)
      t.match(res.json().message, /page/, `page=${page} named`)
    }
    const size = await app.inject({ url: '/api/things?page_size=201', headers })
    t.equal(size.statusCode, 400)
    t.equal((await app.inject({ url: '/api/things?page=1000000&page_size=200', headers })).statusCode, 200)
  })
})
