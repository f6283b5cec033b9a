import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { seedAgent } from '../helpers/omni.ts'
import { sessionsFixture } from '../helpers/sessions-fixture.ts'

inEachStorageMode(t, 'sessions API', async (t, mode) => {
  const { app, svc, h, post, get, customerSession } = await sessionsFixture(t, mode)

  t.test('a session as agents read it; another scope gets the same 404 as a missing one', async (t) => {
    const s = await customerSession({ channel: 'email' })
    const res = await get(`/api/omni/sessions/${s.id}`)
    t.equal(res.statusCode, 200)
    t.match(res.json(), {
      id: s.id,
      tenant_id: 'acme',
      workspace_id: 'support',
      status: 'active',
      channel: 'email',
      subject: 'Hello, I need help',
      customer_id: 'cust-1',
      visitor_id: null,
      agent_id: null,
      ticket_id: null,
      priority: 'normal',
      message_count: 1,
      ended_at: null,
      queue_position: null,
    })
    t.notOk('visitor_secret_hash' in res.json(), 'the hash never leaves the service')
    const missing = await get('/api/omni/sessions/nope')
    t.equal(missing.statusCode, 404)
    t.equal(missing.json().code, 'CONVERSATIONS_SESSION_NOT_FOUND')
    t.equal((await get(`/api/omni/sessions/${s.id}`, h.admin)).statusCode, 200, 'an unscoped admin sees it')
  })

  t.test('every route answers 404 outside the scope, and changes nothing', async (t) => {
    const s = await customerSession()
    await seedAgent(svc, { user_id: 'agent-9', tenant_id: 'globex' })
    for (const headers of [h.other, h.otherWs]) {
      const url = `/api/omni/sessions/${s.id}`
      const answers = [
        await get(url, headers),
        await get(`${url}/messages`, headers),
        await post(`${url}/messages`, { content: 'pwned' }, headers),
        await post(`${url}/assign`, { agent_id: 'agent-9' }, headers),
        await post(`${url}/transfer`, { to_agent_id: 'agent-9' }, headers),
        await post(`${url}/close`, {}, headers),
      ]
      for (const [i, res] of answers.entries()) {
        t.equal(res.statusCode, 404, `route ${i}`)
        t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'request_id'])
        t.equal(res.json().code, 'CONVERSATIONS_SESSION_NOT_FOUND')
      }
    }
    t.match((await get(`/api/omni/sessions/${s.id}`)).json(), { status: 'active', message_count: 1, agent_id: null })
  })

  t.test('list: scope, filters, mine, pagination', async (t) => {
    const c = `cust-list-${mode}`
    const a = await customerSession({ customer_id: c, channel: 'web' })
    const b = await customerSession({ customer_id: c, channel: 'email' })
    const d = await customerSession({ customer_id: c, channel: 'web' })
    t.equal((await post(`/api/omni/sessions/${b.id}/assign`, { agent_id: 'agent-1' })).statusCode, 200)
    t.equal((await post(`/api/omni/sessions/${d.id}/close`, {})).statusCode, 200)
    const list = async (qs: string, headers = h.agent) => {
      const res = await get(`/api/omni/sessions?customer_id=${c}&${qs}`, headers)
      t.equal(res.statusCode, 200, qs)
      return res.json()
    }
    const all = await list('')
    t.equal(all.total, 3)
    t.same(
      all.data.map((s: { id: string }) => s.id),
      [d.id, b.id, a.id],
      'newest first',
    )
    t.match(all, { page: 1, page_size: 20, pages: 1 })
    t.same((await list('channel=web')).data.map((s: { id: string }) => s.id).sort(), [a.id, d.id].sort())
    t.same(
      (await list('status=closed')).data.map((s: { id: string }) => s.id),
      [d.id],
    )
    t.same(
      (await list('agent_id=agent-1')).data.map((s: { id: string }) => s.id),
      [b.id],
    )
    t.same(
      (await list('mine=true')).data.map((s: { id: string }) => s.id),
      [b.id],
      'mine: the caller’s',
    )
    t.equal((await list('mine=true', h.agent2)).total, 0)
    t.equal((await list('mine=true&agent_id=agent-2')).total, 1, 'mine takes the place of agent_id')
    const page = await list('page=2&page_size=2')
    t.match(page, { total: 3, page: 2, page_size: 2, pages: 2 })
    t.same(
      page.data.map((s: { id: string }) => s.id),
      [a.id],
    )
    t.equal((await list('', h.other)).total, 0, 'another tenant lists none')
    t.equal((await list('', h.customer)).total, 0, 'nobody but staff reads sessions here: none listed')
    t.equal((await get(`/api/omni/sessions/${a.id}`, h.customer)).statusCode, 404, 'and none found')
    t.equal((await list('', h.admin)).total, 3, 'an unscoped admin lists all')
    t.equal((await get('/api/omni/sessions?status=open')).statusCode, 400)
    t.equal((await get('/api/omni/sessions?page_size=201')).statusCode, 400)
  })

  t.test('assign and transfer: agent rules, records, system messages', async (t) => {
    const s = await customerSession()
    const url = `/api/omni/sessions/${s.id}`
    const missing = await post(`${url}/assign`, { agent_id: 'nobody' })
    t.equal(missing.statusCode, 400, 'an unknown agent is bad input (references.routes.test.ts)')
    t.equal(missing.json().code, 'CONVERSATIONS_UNKNOWN_AGENT')
    const off = await post(`${url}/assign`, { agent_id: 'agent-off' })
    t.equal(off.statusCode, 409)
    t.equal(off.json().code, 'CONVERSATIONS_AGENT_OFFLINE')

    const assigned = await post(`${url}/assign`, { agent_id: 'agent-1' })
    t.equal(assigned.statusCode, 200)
    t.match(assigned.json(), { id: s.id, status: 'active', agent_id: 'agent-1', message_count: 2 })
    const again = await post(`${url}/assign`, { agent_id: 'agent-1' })
    t.equal(again.statusCode, 200, 'assigning the assignee changes nothing')
    t.equal(again.json().message_count, 2)

    const transferred = await post(`${url}/transfer`, { to_agent_id: 'agent-2', reason: 'billing' })
    t.equal(transferred.statusCode, 200)
    t.match(transferred.json(), { status: 'transferred', agent_id: 'agent-2', message_count: 3 })
    const messages = (await get(`${url}/messages`)).json().items
    t.match(messages.slice(1), [
      { sender: 'system', kind: 'system', content: 'Ada joined the conversation.' },
      { sender: 'system', kind: 'system', content: 'The conversation was handed over to Bob. Reason: billing.' },
    ])
    const records = await svc.db
      .selectFrom('transfers')
      .selectAll()
      .where('session_id', '=', s.id)
      .orderBy('transferred_at')
      .orderBy('id')
      .execute()
    t.match(records, [
      { kind: 'assign', from_agent_id: null, to_agent_id: 'agent-1', actor_id: 'agent-1' },
      { kind: 'transfer', from_agent_id: 'agent-1', to_agent_id: 'agent-2', reason: 'billing' },
    ])

    // at capacity: agent-full holds one session already
    const other = await customerSession()
    t.equal((await post(`/api/omni/sessions/${other.id}/assign`, { agent_id: 'agent-full' })).statusCode, 200)
    const full = await post(`${url}/transfer`, { to_agent_id: 'agent-full' })
    t.equal(full.statusCode, 409)
    t.equal(full.json().code, 'CONVERSATIONS_AGENT_AT_CAPACITY')
    t.equal((await post(`${url}/assign`, {})).statusCode, 400)
  })

  t.test('close: status, ended_at, system message, waiting record cancelled; then 409', async (t) => {
    const s = await customerSession()
    const url = `/api/omni/sessions/${s.id}`
    // as the transfer API would leave it: waiting for a human, with a waiting record
    await svc.db.updateTable('sessions').set({ status: 'waiting_human' }).where('id', '=', s.id).execute()
    await svc.db
      .insertInto('waiting')
      .values({
        id: `w-${s.id}`,
        session_id: s.id,
        tenant_id: 'acme',
        workspace_id: 'support',
        status: 'waiting',
        priority: 'normal',
        priority_rank: 1,
        reason: 'user_request',
        notes: '',
        target_skills: '[]',
        queued_at: new Date().toISOString(),
        assigned_at: null,
        assigned_to: null,
        cancelled_at: null,
        cancel_reason: null,
      })
      .execute()
    t.match((await get(url)).json(), { status: 'waiting_human', queue_position: 1 })

    const res = await app.inject({ method: 'POST', url: `${url}/close`, headers: h.agent })
    t.equal(res.statusCode, 200, 'a bare POST closes')
    t.match(res.json(), { status: 'closed', ended_at: String, queue_position: null })
    const waiting = await svc.db.selectFrom('waiting').selectAll().where('session_id', '=', s.id).executeTakeFirst()
    t.match(waiting, { status: 'cancelled', cancel_reason: 'session_closed', cancelled_at: String })
    const last = (await get(`${url}/messages?limit=1`)).json().items[0]
    t.match(last, { sender: 'system', kind: 'system', content: 'The conversation was closed.' })

    for (const [path, body] of [
      ['close', { reason: 'again' }],
      ['assign', { agent_id: 'agent-1' }],
      ['transfer', { to_agent_id: 'agent-2' }],
      ['messages', { content: 'too late' }],
    ] as const) {
      const again = await post(`${url}/${path}`, body, h.admin)
      t.equal(again.statusCode, 409, path)
      t.equal(again.json().code, 'CONVERSATIONS_SESSION_CLOSED')
    }
    const reasoned = await customerSession()
    const closed = await post(`/api/omni/sessions/${reasoned.id}/close`, { reason: 'resolved' })
    t.equal(closed.statusCode, 200)
    const note = (await get(`/api/omni/sessions/${reasoned.id}/messages?limit=1`)).json().items[0]
    t.match(note, { content: 'The conversation was closed. Reason: resolved.', metadata: { reason: 'resolved' } })
  })

  t.test('an agent opens a conversation for a customer (outbound)', async (t) => {
    const res = await post('/api/omni/sessions', {
      customer_id: 'cust-out',
      channel: 'email',
      subject: ' Your order ',
      priority: 'high',
      agent_id: 'agent-1',
      content: 'Hello from support',
    })
    t.equal(res.statusCode, 201)
    const s = res.json()
    t.match(s, {
      tenant_id: 'acme',
      workspace_id: 'support',
      status: 'active',
      channel: 'email',
      subject: 'Your order',
      priority: 'high',
      customer_id: 'cust-out',
      agent_id: 'agent-1',
      message_count: 2,
    })
    const items = (await get(`/api/omni/sessions/${s.id}/messages`)).json().items
    t.match(items, [{ sender: 'system' }, { sender: 'agent', sender_id: 'agent-1', content: 'Hello from support' }])

    const bare = await post('/api/omni/sessions', { customer_id: 'cust-out' })
    t.equal(bare.statusCode, 201)
    t.match(bare.json(), { channel: 'web', agent_id: null, message_count: 0, priority: 'normal' })

    const before = (await get('/api/omni/sessions?customer_id=cust-out')).json().total
    const refused = await post('/api/omni/sessions', { customer_id: 'cust-out', agent_id: 'agent-2', content: 'hi' })
    t.equal(refused.statusCode, 403, 'writing first in a session assigned to someone else')
    t.equal((await get('/api/omni/sessions?customer_id=cust-out')).json().total, before, 'nothing was created')
    const unscoped = await post('/api/omni/sessions', { customer_id: 'cust-out' }, h.admin)
    t.equal(unscoped.statusCode, 400, 'an unscoped admin names a scope')
    t.equal((await post('/api/omni/sessions', { channel: 'web' })).statusCode, 400, 'customer_id is required')
  })

  t.test('routes whose parameters can be refused declare the 400 they answer', async (t) => {
    // (past 100 characters the router answers 414 itself; a NUL is refused by the input guard before validation)
    const long = 'a%00b'
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
    for (const [path, method, url] of [
      ['/api/omni/sessions/{id}', 'get', `/api/omni/sessions/${long}`],
      ['/api/shifts/{id}', 'get', `/api/shifts/${long}`],
      ['/api/shifts/{id}', 'delete', `/api/shifts/${long}`],
      ['/api/session-transfer/process-queue', 'post', null],
    ] as const) {
      t.ok(doc.paths[path][method].responses['400'], `${method} ${path} documents 400`)
      if (url) {
        const res = await app.inject({ method: method.toUpperCase() as 'GET' | 'DELETE', url, headers: h.agent })
        t.equal(res.statusCode, 400, `${method} ${url}`)
      }
    }
    t.ok(doc.paths['/api/session-transfer/process-queue'].post.requestBody, 'process-queue shows its (empty) body')
    const internal = await app.inject({ method: 'GET', url: `/internal/sessions/${long}`, headers: h.hub })
    t.equal(internal.statusCode, 400, 'GET /internal/sessions/:id')
  })

  t.test('no principal: 401', async (t) => {
    t.equal((await app.inject({ method: 'GET', url: '/api/omni/sessions' })).statusCode, 401)
  })
})
