import { signInternalPrincipal } from '@switchboard/auth'
import { PRINCIPAL_HEADER, type Principal } from '@switchboard/contracts'
import { createMemoryBus, type Delivery } from '@switchboard/events'
import { engineUrls, uniqueId } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import pg from 'pg'
import t from 'tap'
import {
  CommonErrors,
  createRootLogger,
  defineService,
  type RouteModule,
  type ServiceBaseConfig,
  type ServiceContext,
} from '../src/index.ts'

const secret = 'internal-secret-for-tests-0123456789'
const logger = createRootLogger({ level: 'silent' })

const migrations = {
  '20261122_0001_items': {
    up: async (db: Kysely<any>) => {
      await db.schema
        .createTable('items')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .execute()
    },
  },
}

type ItemsService = ServiceContext<ServiceBaseConfig, { items: { id: string } }>

const routes: RouteModule<ItemsService> = async (app, svc) => {
  app.post('/api/items', async (request, reply) => {
    const { id } = request.body as { id: string }
    if (!id) throw new CommonErrors.BadRequest('body.id is required')
    await svc.db.insertInto('items').values({ id }).execute()
    request.audit.resource_id = id
    request.audit.after = { id, api_key: 'k-123', tenant_id: 'acme', workspace_id: 'support' }
    return reply.code(201).send({ id })
  })
  app.get('/api/items/:id', async (request) => {
    const { id } = request.params as { id: string }
    const row = await svc.db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirst()
    if (!row) throw new CommonErrors.NotFound('item')
    return row
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

for (const mode of ['postgres', 'sqlite'] as const) {
  t.test(`service infrastructure on ${mode}`, async (t) => {
    const schema = uniqueId('platform')
    const bus = createMemoryBus({ logger })
    const audits: Delivery[] = []
    await bus.ensureStreams([{ name: 'AUDIT', subjects: ['audit.>'] }])
    await bus.subscribe('audit.>', async (d) => {
      audits.push(d)
    })
    const config: ServiceBaseConfig = {
      service: 'items',
      host: '127.0.0.1',
      port: 0,
      log_level: 'silent',
      environment: 'test',
      internal_secret: secret,
      body_limit_bytes: 1024,
      inbox_retention_days: 7,
      database:
        mode === 'postgres'
          ? { driver: 'postgres', url: engineUrls().databaseUrl, schema, pool_max: 2 }
          : { driver: 'sqlite', file: ':memory:' },
      cache: { driver: 'memory', prefix: `${schema}:` },
      bus: { driver: 'memory' },
    }
    const items = defineService<ServiceBaseConfig, { items: { id: string } }>({
      unit: { name: 'items', port: 0, prefixes: ['/api/items'] },
      loadConfig: () => config,
      migrations,
      events: [],
      routes: { protected: [routes] },
    })
    const app = await items.build(config, { logger, bus })
    await app.ready()
    t.teardown(async () => {
      await app.close()
      await bus.close()
      if (mode === 'postgres') {
        const c = new pg.Client({ connectionString: engineUrls().databaseUrl })
        await c.connect()
        await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
        await c.end()
      }
    })
    const token = await signInternalPrincipal(secret, principal)
    const headers = { [PRINCIPAL_HEADER]: token, 'x-request-id': 'req-abc' }

    const doc = await app.inject({ url: '/openapi.json' })
    t.equal(doc.statusCode, 200)
    t.ok(doc.json().paths['/api/items/{id}'], 'the document is generated from the routes')
    t.notOk(doc.json().paths['/health'], 'operational endpoints stay out of it')

    const health = await app.inject({ url: '/health' })
    t.equal(health.statusCode, 200)
    const ready = await app.inject({ url: '/ready' })
    t.equal(ready.statusCode, 200)
    t.same(ready.json().checks, { database: 'ok', cache: 'ok', bus: 'ok' })

    const anonymous = await app.inject({ method: 'POST', url: '/api/items', payload: { id: 'a' } })
    t.equal(anonymous.statusCode, 401, 'no principal → 401')
    t.equal(anonymous.json().code, 'PRINCIPAL_REQUIRED')

    const created = await app.inject({ method: 'POST', url: '/api/items', payload: { id: 'a' }, headers })
    t.equal(created.statusCode, 201)
    t.equal(created.headers['x-request-id'], 'req-abc', 'request id echoed')

    const missing = await app.inject({ url: '/api/items/zzz', headers })
    t.equal(missing.statusCode, 404)
    t.same(Object.keys(missing.json()).sort(), ['code', 'error', 'message', 'request_id'])

    const bad = await app.inject({
      method: 'POST',
      url: '/api/items',
      payload: '{nope',
      headers: { ...headers, 'content-type': 'application/json' },
    })
    t.equal(bad.statusCode, 400)
    t.equal(bad.json().code, 'INVALID_JSON')

    const big = await app.inject({ method: 'POST', url: '/api/items', payload: { id: 'x'.repeat(5000) }, headers })
    t.equal(big.statusCode, 413)

    const dup = await app.inject({ method: 'POST', url: '/api/items', payload: { id: 'a' }, headers })
    t.equal(dup.statusCode, 409, 'a unique-key race is a conflict, not a 500')
    t.notMatch(dup.json().message, /items|constraint/i, 'internals are not leaked')

    // an unscoped admin writing a scoped record: the audit record takes the record's scope
    const unscoped = await signInternalPrincipal(secret, { ...principal, tenant_id: '', workspace_id: '' })
    const byPlatformAdmin = await app.inject({
      method: 'POST',
      url: '/api/items',
      payload: { id: 'b' },
      headers: { [PRINCIPAL_HEADER]: unscoped },
    })
    t.equal(byPlatformAdmin.statusCode, 201)

    const metrics = await app.inject({ url: '/metrics' })
    t.match(metrics.body, /http_request_duration_seconds_bucket\{.*route="\/api\/items"/)
    const routeQueries = (body: string) =>
      /db_queries_total\{origin="\/api\/items",service="items"\} (\d+)/.exec(body)?.[1]
    await new Promise((r) => setTimeout(r, 700)) // the relay polls every 250 ms
    const later = await app.inject({ url: '/metrics' })
    t.ok(routeQueries(metrics.body), 'queries of the route are counted under it')
    t.equal(routeQueries(later.body), routeQueries(metrics.body), 'relay passes a request kicked are not its queries')
    t.match(metrics.body, /db_queries_total\{origin="\/api\/items",service="items"\} [1-9]/, 'queries are counted')

    // audit events: one per write that reached the service, success or not
    const deadline = Date.now() + 3000
    while (audits.length < 7 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    const records = audits.map((d) => d.envelope.data as Record<string, any>)
    const ok = records.find((r) => r.status_code === 201)
    t.ok(ok, 'successful write audited')
    t.equal(ok?.action, 'items.create')
    t.equal(ok?.resource_id, 'a')
    t.same(
      ok?.after_json,
      { id: 'a', api_key: '[REDACTED]', tenant_id: 'acme', workspace_id: 'support' },
      'secrets masked',
    )
    t.equal(audits.find((d) => (d.envelope.data as any).status_code === 201)?.envelope.tenant_id, 'acme')
    t.ok(
      records.some((r) => r.status_code === 409 && r.success === false),
      'failed write audited with success=false',
    )
    t.ok(
      records.some((r) => r.status_code === 413 && r.success === false),
      'too-large write audited',
    )
  })
}
