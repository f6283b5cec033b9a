import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { ACME_SUPPORT, as, defineFields, principal, ticketsApp } from '../helpers/app.ts'
import { makeKnown, recordId } from '../helpers/directory.ts'

const agent = principal()
const otherTenant = principal({ user_id: 'agent-9', tenant_id: 'globex', workspace_id: 'support' })
const admin = principal({ user_id: 'admin-1', kind: 'admin', roles: ['admin'], tenant_id: '', workspace_id: '' })
const GLOBEX = { tenant_id: 'globex', workspace_id: 'support' }

inEachStorageMode(t, 'ticket lists, stats and history', async (t, mode) => {
  const { app, svc } = await ticketsApp(t, mode)
  const h = { agent: await as(agent), other: await as(otherTenant), admin: await as(admin) }
  await makeKnown(svc, ACME_SUPPORT, { customers: ['lc-1', 'lc-2'], agents: ['la-1', 'la-2'] })
  await makeKnown(svc, GLOBEX, { customers: ['lc-1'], agents: ['la-1'] })
  await defineFields(app, h.agent, [
    { key: 'plan', type: 'select', options: ['free', 'pro'] },
    { key: 'seats', type: 'number' },
    { key: 'regions', type: 'multiselect', options: ['eu', 'us', 'apac'] },
    { key: 'vip', type: 'boolean' },
  ])
  await defineFields(app, h.other, [{ key: 'plan', type: 'string' }])
  const post = (url: string, payload: unknown, headers = h.agent) =>
    app.inject({ method: 'POST', url, payload: payload as object, headers })
  const get = (url: string, headers = h.agent) => app.inject({ method: 'GET', url, headers })
  const create = async (body: Record<string, unknown>, headers = h.agent) => {
    const res = await post('/api/tickets', { customer_id: 'lc-1', ...body }, headers)
    if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`)
    return res.json()
  }
  const titles = async (qs: string, headers = h.agent) => {
    const res = await get(`/api/tickets?${qs}&page_size=200`, headers)
    t.equal(res.statusCode, 200, `${qs}: ${res.statusCode === 200 ? 'ok' : res.body}`)
    return (res.json().data as Array<{ title: string }>).map((x) => x.title).sort()
  }

  const a = await create({
    title: 'A',
    priority: 'urgent',
    category: 'billing',
    source: 'email',
    tags: ['vip', 'eu'],
    custom_fields: { plan: 'pro', seats: 10, regions: ['eu', 'us'], vip: true },
  })
  const b = await create({
    title: 'B',
    priority: 'low',
    category: 'tech',
    source: 'web',
    tags: ['eu'],
    custom_fields: { plan: 'free', seats: 2.5 },
  })
  const c = await create({
    title: 'C',
    priority: 'high',
    category: 'billing',
    source: 'chat',
    customer_id: recordId(ACME_SUPPORT, 'lc-2'),
    custom_fields: { regions: ['apac'], vip: false },
  })
  await create({ title: 'G', customer_id: 'lc-1', custom_fields: { plan: 'pro' } }, h.other)
  await post(`/api/tickets/${a.id}/assign`, { agent_id: 'la-1' })
  await post(`/api/tickets/${b.id}/assign`, { agent_id: recordId(ACME_SUPPORT, 'la-2') })
  await app.inject({ method: 'PUT', url: `/api/tickets/${b.id}`, headers: h.agent, payload: { status: 'in_progress' } })
  await app.inject({ method: 'PUT', url: `/api/tickets/${b.id}`, headers: h.agent, payload: { status: 'resolved' } })
  await post(`/api/tickets/${c.id}/close`, { reason: 'dup' })

  t.test('references are stored as user ids, whichever id was given', async (t) => {
    t.equal(c.customer_id, 'lc-2', 'a customer record id is stored as its user id')
    t.equal((await get(`/api/tickets/${b.id}`)).json().agent_id, 'la-2', 'an agent record id too')
  })

  t.test('repeatable filters are any-of; tags are all-of; references by either id', async (t) => {
    t.same(await titles('status=assigned&status=resolved'), ['A', 'B'])
    t.same(await titles('priority=urgent&priority=low'), ['A', 'B'])
    t.same(await titles('category=billing'), ['A', 'C'])
    t.same(await titles('source=chat&source=email'), ['A', 'C'])
    t.same(await titles('tag=eu'), ['A', 'B'])
    t.same(await titles('tag=eu&tag=vip'), ['A'])
    t.same(await titles('tag=none'), [])
    t.same(await titles('agent_id=la-2'), ['B'])
    t.same(await titles(`agent_id=${recordId(ACME_SUPPORT, 'la-2')}`), ['B'], 'agent record id')
    t.same(await titles(`customer_id=${recordId(ACME_SUPPORT, 'lc-2')}`), ['C'], 'customer record id')
    t.same(await titles('customer_id=lc-1'), ['A', 'B'], "the other tenant's ticket is not listed")
    t.same(await titles('search=a&status=open&status=assigned'), ['A'])
  })

  t.test('cf.<key> filters by type; unknown keys and bad numbers are 400', async (t) => {
    t.same(await titles('cf.plan=pro'), ['A'])
    t.same(await titles('cf_plan=free'), ['B'], 'the earlier cf_ spelling')
    t.same(await titles('cf.plan=pro&cf.plan=free'), ['A', 'B'])
    t.same(await titles('cf.seats=2.50'), ['B'], 'numbers compare as numbers')
    t.same(await titles('cf.regions=eu'), ['A'], 'a multiselect matches any of its choices')
    t.same(await titles('cf.regions=apac&category=billing'), ['C'])
    t.same(await titles('cf.vip=false'), ['C'])
    t.same(await titles('cf.plan=pro', h.other), ['G'], 'each scope its own fields')
    t.same(await titles('cf.plan=pro', h.admin), ['A', 'G'], 'an unscoped admin spans scopes')
    const unknown = await get('/api/tickets?cf.colour=red')
    t.equal(unknown.statusCode, 400)
    t.match(unknown.json(), {
      code: 'TICKETS_INVALID_FILTER',
      message: /querystring.cf.colour: no custom field colour/,
    })
    const nan = await get('/api/tickets?cf.seats=many')
    t.equal(nan.statusCode, 400)
    t.match(nan.json().message, /querystring.cf.seats: must be a number/)
  })

  t.test('date ranges and sorting', async (t) => {
    const today = new Date().toISOString().slice(0, 10)
    t.same(await titles(`created_from=${today}&created_to=${today}`), ['A', 'B', 'C'])
    t.same(await titles('created_to=2000-01-01'), [])
    t.same(await titles(`resolved_from=${today}`), ['B', 'C'], 'closing stamps resolved_at too')
    t.same(await titles(`closed_from=${new Date(Date.now() - 60_000).toISOString()}`), ['C'])
    const bad = await get('/api/tickets?created_from=2026-03-02&created_to=2026-03-01')
    t.equal(bad.statusCode, 400)
    t.match(bad.json().message, /created_to: before created_from/)
    t.equal((await get('/api/tickets?updated_from=yesterday')).statusCode, 400)

    const order = async (qs: string) =>
      ((await get(`/api/tickets?${qs}`)).json().data as Array<{ title: string }>).map((x) => x.title).join('')
    t.equal(await order(''), 'CBA', 'newest first by default')
    t.equal(await order('sort_by=created_at&sort_order=asc'), 'ABC')
    t.equal(await order('sort_by=priority&sort_order=desc'), 'ACB', 'urgent, high, low')
    t.equal(await order('sort_by=priority&sort_order=asc'), 'BCA')
    t.equal(await order('sort_by=closed_at&sort_order=desc'), 'CBA', 'never closed last, either way')
    t.equal((await get('/api/tickets?sort_by=colour')).statusCode, 400)
  })

  t.test('stats over the scope, and per agent', async (t) => {
    const res = await get('/api/tickets/stats')
    t.equal(res.statusCode, 200)
    t.match(res.json(), {
      total: 3,
      today_created: 3,
      pending: 1,
      in_progress: 0,
      resolved: 1,
      closed: 1,
      by_status: [
        { status: 'assigned', count: 1 },
        { status: 'closed', count: 1 },
        { status: 'resolved', count: 1 },
      ],
      by_category: [
        { category: 'billing', count: 2 },
        { category: 'tech', count: 1 },
      ],
    })
    t.equal((await get(`/api/tickets/stats?agent_id=${recordId(ACME_SUPPORT, 'la-2')}`)).json().total, 1)
    t.equal((await get('/api/tickets/stats', h.other)).json().total, 1)
  })

  t.test('status history: every change, oldest first, with actor and reason', async (t) => {
    const res = await get(`/api/tickets/${b.id}/history`)
    t.equal(res.statusCode, 200)
    const rows = res.json().data as Array<{ from_status: string | null; to_status: string; actor_id: string }>
    t.same(
      rows.map((r) => [r.from_status, r.to_status]),
      [
        [null, 'open'],
        ['open', 'assigned'],
        ['assigned', 'in_progress'],
        ['in_progress', 'resolved'],
      ],
    )
    t.ok(rows.every((r) => r.actor_id === 'agent-1'))
    const closed = (await get(`/api/tickets/${c.id}/history`)).json().data
    t.match(closed[1], { from_status: 'open', to_status: 'closed', reason: 'dup' })
    t.equal((await get(`/api/tickets/${b.id}/history`, h.other)).statusCode, 404)
    t.equal((await get('/api/tickets/nope/history')).statusCode, 404)
  })
})
