import { inEachStorageMode, testPrincipal, waitFor } from '@switchboard/testing'
import t from 'tap'
import { as, auditApp, auditEvent } from '../helpers/app.ts'

const scoped = testPrincipal()
const tenantWide = testPrincipal({ user_id: 'admin-2', workspace_id: '' })
const unscoped = testPrincipal({ user_id: 'root', tenant_id: '', workspace_id: '' })
const globex = testPrincipal({ user_id: 'admin-g', tenant_id: 'globex' })

// Five records in three scopes, at known times (UTC).
const fixtures = [
  auditEvent({ resource_id: 't1' }, { occurred_at: '2026-03-01T10:00:00.000Z' }),
  auditEvent(
    { action: 'tickets.close', status_code: 409, success: false, route: '/api/tickets/:id/close' },
    { occurred_at: '2026-03-02T23:59:59.999Z' },
  ),
  auditEvent(
    {
      action: 'customers.update',
      resource_type: 'customers',
      resource_id: 'c1',
      actor_user_id: 'a1',
      principal_kind: 'admin',
      method: 'PUT',
      status_code: 200,
      before_json: { name: 'Ann', tags: ['vip'], address: { city: 'Oslo' } },
      after_json: { name: 'Anne', tags: ['vip', 'new'], address: { city: 'Bergen' } },
    },
    { occurred_at: '2026-03-03T00:00:00.000Z' },
  ),
  auditEvent(
    { action: 'tickets.assign', actor_user_id: 'u2' },
    { occurred_at: '2026-03-02T12:00:00.000Z', workspace_id: 'sales' },
  ),
  auditEvent({ actor_user_id: 'u9' }, { occurred_at: '2026-03-02T12:00:00.000Z', tenant_id: 'globex' }),
]

inEachStorageMode(t, 'audit API', async (t, mode) => {
  const { app, svc } = await auditApp(t, mode)
  const db = svc.db
  for (const e of fixtures) await svc.bus.publish('audit.tickets.recorded', e)
  await waitFor(async () => {
    const { n } = await db
      .selectFrom('audit_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    return Number(n) === fixtures.length
  })
  const idOf = async (eventId: string) =>
    (await db.selectFrom('audit_logs').select('id').where('event_id', '=', eventId).executeTakeFirstOrThrow()).id
  const ids = await Promise.all(fixtures.map((f) => idOf(f.id)))
  const h = {
    scoped: await as(scoped),
    tenant: await as(tenantWide),
    all: await as(unscoped),
    globex: await as(globex),
  }
  const get = (url: string, headers = h.scoped) => app.inject({ method: 'GET', url, headers })
  const list = async (qs: string, headers = h.scoped) => {
    const res = await get(`/api/audit/logs?${qs}`, headers)
    t.equal(res.statusCode, 200, `list ${qs}`)
    return res.json()
  }
  const fixtureIndexes = (body: { data: Array<{ id: string }> }) => body.data.map((r) => ids.indexOf(r.id))

  t.test('list: newest first, bound to scope', async (t) => {
    const page = await list('')
    t.match(page, { total: 3, page: 1, page_size: 20, pages: 1 })
    t.same(fixtureIndexes(page), [2, 1, 0])
    t.match(page.data[0], {
      action: 'customers.update',
      tenant_id: 'acme',
      workspace_id: 'support',
      success: true,
      before_json: { name: 'Ann' },
      created_at: '2026-03-03T00:00:00.000Z',
      event_id: fixtures[2]!.id,
    })
    t.same(fixtureIndexes(await list('', h.tenant)), [2, 1, 3, 0], 'a tenant-wide admin sees every workspace')
    t.equal((await list('', h.all)).total, 5, 'an unscoped admin sees every tenant')
    t.same(fixtureIndexes(await list('', h.globex)), [4])
  })

  t.test('list: each filter', async (t) => {
    t.same(fixtureIndexes(await list('action=tickets.create')), [0])
    t.same(fixtureIndexes(await list('resource=customers')), [2])
    t.same(fixtureIndexes(await list('principal=admin')), [2])
    t.same(fixtureIndexes(await list('actor=u1')), [1, 0])
    t.same(fixtureIndexes(await list('success=false')), [1])
    t.same(fixtureIndexes(await list('success=true')), [2, 0])
    t.same(fixtureIndexes(await list('start_date=2026-03-02')), [2, 1])
    t.same(fixtureIndexes(await list('end_date=2026-03-02')), [1, 0], 'the end date counts whole')
    t.same(fixtureIndexes(await list('start_date=2026-03-02&end_date=2026-03-02')), [1])
    t.same(fixtureIndexes(await list('end_date=2026-03-03T00:00:00Z')), [2, 1, 0], 'an instant end is inclusive')
    t.same(fixtureIndexes(await list('start_date=2026-03-01T10:00:00.001Z')), [2, 1])
    t.same(fixtureIndexes(await list('start_date=2026-03-01T11:00:00%2B01:00')), [2, 1, 0], 'offsets')
    t.same(fixtureIndexes(await list('actor=u1&success=true&action=tickets.create')), [0])
  })

  t.test('list: pagination and limit', async (t) => {
    const limited = await list('limit=1')
    t.match(limited, { total: 3, page_size: 1, pages: 3 })
    t.equal(limited.data.length, 1)
    const p2 = await list('page=2&page_size=2')
    t.match(p2, { page: 2, page_size: 2, pages: 2 })
    t.same(fixtureIndexes(p2), [0])
    t.equal((await list('limit=100000')).page_size, 200, 'limit is capped at 200')
  })

  t.test('list: bad filters are 400s naming the parameter', async (t) => {
    const cases: Array<[string, string, RegExp]> = [
      ['start_date=2026-02-30', 'AUDIT_INVALID_DATE', /start_date/],
      ['end_date=yesterday', 'AUDIT_INVALID_DATE', /end_date/],
      ['start_date=2026-03-02&end_date=2026-03-01', 'AUDIT_INVALID_RANGE', /end_date is before start_date/],
      ['success=maybe', 'VALIDATION_FAILED', /success/],
      ['limit=0', 'VALIDATION_FAILED', /limit/],
      ['page_size=500', 'VALIDATION_FAILED', /page_size/],
      // out-of-range pages reached the database and answered 500 (issue 14)
      ['page=Infinity', 'VALIDATION_FAILED', /page/],
      ['page=1e309', 'VALIDATION_FAILED', /page/],
      ['page=99999999999999999999999', 'VALIDATION_FAILED', /page/],
    ]
    for (const [qs, code, message] of cases) {
      const res = await get(`/api/audit/logs?${qs}`)
      t.equal(res.statusCode, 400, qs)
      t.match(res.json(), { error: 'bad_request', code, message })
    }
    t.equal((await get('/api/audit/logs/export?end_date=2026-01-01&start_date=2026-02-01')).statusCode, 400)
    t.equal((await app.inject({ method: 'GET', url: '/api/audit/logs' })).statusCode, 401)
  })

  t.test('one record, bound to scope; outside it is the same 404 as missing', async (t) => {
    const own = await get(`/api/audit/logs/${ids[0]}`)
    t.equal(own.statusCode, 200)
    t.match(own.json(), { id: ids[0], action: 'tickets.create', resource_id: 't1' })
    const missing = await get('/api/audit/logs/nope')
    t.equal(missing.statusCode, 404)
    t.equal(missing.json().code, 'AUDIT_NOT_FOUND')
    for (const i of [3, 4]) {
      const res = await get(`/api/audit/logs/${ids[i]}`)
      t.equal(res.statusCode, 404)
      t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'request_id'])
      t.equal(res.json().code, 'AUDIT_NOT_FOUND')
      t.equal((await get(`/api/audit/logs/${ids[i]}/diff`)).statusCode, 404)
    }
    t.equal((await get(`/api/audit/logs/${ids[4]}`, h.all)).statusCode, 200)
  })

  t.test('diff', async (t) => {
    const res = await get(`/api/audit/logs/${ids[2]}/diff`)
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.equal(body.audit.id, ids[2])
    t.same(body.diff, {
      has_before: true,
      has_after: true,
      changed: true,
      change_count: 3,
      changed_paths: ['address.city', 'name', 'tags.1'],
      changes: [
        { path: 'address.city', type: 'updated', before: 'Oslo', after: 'Bergen' },
        { path: 'name', type: 'updated', before: 'Ann', after: 'Anne' },
        { path: 'tags.1', type: 'added', before: null, after: 'new' },
      ],
    })
    const none = (await get(`/api/audit/logs/${ids[0]}/diff`)).json()
    t.match(none.diff, { has_before: false, has_after: false, changed: false, change_count: 0, changes: [] })
  })

  t.test('export: CSV attachment with a header row, same filters and scope', async (t) => {
    const res = await get('/api/audit/logs/export')
    t.equal(res.statusCode, 200)
    t.match(res.headers['content-type'], /^text\/csv/)
    t.equal(res.headers['content-disposition'], 'attachment; filename="audit-logs.csv"')
    const lines = res.body.trimEnd().split('\n')
    t.equal(
      lines[0],
      'id,created_at,tenant_id,workspace_id,actor_user_id,principal_kind,action,resource_type,resource_id,route,method,status_code,success,request_id,client_ip,user_agent,request_json,before_json,after_json,sanitised',
    )
    t.equal(lines.length, 4, 'header + the three records in scope')
    t.ok(lines[1]!.startsWith(`${ids[2]},2026-03-03T00:00:00.000Z,acme,support,a1,admin,customers.update,`))
    t.match(lines[1], /"\{""name"":""Ann""/, 'JSON cells quoted the CSV way')
    const filtered = (await get('/api/audit/logs/export?success=false')).body.trimEnd().split('\n')
    t.equal(filtered.length, 2)
    t.match(filtered[1], /,tickets\.close,.*,409,false,/)
    const globexCsv = (await get('/api/audit/logs/export', h.globex)).body.trimEnd().split('\n')
    t.equal(globexCsv.length, 2)
    t.ok(globexCsv[1]!.startsWith(ids[4]!))
    const empty = (await get('/api/audit/logs/export?action=none')).body.trimEnd().split('\n')
    t.equal(empty.length, 1, 'no rows: the header alone')
  })

  t.test('export: limit defaults to 1000 and is capped at 5000', async (t) => {
    // Straight into the table: 5001 events through the bus would only slow the suite down.
    const rows = Array.from({ length: 5001 }, (_, i) => ({
      id: `bulk-${String(i).padStart(5, '0')}`,
      created_at: new Date(Date.UTC(2026, 2, 10) + i * 1000).toISOString(),
      actor_user_id: 'bulk',
      principal_kind: 'service',
      action: 'bulk.create',
      resource_type: 'bulk',
      resource_id: String(i),
      route: '/api/bulk',
      method: 'POST',
      status_code: 201,
      success: true,
      request_id: `r${i}`,
      client_ip: '127.0.0.1',
      user_agent: 'bulk',
      tenant_id: 'bulk',
      workspace_id: 'main',
      request_json: null,
      before_json: null,
      after_json: null,
      event_id: `bulk-ev-${i}`,
    }))
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('audit_logs')
        .values(rows.slice(i, i + 500))
        .execute()
    const bulk = await as(testPrincipal({ user_id: 'bulk-admin', tenant_id: 'bulk', workspace_id: 'main' }))
    const count = async (qs: string) =>
      (await get(`/api/audit/logs/export${qs}`, bulk)).body.trimEnd().split('\n').length - 1
    t.equal(await count(''), 1000)
    t.equal(await count('?limit=10000'), 5000)
    t.equal(await count('?limit=7'), 7)
    const newest = (await get('/api/audit/logs/export?limit=1', bulk)).body.trimEnd().split('\n')[1]
    t.ok(newest!.startsWith('bulk-05000,'), 'newest first')
  })
})
