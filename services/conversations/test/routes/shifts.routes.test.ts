import type { AuditRecordData, Envelope } from '@switchboard/contracts'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { agentsOnShift } from '../../src/db/shifts.repository.ts'
import { as, conversationsApp, principal } from '../helpers/app.ts'
import { recordingBus } from '../helpers/audit-bus.ts'
import { seedAgent } from '../helpers/omni.ts'

const agent = principal()
const otherTenant = principal({ user_id: 'agent-9', tenant_id: 'globex', workspace_id: 'support' })
const otherWorkspace = principal({ user_id: 'agent-8', workspace_id: 'sales' })
const admin = principal({ user_id: 'admin-1', kind: 'admin', roles: ['admin'], tenant_id: '', workspace_id: '' })

const HOUR = 3_600_000
const at = (offsetHours: number) => new Date(Date.now() + offsetHours * HOUR).toISOString()

inEachStorageMode(t, 'shifts API', async (t, mode) => {
  const audits: Envelope<AuditRecordData>[] = []
  const { app, svc } = await conversationsApp(t, mode, { bus: recordingBus(audits) })
  // a shift's agent is one of the scope (references.routes.test.ts)
  for (const user_id of ['agent-1', 'agent-7', 'a']) await seedAgent(svc, { user_id })
  const h = {
    agent: await as(agent),
    other: await as(otherTenant),
    otherWs: await as(otherWorkspace),
    admin: await as(admin),
  }
  const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = h.agent) =>
    app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) })
  const get = (url: string, headers = h.agent) => app.inject({ method: 'GET', url, headers })
  const create = async (body: Record<string, unknown>, headers = h.agent) => {
    const res = await send(
      'POST',
      '/api/shifts',
      { agent_id: 'agent-1', shift_type: 'morning', start_time: at(1), end_time: at(9), ...body },
      headers,
    )
    t.equal(res.statusCode, 201, res.body)
    return res.json()
  }

  t.test('create normalises times to UTC, defaults the status, scopes the shift; get returns it', async (t) => {
    const res = await send('POST', '/api/shifts', {
      agent_id: 'agent-7',
      shift_type: 'night',
      start_time: '2026-03-01T22:00:00+08:00',
      end_time: '2026-03-02T06:00:00+08:00',
    })
    t.equal(res.statusCode, 201)
    const shift = res.json()
    t.match(shift, {
      agent_id: 'agent-7',
      shift_type: 'night',
      start_time: '2026-03-01T14:00:00.000Z',
      end_time: '2026-03-01T22:00:00.000Z',
      status: 'scheduled',
      tenant_id: 'acme',
      workspace_id: 'support',
    })
    t.match(shift.id, /^[0-9a-f-]{36}$/)
    const got = await get(`/api/shifts/${shift.id}`)
    t.equal(got.statusCode, 200)
    t.same(got.json(), shift)
  })

  t.test('bad input is a 400 naming the field', async (t) => {
    const base = { agent_id: 'a', shift_type: 'morning', start_time: at(1), end_time: at(2) }
    const cases: Array<[unknown, RegExp]> = [
      [{ ...base, agent_id: undefined }, /agent_id/],
      [{ ...base, shift_type: 'brunch' }, /shift_type/],
      [{ ...base, status: 'paused' }, /status/],
      [{ ...base, start_time: 'tomorrow' }, /start_time/],
      [{ ...base, end_time: '2026-03-01 25:00' }, /end_time/],
      [{ ...base, start_time: '2026-03-01T10:00:00' }, /start_time/],
      [{ ...base, end_time: base.start_time }, /body\.end_time: must be after start_time/],
      [{ ...base, start_time: at(3) }, /body\.end_time: must be after start_time/],
      [{ ...base, extra: 1 }, /additional/],
      [
        { ...base, start_time: '0000-01-01T00:00:00Z', end_time: '0000-01-02T10:00:00Z' },
        /^body\.start_time: must lie in the years 1970 to 9998/,
      ],
      [{ ...base, end_time: '9999-01-01T00:00:00Z' }, /^body\.end_time: must lie in the years 1970 to 9998/],
    ]
    for (const [body, field] of cases) {
      const res = await send('POST', '/api/shifts', body)
      t.equal(res.statusCode, 400, JSON.stringify(body))
      t.match(res.json(), { error: 'bad_request', message: field })
    }
    const unscoped = await send('POST', '/api/shifts', base, h.admin)
    t.equal(unscoped.statusCode, 400, 'an unscoped admin must name a scope to create')
    t.equal((await app.inject({ method: 'GET', url: '/api/shifts' })).statusCode, 401, 'no principal')
  })

  t.test('update changes what differs and checks the stored window; delete answers 204', async (t) => {
    const shift = await create({ shift_type: 'afternoon' })
    const same = await send('PUT', `/api/shifts/${shift.id}`, { shift_type: 'afternoon' })
    t.equal(same.statusCode, 200)
    t.same(same.json(), shift, 'nothing differs: untouched, updated_at too')

    const moved = await send('PUT', `/api/shifts/${shift.id}`, { status: 'active', end_time: at(10) })
    t.equal(moved.statusCode, 200)
    t.match(moved.json(), { status: 'active', shift_type: 'afternoon', start_time: shift.start_time })
    t.not(moved.json().updated_at, shift.updated_at)

    const badStart = await send('PUT', `/api/shifts/${shift.id}`, { start_time: at(11) })
    t.equal(badStart.statusCode, 400)
    t.match(badStart.json().message, /^body\.start_time: must be before end_time/)
    const badEnd = await send('PUT', `/api/shifts/${shift.id}`, { end_time: shift.start_time })
    t.match(badEnd.json().message, /^body\.end_time: must be after start_time/)
    const far = await send('PUT', `/api/shifts/${shift.id}`, { end_time: '+010000-01-01T00:00:00Z' })
    t.equal(far.statusCode, 400, 'a year past 9998')
    const farEnd = await send('PUT', `/api/shifts/${shift.id}`, { end_time: '9999-06-01T00:00:00Z' })
    t.match(farEnd.json(), { code: 'VALIDATION_FAILED', message: /^body\.end_time: must lie in the years/ })
    t.equal((await send('PUT', `/api/shifts/${shift.id}`, {})).statusCode, 400, 'an empty update')

    const del = await send('DELETE', `/api/shifts/${shift.id}`)
    t.equal(del.statusCode, 204)
    t.equal(del.body, '')
    t.equal((await get(`/api/shifts/${shift.id}`)).statusCode, 404)
    const again = await send('DELETE', `/api/shifts/${shift.id}`)
    t.equal(again.statusCode, 404)
    t.match(again.json(), { code: 'CONVERSATIONS_SHIFT_NOT_FOUND' })
  })

  t.test('writes are audited with the shift and its snapshots', async (t) => {
    const shift = await create({})
    await send('PUT', `/api/shifts/${shift.id}`, { status: 'cancelled' })
    await send('DELETE', `/api/shifts/${shift.id}`)
    const mine = () => audits.filter((e) => e.data.resource_id === shift.id)
    await waitFor(async () => mine().length === 3)
    const [created, updated, deleted] = ['shifts.create', 'shifts.update', 'shifts.delete'].map((action) =>
      mine().find((e) => e.data.action === action),
    )
    t.match(created, { tenant_id: 'acme', data: { status_code: 201, after_json: { id: shift.id } } })
    t.match(updated, { data: { before_json: { status: 'scheduled' }, after_json: { status: 'cancelled' } } })
    t.match(deleted, { data: { status_code: 204, success: true, before_json: { id: shift.id } } })
  })

  t.test("another tenant's or workspace's shift is missing; an unscoped admin sees it", async (t) => {
    const shift = await create({})
    for (const headers of [h.other, h.otherWs]) {
      t.equal((await get(`/api/shifts/${shift.id}`, headers)).statusCode, 404)
      t.equal((await send('PUT', `/api/shifts/${shift.id}`, { status: 'active' }, headers)).statusCode, 404)
      t.equal((await send('DELETE', `/api/shifts/${shift.id}`, undefined, headers)).statusCode, 404)
      const list = (await get('/api/shifts?page_size=200', headers)).json()
      t.notOk(
        list.data.some((s: { id: string }) => s.id === shift.id),
        'not listed',
      )
    }
    t.equal((await get(`/api/shifts/${shift.id}`, h.admin)).statusCode, 200)
  })

  t.test('stats is never taken for an id', async (t) => {
    t.equal((await get('/api/shifts/stats')).statusCode, 200)
    t.match((await send('PUT', '/api/shifts/stats', { status: 'active' })).json(), {
      code: 'CONVERSATIONS_SHIFT_NOT_FOUND',
    })
  })
})

inEachStorageMode(t, 'shift lists, stats and who is on shift', async (t, mode) => {
  const { app, svc } = await conversationsApp(t, mode)
  const headers = await as(principal({ workspace_id: 'lists' }))
  const other = await as(principal({ workspace_id: 'elsewhere' }))
  for (const user_id of ['ann', 'bob', 'cid', 'dee', 'eve']) await seedAgent(svc, { user_id, workspace_id: 'lists' })
  await seedAgent(svc, { user_id: 'zed', workspace_id: 'elsewhere' })
  const post = async (body: Record<string, unknown>, hdrs = headers) => {
    const res = await app.inject({ method: 'POST', url: '/api/shifts', headers: hdrs, payload: body })
    t.equal(res.statusCode, 201, res.body)
    return res.json()
  }
  const list = async (query: string) => {
    const res = await app.inject({ method: 'GET', url: `/api/shifts?${query}`, headers })
    t.equal(res.statusCode, 200, res.body)
    return res.json()
  }
  const day = (d: string, h: number) => `2026-05-${d}T${String(h).padStart(2, '0')}:00:00.000Z`
  const a = await post({ agent_id: 'ann', shift_type: 'morning', start_time: day('01', 6), end_time: day('01', 14) })
  const b = await post({
    agent_id: 'bob',
    shift_type: 'evening',
    start_time: day('01', 16),
    end_time: day('02', 0),
    status: 'completed',
  })
  const c = await post({
    agent_id: 'ann',
    shift_type: 'night',
    start_time: day('02', 22),
    end_time: day('03', 6),
    status: 'cancelled',
  })
  const d = await post({ agent_id: 'cid', shift_type: 'afternoon', start_time: day('03', 12), end_time: day('03', 20) })
  const ids = (page: { data: Array<{ id: string }> }) => page.data.map((s) => s.id)

  t.test('sorted by start_time ascending by default, paginated', async (t) => {
    const page = await list('page_size=3')
    t.match(page, { total: 4, page: 1, page_size: 3, pages: 2 })
    t.same(ids(page), [a.id, b.id, c.id])
    t.same(ids(await list('page=2&page_size=3')), [d.id])
    t.same(ids(await list('sort_by=end_time&sort_order=desc')), [d.id, c.id, b.id, a.id])
    t.same(ids(await list('sort_by=created_at&sort_order=asc')), [a.id, b.id, c.id, d.id])
  })

  t.test('filters: agent, repeatable type and status, date bounds', async (t) => {
    t.same(ids(await list('agent_id=ann')), [a.id, c.id])
    t.same(ids(await list('shift_type=morning&shift_type=night')), [a.id, c.id])
    t.same(ids(await list('shift_type=evening')), [b.id], 'a single value is a list of one')
    t.same(ids(await list('status=scheduled&status=cancelled')), [a.id, c.id, d.id])
    t.same(ids(await list('date_from=2026-05-02')), [c.id, d.id], 'a date starts at its midnight')
    t.same(ids(await list('date_to=2026-05-02')), [a.id, b.id, c.id], 'a date includes the whole day')
    t.same(ids(await list('date_from=2026-05-01T10:00:00Z&date_to=2026-05-02T22:00:00Z')), [b.id, c.id])
    t.same(ids(await list('date_from=2026-05-01T18:00:00%2B08:00&date_to=2026-05-01')), [b.id], 'offsets convert')
    t.same(ids(await list('agent_id=ann&status=scheduled')), [a.id])
  })

  t.test('bad list parameters are a 400 naming them', async (t) => {
    for (const [query, name] of [
      ['date_from=yesterday', 'date_from'],
      ['date_to=2026-02-30', 'date_to'],
      ['date_from=2026-05-01Tnoon', 'date_from'],
      ['date_from=0000-01-01', 'date_from'],
      ['date_to=9999-12-31', 'date_to'],
      ['date_to=0001-01-01T00:00:00Z', 'date_to'],
      ['shift_type=brunch', 'shift_type'],
      ['status=paused', 'status'],
      ['sort_by=agent_id', 'sort_by'],
      ['sort_order=up', 'sort_order'],
      ['page=0', 'page'],
    ] as const) {
      const res = await app.inject({ method: 'GET', url: `/api/shifts?${query}`, headers })
      t.equal(res.statusCode, 400, query)
      t.match(res.json().message, new RegExp(`querystring\\.${name}`), query)
    }
  })

  t.test('stats count the scope: every key, upcoming and active today', async (t) => {
    await post({ agent_id: 'dee', shift_type: 'morning', start_time: at(-1), end_time: at(1), status: 'active' })
    await post({ agent_id: 'eve', shift_type: 'night', start_time: at(48), end_time: at(56) })
    await post({ agent_id: 'zed', shift_type: 'night', start_time: at(48), end_time: at(56) }, other)
    const res = await app.inject({ method: 'GET', url: '/api/shifts/stats', headers })
    t.equal(res.statusCode, 200)
    t.same(res.json(), {
      total: 6,
      by_type: { morning: 2, afternoon: 1, evening: 1, night: 2 },
      by_status: { scheduled: 3, active: 1, completed: 1, cancelled: 1 },
      upcoming: 1,
      today_active: 1,
    })
  })

  t.test('agentsOnShift: who covers a moment, and whether the scope schedules at all', async (t) => {
    const scope = { tenant_id: 'acme', workspace_id: 'lists' }
    const on = async (when: string, s = scope) => {
      const r = await agentsOnShift(svc.db, s, when)
      return { hasShifts: r.hasShifts, userIds: [...r.userIds].sort() }
    }
    t.same(await on(day('01', 10)), { hasShifts: true, userIds: ['ann'] })
    t.same(await on(day('01', 14)), { hasShifts: true, userIds: [] }, 'the end is exclusive')
    t.same(await on(day('01', 18)), { hasShifts: true, userIds: [] }, 'a completed shift is off')
    t.same(await on(day('03', 2)), { hasShifts: true, userIds: [] }, 'a cancelled shift is off')
    t.same(await on(day('03', 13)), { hasShifts: true, userIds: ['cid'] })
    t.same(await on('2026-06-15T12:00:00.000Z'), { hasShifts: false, userIds: [] }, 'nothing scheduled around')
    t.same(
      await on(day('01', 10), { tenant_id: 'acme', workspace_id: 'elsewhere' }),
      { hasShifts: false, userIds: [] },
      'another workspace has its own schedule',
    )
    t.same(await on(new Date().toISOString()), { hasShifts: true, userIds: ['dee'] })
  })
})
