// POST /api/v1/metrics/ingest: a service's batch of client samples; allow-listed names recorded on
// this service's /metrics labelled with source and tenant, unknown names dropped and counted (never silently), bad or
// oversized bodies 400 in the error body, any principal but a service refused. It touches no storage: SQLite only.
import { testPrincipal } from '@switchboard/testing'
import t from 'tap'
import { MAX_BATCH } from '../../src/domain/client-metrics.ts'
import { as, statisticsApp, supervisor } from '../helpers/app.ts'
import { sampleOf, scrape } from '../helpers/scrape.ts'

const ERROR_KEYS = ['code', 'error', 'message', 'request_id']
const service = (overrides = {}) =>
  testPrincipal({
    user_id: 'svc-sdk-relay',
    kind: 'service',
    roles: [],
    permissions: [],
    tenant_id: '',
    workspace_id: '',
    ...overrides,
  })

t.test('metrics ingest', async (t) => {
  const { app } = await statisticsApp(t, 'sqlite')
  const post = async (body: unknown, headers: Record<string, string>) => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/metrics/ingest', payload: body as object, headers })
    return { status: res.statusCode, body: res.json() }
  }
  const svcHeaders = await as(service())

  t.test('allow-listed names are recorded, unknown ones dropped, counted and named', async (t) => {
    const res = await post(
      {
        source: 'sdk',
        tenant: 'acme',
        session_id: 'sess-42',
        metrics: [
          { name: 'sdk_ws_reconnects_total', value: 2, labels: { reason: 'network' } },
          { name: 'sdk_ws_reconnects_total', value: 0 }, // a bare increment: 0 counts as 1
          { name: 'sdk_messages_sent_total' }, // no value: 1
          { name: 'agent_online_gauge', value: 7 },
          { name: 'made_up_total', value: 5 },
          { name: 'made_up_total', value: 1 },
          { name: 'process_cpu_seconds_total', value: 1 }, // a real metric's name is not a client's to move
        ],
      },
      svcHeaders,
    )
    t.equal(res.status, 200)
    t.same(res.body, {
      success: true,
      accepted: 4,
      dropped: 3,
      dropped_names: ['made_up_total', 'process_cpu_seconds_total'],
    })
    const text = await scrape(app)
    const sdk = { source: 'sdk', tenant: 'acme', service: 'statistics' }
    t.equal(sampleOf(text, 'sdk_ws_reconnects_total', sdk), 3)
    t.equal(sampleOf(text, 'sdk_messages_sent_total', sdk), 1)
    t.equal(sampleOf(text, 'agent_online_gauge', sdk), 7)
    t.equal(sampleOf(text, 'statistics_ingest_dropped_total', { reason: 'unknown_name' }), 3)
    t.equal(sampleOf(text, 'statistics_ingest_accepted_total', { source: 'sdk' }), 4)
    t.equal(sampleOf(text, 'made_up_total'), undefined, 'an unknown name makes no series')
    t.notMatch(text, /sess-42/, 'the session is not a label (one series per session would grow without bound)')
  })

  t.test('a gauge takes the value as given, 0 included; a counter adds up across batches', async (t) => {
    const agent = { source: 'agent', tenant: 'globex' }
    const batch = (value: number) => ({
      source: 'agent',
      tenant: 'globex',
      metrics: [
        { name: 'agent_online_gauge', value },
        { name: 'agent_takeover_total', value },
      ],
    })
    t.equal((await post(batch(4), svcHeaders)).status, 200)
    t.equal((await post(batch(0), svcHeaders)).status, 200)
    const text = await scrape(app)
    t.equal(sampleOf(text, 'agent_online_gauge', agent), 0)
    t.equal(sampleOf(text, 'agent_takeover_total', agent), 5)
  })

  t.test("a scoped service records its own tenant's samples only", async (t) => {
    const scoped = await as(service({ tenant_id: 'initech', workspace_id: 'main' }))
    const ok = await post({ source: 'admin', metrics: [{ name: 'admin_actions_total', value: 2 }] }, scoped)
    t.equal(ok.status, 200)
    t.equal(sampleOf(await scrape(app), 'admin_actions_total', { source: 'admin', tenant: 'initech' }), 2)
    const other = await post({ source: 'admin', tenant: 'acme', metrics: [{ name: 'admin_actions_total' }] }, scoped)
    t.equal(other.status, 403)
    t.equal(other.body.code, 'FORBIDDEN')
  })

  t.test('any other principal kind is refused; no principal is 401', async (t) => {
    const body = { source: 'sdk', metrics: [{ name: 'sdk_ws_reconnects_total' }] }
    for (const p of [supervisor(), testPrincipal({ user_id: 'root', tenant_id: '', workspace_id: '' })]) {
      const res = await post(body, await as(p))
      t.equal(res.status, 403, p.kind)
      t.same(Object.keys(res.body).sort(), ERROR_KEYS)
      t.equal(res.body.code, 'FORBIDDEN')
    }
    t.equal((await post(body, {})).status, 401)
  })

  t.test('bad bodies: 400 in the error body, naming the field; nothing recorded', async (t) => {
    const before = await scrape(app)
    const cases: Array<[unknown, RegExp]> = [
      [{ metrics: [{ name: 'sdk_ws_reconnects_total' }] }, /source/],
      [{ source: 'robot', metrics: [{ name: 'sdk_ws_reconnects_total' }] }, /source/],
      [{ source: 'sdk' }, /metrics/],
      [{ source: 'sdk', metrics: [] }, /metrics/],
      [{ source: 'sdk', metrics: [{ value: 1 }] }, /name/],
      [{ source: 'sdk', metrics: [{ name: 'sdk_ws_reconnects_total', value: -1 }] }, /value/],
      [{ source: 'sdk', metrics: [{ name: 'sdk_ws_reconnects_total', value: 'many' }] }, /value/],
      [{ source: 'sdk', metrics: [{ name: 'sdk_ws_reconnects_total', labels: { a: { b: 1 } } }] }, /labels/],
      [{ source: 'sdk', metrics: [{ name: 'sdk_ws_reconnects_total' }], extra: true }, /extra|additional/],
    ]
    for (const [body, names] of cases) {
      const res = await post(body, svcHeaders)
      t.equal(res.status, 400, JSON.stringify(body))
      t.same(Object.keys(res.body).sort(), ERROR_KEYS)
      t.equal(res.body.code, 'VALIDATION_FAILED')
      t.match(res.body.message, names)
    }
    const after = await scrape(app)
    const reconnects = { source: 'sdk', tenant: 'acme' }
    t.equal(
      sampleOf(after, 'sdk_ws_reconnects_total', reconnects),
      sampleOf(before, 'sdk_ws_reconnects_total', reconnects),
    )
  })

  t.test(`a batch of more than ${MAX_BATCH} samples is refused whole`, async (t) => {
    const metrics = Array.from({ length: MAX_BATCH + 1 }, () => ({ name: 'sdk_messages_recv_total' }))
    const res = await post({ source: 'sdk', tenant: 'acme', metrics }, svcHeaders)
    t.equal(res.status, 400)
    t.equal(res.body.code, 'VALIDATION_FAILED')
    t.match(res.body.message, /metrics/)
    t.equal(sampleOf(await scrape(app), 'sdk_messages_recv_total', { tenant: 'acme' }), undefined)
    const full = Array.from({ length: MAX_BATCH }, () => ({ name: 'sdk_messages_recv_total' }))
    t.equal((await post({ source: 'sdk', tenant: 'acme', metrics: full }, svcHeaders)).status, 200)
    t.equal(sampleOf(await scrape(app), 'sdk_messages_recv_total', { tenant: 'acme' }), MAX_BATCH)
  })
})
