import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { ACME_SUPPORT, as, defineFields, principal, ticketsApp } from '../helpers/app.ts'
import { makeKnown, makeSessionsKnown } from '../helpers/directory.ts'

const agent = principal()
const otherTenant = principal({ user_id: 'agent-9', tenant_id: 'globex', workspace_id: 'support' })
const otherWorkspace = principal({ user_id: 'agent-8', workspace_id: 'sales' })
const admin = principal({ user_id: 'admin-1', kind: 'admin', roles: ['admin'], tenant_id: '', workspace_id: '' })

inEachStorageMode(t, 'tickets API', async (t, mode) => {
  const { app, svc } = await ticketsApp(t, mode)
  // References are checked against identity's directory and custom values against the scope's fields: the
  // customers, agents and fields these tests name exist first.
  await makeKnown(svc, ACME_SUPPORT, {
    customers: ['cust-1', 'cust-list'],
    agents: ['agent-2', 'agent-3', 'agent-4', 'agent-7'],
  })
  await makeKnown(svc, { tenant_id: 'globex', workspace_id: 'support' }, { customers: ['cust-list'] })
  await makeSessionsKnown(svc, ACME_SUPPORT, ['sess-42'])
  await defineFields(app, await as(agent), [
    { key: 'floor', type: 'number' },
    { key: 'k', type: 'number' },
  ])
  const h = {
    agent: await as(agent),
    other: await as(otherTenant),
    otherWs: await as(otherWorkspace),
    admin: await as(admin),
  }
  const post = (url: string, payload: unknown, headers = h.agent) =>
    app.inject({ method: 'POST', url, payload: payload as object, headers })
  const put = (url: string, payload: unknown, headers = h.agent) =>
    app.inject({ method: 'PUT', url, payload: payload as object, headers })
  const get = (url: string, headers = h.agent) => app.inject({ method: 'GET', url, headers })
  const create = async (body: Record<string, unknown>, headers = h.agent) => {
    const res = await post('/api/tickets', { customer_id: 'cust-1', ...body }, headers)
    t.equal(res.statusCode, 201, 'created')
    return res.json()
  }

  t.test('create applies defaults and the caller scope; get returns it', async (t) => {
    const res = await post('/api/tickets', {
      title: '  Printer on fire ',
      customer_id: 'cust-1',
      tags: ['hw', ' hw', 'urgent-ish'],
      custom_fields: { floor: 3 },
      session_id: 'sess-42',
    })
    t.equal(res.statusCode, 201)
    const ticket = res.json()
    t.match(ticket, {
      title: 'Printer on fire',
      description: '',
      customer_id: 'cust-1',
      agent_id: null,
      session_id: 'sess-42',
      category: 'general',
      priority: 'normal',
      status: 'open',
      source: 'web',
      tags: ['hw', 'urgent-ish'],
      custom_fields: { floor: 3 },
      tenant_id: 'acme',
      workspace_id: 'support',
      resolved_at: null,
      closed_at: null,
    })
    t.match(ticket.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    const got = await get(`/api/tickets/${ticket.id}`)
    t.equal(got.statusCode, 200)
    t.same(got.json(), ticket)
  })

  t.test('bad input is a 400 naming the field; no principal is a 401', async (t) => {
    const cases: Array<[unknown, RegExp]> = [
      [{ customer_id: 'c' }, /title/],
      [{ title: 'x' }, /customer_id/],
      [{ title: '', customer_id: 'c' }, /title/],
      [{ title: 'x', customer_id: 'c', priority: 'asap' }, /priority/],
      [{ title: 'x', customer_id: 'c', tags: { a: 1 } }, /tags/],
      [{ title: 'x', customer_id: 'c', custom_fields: [1] }, /custom_fields/],
      [{ title: 'x', customer_id: 'c', extra: 1 }, /additional/],
    ]
    for (const [body, field] of cases) {
      const res = await post('/api/tickets', body)
      t.equal(res.statusCode, 400, JSON.stringify(body))
      t.match(res.json(), { error: 'bad_request', code: 'VALIDATION_FAILED', message: field })
    }
    const anon = await app.inject({ method: 'GET', url: '/api/tickets' })
    t.equal(anon.statusCode, 401)
    const unscoped = await post('/api/tickets', { title: 'x', customer_id: 'c' }, h.admin)
    t.equal(unscoped.statusCode, 400, 'an unscoped admin must name a scope to create')
    t.match(unscoped.json().message, /tenant_id/)
  })

  t.test('another tenant or workspace gets the same 404 as a missing ticket', async (t) => {
    const ticket = await create({ title: 'Private' })
    const missing = await get('/api/tickets/does-not-exist')
    t.equal(missing.statusCode, 404)
    t.equal(missing.json().code, 'TICKETS_NOT_FOUND')
    for (const headers of [h.other, h.otherWs]) {
      const res = await get(`/api/tickets/${ticket.id}`, headers)
      t.equal(res.statusCode, 404)
      t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'request_id'])
      t.equal(res.json().code, 'TICKETS_NOT_FOUND')
      t.equal((await put(`/api/tickets/${ticket.id}`, { title: 'pwned' }, headers)).statusCode, 404)
      t.equal((await post(`/api/tickets/${ticket.id}/assign`, { agent_id: 'a' }, headers)).statusCode, 404)
      t.equal((await post(`/api/tickets/${ticket.id}/comments`, { content: 'hi' }, headers)).statusCode, 404)
      t.equal((await get(`/api/tickets/${ticket.id}/comments`, headers)).statusCode, 404)
      t.equal((await post(`/api/tickets/${ticket.id}/close`, {}, headers)).statusCode, 404)
    }
    t.equal((await get(`/api/tickets/${ticket.id}`)).json().title, 'Private', 'unchanged')
    t.equal((await get(`/api/tickets/${ticket.id}`, h.admin)).statusCode, 200, 'an unscoped admin sees it')
  })

  t.test('list: scope, filters, search, pagination', async (t) => {
    // A fresh customer id keeps this subtest's rows apart from the others'.
    const c = 'cust-list'
    const a = await create({ title: 'Refund please', customer_id: c, category: 'billing', priority: 'high' })
    await create({ title: 'Login broken', customer_id: c, description: 'after the 100% update', priority: 'urgent' })
    const third = await create({ title: 'Another refund', customer_id: c, category: 'billing', tags: ['x'] })
    await create({ title: 'Refund elsewhere', customer_id: c }, h.other)
    await post(`/api/tickets/${third.id}/assign`, { agent_id: 'agent-7' })

    const list = async (qs: string, headers = h.agent) => {
      const res = await get(`/api/tickets?customer_id=${c}&${qs}`, headers)
      t.equal(res.statusCode, 200, `list ${qs}`)
      return res.json()
    }
    const all = await list('')
    t.equal(all.total, 3, 'the other tenant is not listed')
    t.same(
      all.data.map((x: { title: string }) => x.title),
      ['Another refund', 'Login broken', 'Refund please'],
    )
    t.equal((await list('category=billing')).total, 2)
    t.equal((await list('priority=urgent')).total, 1)
    t.equal((await list('status=assigned')).data[0].id, third.id)
    t.equal((await list('agent_id=agent-7')).total, 1)
    t.equal((await list('search=REFUND')).total, 2, 'search is case-insensitive over title')
    t.equal((await list('search=100%25')).total, 1, 'over description, with % taken literally')
    t.equal((await list('search=1_0')).total, 0, '_ is literal too')
    t.same((await list('search=refund&category=billing&priority=high')).data[0].id, a.id)
    const page2 = await list('page=2&page_size=2')
    t.match(page2, { total: 3, page: 2, page_size: 2, pages: 2 })
    t.equal(page2.data.length, 1)
    t.equal((await list('', h.admin)).total, 4, 'unscoped admin sees every tenant')
    const bad = await get('/api/tickets?status=pending')
    t.equal(bad.statusCode, 400)
    t.match(bad.json().message, /status/)
    t.equal((await get('/api/tickets?page_size=500')).statusCode, 400)
  })

  t.test('update: fields, valid transitions, 409 naming both states', async (t) => {
    const ticket = await create({ title: 'Lifecycle' })
    const url = `/api/tickets/${ticket.id}`
    const edited = await put(url, { title: 'Lifecycle 2', priority: 'high', tags: ['a'], custom_fields: { k: 1 } })
    t.equal(edited.statusCode, 200)
    t.match(edited.json(), { title: 'Lifecycle 2', priority: 'high', tags: ['a'], custom_fields: { k: 1 } })

    const bad = await put(url, { status: 'in_progress' })
    t.equal(bad.statusCode, 409)
    t.match(bad.json(), {
      error: 'conflict',
      code: 'TICKETS_INVALID_TRANSITION',
      message: 'cannot change status from open to in_progress',
    })
    const noAgent = await put(url, { status: 'assigned' })
    t.equal(noAgent.statusCode, 409)
    t.equal(noAgent.json().code, 'TICKETS_AGENT_REQUIRED')

    t.equal((await post(`${url}/assign`, { agent_id: 'agent-2' })).json().status, 'assigned')
    t.equal((await put(url, { status: 'open' })).json().status, 'open', 'reopen from assigned')
    t.equal((await put(url, { status: 'assigned' })).json().status, 'assigned', 'the agent was kept')
    t.equal((await put(url, { status: 'in_progress' })).json().status, 'in_progress')
    const resolved = (await put(url, { status: 'resolved' })).json()
    t.equal(resolved.status, 'resolved')
    t.ok(resolved.resolved_at)
    t.equal(resolved.closed_at, null)
    const reopen = await put(url, { status: 'open' })
    t.equal(reopen.statusCode, 409)
    t.equal(reopen.json().message, 'cannot change status from resolved to open')
    const same = await put(url, { status: 'resolved' })
    t.equal(same.statusCode, 200, 'the current status again is a no-op')
    t.equal(same.json().updated_at, resolved.updated_at)
    const closed = (await put(url, { status: 'closed' })).json()
    t.match(closed, { status: 'closed', resolved_at: resolved.resolved_at })
    t.ok(closed.closed_at)
    const after = await put(url, { status: 'open' })
    t.equal(after.statusCode, 409)
    t.equal(after.json().message, 'cannot change status from closed to open')
    const comments = (await get(`${url}/comments`)).json()
    t.same(
      comments.data.map((c: { type: string }) => c.type),
      ['system'],
      'closing through PUT leaves the system comment too',
    )
    const unknown = await put(url, { status: 'archived' })
    t.equal(unknown.statusCode, 400)
    t.match(unknown.json().message, /status/)
    t.equal((await put(url, {})).statusCode, 400, 'an empty update is bad input')
    t.equal((await put(url, { agent_id: 'x' })).statusCode, 400, 'agent_id changes through assign only')
  })

  t.test('assign: open → assigned, reassignment keeps the status, resolved is refused', async (t) => {
    const ticket = await create({ title: 'Assign me' })
    const url = `/api/tickets/${ticket.id}`
    const first = await post(`${url}/assign`, { agent_id: 'agent-2' })
    t.equal(first.statusCode, 200)
    t.match(first.json(), { agent_id: 'agent-2', status: 'assigned' })
    await put(url, { status: 'in_progress' })
    t.match((await post(`${url}/assign`, { agent_id: 'agent-3' })).json(), {
      agent_id: 'agent-3',
      status: 'in_progress',
    })
    t.equal((await post(`${url}/assign`, {})).statusCode, 400)
    await put(url, { status: 'resolved' })
    const refused = await post(`${url}/assign`, { agent_id: 'agent-4' })
    t.equal(refused.statusCode, 409)
    t.match(refused.json(), { code: 'TICKETS_NOT_ASSIGNABLE', message: 'cannot assign a ticket in status resolved' })
  })

  t.test('comments: add, list oldest first, types', async (t) => {
    const ticket = await create({ title: 'Chatty' })
    const url = `/api/tickets/${ticket.id}/comments`
    const c1 = await post(url, { content: 'first' })
    t.equal(c1.statusCode, 201)
    t.match(c1.json(), { ticket_id: ticket.id, author_id: 'agent-1', content: 'first', type: 'comment' })
    const c2 = await post(url, { content: 'psst', type: 'internal_note' })
    t.equal(c2.json().type, 'internal_note')
    t.equal((await post(url, { content: 'x', type: 'system' })).statusCode, 400, 'system is the service’s own')
    t.equal((await post(url, { content: '' })).statusCode, 400)
    const list = (await get(url)).json()
    t.match(list, { total: 2, page: 1, pages: 1 })
    t.same(
      list.data.map((c: { content: string }) => c.content),
      ['first', 'psst'],
    )
    t.equal((await post('/api/tickets/nope/comments', { content: 'x' })).statusCode, 404)
  })

  t.test('close: from open, sets closed_at and resolved_at, adds a system comment; twice is 409', async (t) => {
    const ticket = await create({ title: 'Close me' })
    const url = `/api/tickets/${ticket.id}`
    const res = await post(`${url}/close`, { reason: 'duplicate' })
    t.equal(res.statusCode, 200)
    const closed = res.json()
    t.equal(closed.status, 'closed')
    t.ok(closed.closed_at)
    t.equal(closed.resolved_at, closed.closed_at, 'closed without resolution: resolved_at set at close')
    const comments = (await get(`${url}/comments`)).json()
    t.match(comments.data, [{ type: 'system', content: 'Ticket closed: duplicate', author_id: 'agent-1' }])
    const again = await post(`${url}/close`, {})
    t.equal(again.statusCode, 409)
    t.equal(again.json().message, 'cannot change status from closed to closed')
    const noBody = await create({ title: 'Close without body' })
    const bare = await app.inject({ method: 'POST', url: `/api/tickets/${noBody.id}/close`, headers: h.agent })
    t.equal(bare.statusCode, 200, 'the body is optional')
    t.equal((await post('/api/tickets/nope/close', {})).statusCode, 404)
  })
})
