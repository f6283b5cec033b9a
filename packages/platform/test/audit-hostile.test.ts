// Audit records of hostile management writes (issue 19 §1), on PostgreSQL and SQLite: a NUL or a lone surrogate in a
// body, a `%00` path id, a bad escape, an invalid or empty body — each leaves exactly one record whose text both
// engines store (PostgreSQL refused such rows, and the audit consumer dead-lettered them). And a write whose client
// resets its connection before the answer still leaves its record (Node emits no `finish` then, so the onResponse
// hook never ran): under concurrent connections on a loaded machine that lost records with no log line.
import { connect } from 'node:net'
import { Type } from '@sinclair/typebox'
import { signInternalPrincipal } from '@switchboard/auth'
import { type AuditRecordData, PRINCIPAL_HEADER } from '@switchboard/contracts'
import { createMemoryBus, type Delivery } from '@switchboard/events'
import { inEachStorageMode, storageFixture, testPrincipal, waitFor } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import {
  CLIENT_CLOSED_STATUS,
  columnTypes,
  createRootLogger,
  defineService,
  dialectOf,
  NUL_MARKER,
  type RouteModule,
  type ServiceBaseConfig,
  type ServiceContext,
  SURROGATE_MARKER,
  toJson,
} from '../src/index.ts'

const secret = 'internal-secret-for-tests-0123456789'
const logger = createRootLogger({ level: 'silent' })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Db {
  things: { id: string; title: string }
  /** what the audit service keeps of a record, in the engine's own column types (jsonb on PostgreSQL) */
  audit_copy: { request_id: string; resource_id: string; route: string; request_json: string | null }
}

const Body = Type.Object({ title: Type.String() }, { additionalProperties: false })

/**
 * The request ids the server parsed. A client that resets 5 ms after writing can be gone before the server read a
 * byte of its request (a loaded machine): the kernel drops the unread data, no request exists, none is recorded.
 */
const received = new Set<string>()
const noteReceived = (request: { headers: Record<string, unknown> }, _reply: unknown, done: () => void) => {
  received.add(String(request.headers['x-request-id']))

  done()
}

const routes: RouteModule<ServiceContext<ServiceBaseConfig, Db>> = async (app, svc) => {
  app.addHook('onRequest', noteReceived)
  app.put('/api/things/:id', { schema: { body: Body } }, async (request) => {
    const { id } = request.params as { id: string }
    request.audit = { ...request.audit, resource_id: id, after: request.body }
    // a write that takes a moment: its client may be gone by the time it is answered
    await sleep(Number(request.headers['x-work-ms'] ?? 0))
    await svc.db
      .insertInto('things')
      .values({ id, title: request.body.title })
      .onConflict((oc) => oc.doNothing())
      .execute()
    return { id }
  })
}

// A principal check that takes a while, as it does on a loaded machine: the body is read only after it.
const slowRoutes: RouteModule<ServiceContext<ServiceBaseConfig, Db>> = async (app) => {
  app.addHook('onRequest', noteReceived)
  app.addHook('onRequest', async () => sleep(30))
  app.post('/api/slow-things', { schema: { body: Body } }, async () => ({ ok: true }))
}

const principal = testPrincipal({ user_id: 'u1', session_id: 's1', jti: 'j1' })

inEachStorageMode(t, 'audit of hostile writes', async (t, mode) => {
  const store = await storageFixture(t, mode, 'auhost')
  const bus = createMemoryBus({ logger })
  await bus.ensureStreams([{ name: 'AUDIT', subjects: ['audit.>'] }])
  const audits: Delivery[] = []
  await bus.subscribe('audit.>', async (d) => {
    audits.push(d)
  })
  const things = defineService<ServiceBaseConfig, Db>({
    unit: { name: 'things', port: 0, prefixes: ['/api/things', '/api/slow-things'] },
    loadConfig: () => {
      throw new Error('explicit config')
    },
    migrations: {
      '20261127_0001_things': {
        up: async (db: Kysely<any>) => {
          const c = columnTypes(dialectOf(db))
          await db.schema
            .createTable('things')
            .addColumn('id', 'text', (col) => col.primaryKey())
            .addColumn('title', 'text')
            .execute()
          await db.schema
            .createTable('audit_copy')
            .addColumn('request_id', 'text', (col) => col.notNull())
            .addColumn('resource_id', 'text', (col) => col.notNull())
            .addColumn('route', 'text', (col) => col.notNull())
            .addColumn('request_json', c.json)
            .execute()
        },
      },
    },
    events: [],
    routes: { protected: [routes, slowRoutes] },
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
  const svc = things.contextOf(app)
  const token = await signInternalPrincipal(secret, principal)
  const recordsOf = (requestId: string) =>
    audits.map((d) => d.envelope.data as AuditRecordData).filter((r) => r.request_id === requestId)

  t.test('the probe mix: one record each, its text storable on this engine, flagged as sanitised', async (t) => {
    const idOf = (name: string) => `probe-${mode}-${name.replaceAll(/\W+/g, '-')}`
    const cases: Array<{ name: string; url: string; payload?: string; sanitised: boolean }> = [
      { name: 'NUL in a body', url: '/api/things/a1', payload: '{"title":"a\\u0000b"}', sanitised: true },
      { name: 'lone surrogate in a body', url: '/api/things/a2', payload: '{"title":"a\\ud800"}', sanitised: true },
      { name: 'lone surrogate in a key', url: '/api/things/a3', payload: '{"\\udc00":1}', sanitised: true },
      { name: '%00 path id', url: '/api/things/%00', payload: '{"title":"x"}', sanitised: true },
      { name: 'bad escape', url: '/api/things/a4', payload: '{"title":"\\x41"}', sanitised: false },
      { name: 'invalid JSON', url: '/api/things/a5', payload: '{"title":', sanitised: false },
      { name: 'empty body', url: '/api/things/a6', payload: '', sanitised: false },
    ]
    for (const c of cases) {
      const requestId = idOf(c.name)
      const res = await app.inject({
        method: 'PUT',
        url: c.url,
        headers: { [PRINCIPAL_HEADER]: token, 'content-type': 'application/json', 'x-request-id': requestId },
        payload: c.payload,
      })
      t.equal(res.statusCode, 400, `${c.name}: refused`)
      const [record] = await waitFor(async () => (recordsOf(requestId).length ? recordsOf(requestId) : undefined))
      t.equal(recordsOf(requestId).length, 1, `${c.name}: one record`)
      t.equal(record!.sanitised === true, c.sanitised, `${c.name}: sanitised flag`)
      t.notMatch(JSON.stringify(record), /\\u0000|\\ud[89a-f][0-9a-f]{2}/i, `${c.name}: no NUL or lone surrogate left`)
      // what the audit service does with it: PostgreSQL refused these rows before (NUL in text, \u0000 and \ud800 in jsonb)
      await svc.db
        .insertInto('audit_copy')
        .values({
          request_id: record!.request_id,
          resource_id: record!.resource_id,
          route: record!.route,
          request_json: toJson(record!.request_json),
        })
        .execute()
    }
    t.same(
      recordsOf(idOf('NUL in a body'))[0]!.request_json,
      { title: `a${NUL_MARKER}b` },
      'the NUL is a visible marker',
    )
    t.equal(recordsOf(idOf('%00 path id'))[0]!.resource_id, NUL_MARKER)
    t.same(recordsOf(idOf('lone surrogate in a body'))[0]!.request_json, { title: `a${SURROGATE_MARKER}` })
    const stored = await svc.db.selectFrom('audit_copy').select('request_id').execute()
    t.equal(stored.length, cases.length, 'every record stored')
  })

  t.test('8 concurrent connections that reset before the answer: still one record per write', async (t) => {
    const port = await listening()
    // The client sends a whole request and resets its connection a moment later, as a fuzzer does on a timeout.
    const sendAndReset = (path: string, body: string, requestId: string, workMs = 0) =>
      new Promise<void>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(
            `${path.startsWith('/api/things') ? 'PUT' : 'POST'} ${path} HTTP/1.1\r\nHost: x\r\n` +
              `${PRINCIPAL_HEADER}: ${token}\r\nx-request-id: ${requestId}\r\nx-work-ms: ${workMs}\r\n` +
              `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
          )
          setTimeout(() => {
            socket.resetAndDestroy()
            resolve()
          }, 5)
        })
        socket.on('error', () => resolve())
      })
    const kinds = [
      // its body read after the client left (each one refused: bad JSON, a NUL, no body): abandoned by Fastify while reading it (recorded as 499), or, when the
      // bytes were already in, answered to a socket that closes before the answer is out (recorded with that answer)
      { path: '/api/slow-things', body: '{"title":', status: CLIENT_CLOSED_STATUS, or: 400 },
      { path: '/api/slow-things', body: '{"title":"a\\u0000b"}', status: CLIENT_CLOSED_STATUS, or: 400 },
      { path: '/api/slow-things', body: '', status: CLIENT_CLOSED_STATUS, or: 400 },
      // applied, answered after the client left (recorded with the status it was answered with)
      { path: '/api/things/r', body: '{"title":"ok"}', status: 200, or: 200, workMs: 20 },
    ]
    const sent: Array<{ requestId: string; status: number; or: number }> = []
    let next = 0
    const total = 8 * 12
    const connection = async () => {
      while (next < total) {
        const i = next++
        const kind = kinds[i % kinds.length]!
        const requestId = `reset-${mode}-${i}`
        const path = kind.path === '/api/things/r' ? `/api/things/r${i}` : kind.path
        await sendAndReset(path, kind.body, requestId, kind.workMs)
        sent.push({ requestId, status: kind.status, or: kind.or })
      }
    }
    await Promise.all(Array.from({ length: 8 }, connection))
    const parsed = sent.filter((s) => received.has(s.requestId))
    t.ok(parsed.length > 0, `${parsed.length} of ${sent.length} requests reached the server before their reset`)
    await waitFor(async () => (parsed.every((s) => recordsOf(s.requestId).length > 0) ? true : undefined), 10_000)
    await sleep(100)
    for (const s of sent.filter((s) => !received.has(s.requestId))) {
      t.equal(recordsOf(s.requestId).length, 0, `${s.requestId}: never received, nothing recorded`)
    }
    for (const s of parsed) {
      const records = recordsOf(s.requestId)
      t.equal(records.length, 1, `${s.requestId}: one record`)
      t.ok([s.status, s.or].includes(records[0]!.status_code), `${s.requestId}: status ${s.status} or ${s.or}`, {
        found: records[0]!.status_code,
      })
    }
  })

  async function listening(): Promise<number> {
    if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 })
    return (app.server.address() as { port: number }).port
  }
})
