import { createHash } from 'node:crypto'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { as, conversationsApp, principal, servicePrincipal } from '../helpers/app.ts'
import { seedAgent } from '../helpers/omni.ts'

const hub = servicePrincipal()
const unscopedHub = servicePrincipal({ tenant_id: '', workspace_id: '' })
const salesHub = servicePrincipal({ workspace_id: 'sales' })
const globexHub = servicePrincipal({ tenant_id: 'globex', workspace_id: 'support' })
const ai = servicePrincipal({ user_id: 'ai-orchestrator' })
const agent = principal()
const admin = principal({ user_id: 'admin-1', kind: 'admin', roles: ['admin'], permissions: ['*'] })

inEachStorageMode(t, 'internal sessions API', async (t, mode) => {
  const { app, svc } = await conversationsApp(t, mode)
  const h = {
    hub: await as(hub),
    unscoped: await as(unscopedHub),
    sales: await as(salesHub),
    globex: await as(globexHub),
    ai: await as(ai),
    agent: await as(agent),
    admin: await as(admin),
  }
  await seedAgent(svc, { user_id: 'agent-1' })
  const post = (url: string, payload: unknown, headers = h.hub) =>
    app.inject({ method: 'POST', url, payload: payload as object, headers })
  const get = (url: string, headers = h.hub) => app.inject({ method: 'GET', url, headers })
  let n = 0
  const nextId = () => `in-${mode}-${++n}`
  /** an anonymous widget's first message through an unscoped hub, in the widget's declared scope */
  const visitorSession = async (id = nextId()) => {
    const res = await post(
      `/internal/sessions/${id}/messages`,
      { sender: 'customer', content: 'Hi, anyone there?', tenant_id: 'acme', workspace_id: 'support' },
      h.unscoped,
    )
    t.equal(res.statusCode, 201)
    return res.json()
  }
  const access = (id: string, body: unknown, headers = h.hub) => post(`/internal/sessions/${id}/access`, body, headers)

  t.test('service principals only: 403 for every other kind', async (t) => {
    const s = await visitorSession()
    for (const headers of [h.agent, h.admin]) {
      const answers = [
        await post('/internal/sessions', { sender: 'customer', content: 'x' }, headers),
        await post(`/internal/sessions/${s.session.id}/messages`, { sender: 'customer', content: 'x' }, headers),
        await post(`/internal/sessions/${s.session.id}/access`, { service_id: 'x' }, headers),
        await get(`/internal/sessions/${s.session.id}`, headers),
        await get(`/internal/sessions/${s.session.id}/messages`, headers),
      ]
      for (const res of answers) {
        t.equal(res.statusCode, 403)
        t.equal(res.json().code, 'CONVERSATIONS_SERVICE_ONLY')
      }
    }
    t.equal((await app.inject({ method: 'GET', url: `/internal/sessions/${s.session.id}` })).statusCode, 401)
  })

  t.test('an anonymous first message creates the session and issues the visitor credential once', async (t) => {
    const id = nextId()
    const first = await visitorSession(id)
    t.match(first, {
      created: true,
      reopened: false,
      session: {
        id,
        tenant_id: 'acme',
        workspace_id: 'support',
        status: 'active',
        channel: 'web',
        customer_id: null,
        agent_id: null,
        message_count: 1,
        subject: 'Hi, anyone there?',
      },
      message: { session_id: id, sender: 'customer', kind: 'text', content: 'Hi, anyone there?' },
      visitor: { visitor_id: String, credential: /^[A-Za-z0-9_-]{43}$/ },
    })
    const { visitor_id, credential } = first.visitor
    t.equal(first.session.visitor_id, visitor_id)
    t.equal(first.message.sender_id, visitor_id, 'the visitor wrote it')
    const row = await svc.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    t.equal(row.visitor_secret_hash, createHash('sha256').update(credential).digest('hex'), 'only the hash is kept')

    const url = `/internal/sessions/${id}/messages`
    const next = await post(url, { sender: 'customer', content: 'hello?', visitor_credential: credential })
    t.equal(next.statusCode, 201)
    t.match(next.json(), {
      created: false,
      visitor: null,
      session: { message_count: 2 },
      message: { sender_id: visitor_id },
    })
    for (const body of [
      { sender: 'customer', content: 'bare id' },
      { sender: 'customer', content: 'id as credential', visitor_credential: id },
      // its last character changed (a credential ending in A would have made `…A` the right one, 1 run in 64)
      {
        sender: 'customer',
        content: 'wrong',
        visitor_credential: `${credential.slice(0, -1)}${credential.endsWith('A') ? 'B' : 'A'}`,
      },
      { sender: 'customer', content: 'a customer', customer_id: 'cust-1' },
    ]) {
      const res = await post(url, body)
      t.equal(res.statusCode, 404, body.content)
      t.equal(res.json().code, 'CONVERSATIONS_SESSION_NOT_FOUND')
    }
    const unknown = await post(`/internal/sessions/${nextId()}/messages`, {
      sender: 'customer',
      content: 'x',
      visitor_credential: credential,
    })
    t.equal(unknown.statusCode, 404, 'a credential for a session that does not exist')
  })

  t.test('who may join: POST …/access', async (t) => {
    const v = await visitorSession()
    const id = v.session.id
    const ok = await access(id, { visitor_credential: v.visitor.credential })
    t.equal(ok.statusCode, 200)
    t.match(ok.json(), { role: 'visitor', session: { id, visitor_id: v.visitor.visitor_id } })
    for (const body of [
      { visitor_credential: id },
      { visitor_credential: 'x'.repeat(43) },
      { customer_id: 'cust-1' },
    ]) {
      const res = await access(id, body)
      t.equal(res.statusCode, 404, JSON.stringify(body))
      t.equal(res.json().code, 'CONVERSATIONS_SESSION_NOT_FOUND')
    }
    const c = (
      await post(`/internal/sessions/${nextId()}/messages`, {
        sender: 'customer',
        customer_id: 'cust-7',
        content: 'hi',
      })
    ).json().session
    t.equal((await access(c.id, { customer_id: 'cust-7' })).json().role, 'customer')
    t.equal((await access(c.id, { customer_id: 'cust-8' })).statusCode, 404, 'another customer')
    t.equal((await access(c.id, { visitor_credential: v.visitor.credential })).statusCode, 404, 'another session’s')

    t.equal((await access(c.id, { agent_user_id: 'agent-1', permissions: ['workspace.read'] })).json().role, 'observer')
    t.equal((await access(c.id, { agent_user_id: 'agent-1', permissions: [] })).statusCode, 404, 'no read permission')
    const sup = await access(c.id, { agent_user_id: 'sup-1', permissions: ['workspace.supervise'] })
    t.equal(sup.json().role, 'supervisor')
    await post(`/api/omni/sessions/${c.id}/assign`, { agent_id: 'agent-1' }, h.agent)
    t.equal((await access(c.id, { agent_user_id: 'agent-1' })).json().role, 'agent', 'once assigned')
    t.equal((await access(c.id, { service_id: 'ai-orchestrator' })).json().role, 'service')

    t.equal((await access(c.id, { customer_id: 'cust-7' }, h.globex)).statusCode, 404, 'asked in another tenant')
    t.equal((await access(c.id, { customer_id: 'cust-7' }, h.sales)).statusCode, 404, 'asked in another workspace')
    const noScope = await access(c.id, { agent_user_id: 'sup-1', permissions: ['workspace.supervise'] }, h.unscoped)
    t.equal(noScope.statusCode, 400, "an agent is asked about in the agent's scope")
    t.equal((await access(c.id, { agent_user_id: 'admin-1', permissions: ['*'] }, h.unscoped)).statusCode, 200)
    t.equal((await access(c.id, { customer_id: 'cust-7' }, h.unscoped)).statusCode, 200)
    for (const body of [{}, { customer_id: 'a', service_id: 'b' }, { customer_id: 'a', permissions: ['*'] }]) {
      t.equal((await access(c.id, body)).statusCode, 400, JSON.stringify(body))
    }
    t.equal((await access('missing', { service_id: 'x' })).statusCode, 404)
  })

  t.test(
    'scope: from the principal, or the widget’s for an unscoped caller; another scope’s id is 404 to a scoped caller',
    async (t) => {
      const v = await visitorSession()
      const id = v.session.id
      const missing = nextId()
      const strip = (res: { json(): Record<string, unknown> }) => ({ ...res.json(), message: '', request_id: '' })
      for (const [headers, body] of [
        [h.sales, { sender: 'customer', content: 'mine now' }],
        [h.globex, { sender: 'customer', content: 'mine now' }],
        [h.globex, { sender: 'customer', content: 'mine now', visitor_credential: v.visitor.credential }],
        [h.sales, { sender: 'ai', content: 'answer' }],
        [h.globex, { sender: 'system', content: 'note' }],
      ] as const) {
        const res = await post(`/internal/sessions/${id}/messages`, body, headers)
        t.equal(res.statusCode, 404, `${body.sender}: exactly as missing`)
        t.equal(res.json().code, 'CONVERSATIONS_SESSION_NOT_FOUND')
        t.equal(res.json().message, `session ${id} not found`)
        if (body.sender !== 'customer' || 'visitor_credential' in body) {
          const none = await post(`/internal/sessions/${missing}/messages`, body, headers)
          t.same(strip(res), strip(none), 'the same body as an id nobody uses')
        }
      }
      const unscoped = await post(
        `/internal/sessions/${id}/messages`,
        { sender: 'customer', content: 'mine now', tenant_id: 'acme', workspace_id: 'sales' },
        h.unscoped,
      )
      t.equal(unscoped.statusCode, 409, 'an unscoped caller, who may see every tenant, is told of the clash')
      t.equal(unscoped.json().code, 'CONVERSATIONS_SESSION_SCOPE_CONFLICT')
      const untouched = await svc.db.selectFrom('messages').select('id').where('session_id', '=', id).execute()
      t.equal(untouched.length, 1, 'nothing was posted')
      const mismatch = await post(`/internal/sessions/${nextId()}/messages`, {
        sender: 'customer',
        content: 'x',
        tenant_id: 'globex',
      })
      t.equal(mismatch.statusCode, 403, 'a scoped caller names another tenant')
      t.equal(mismatch.json().code, 'CONVERSATIONS_SCOPE_MISMATCH')
      const same = await post(`/internal/sessions/${nextId()}/messages`, {
        sender: 'customer',
        content: 'x',
        tenant_id: 'acme',
        workspace_id: 'support',
      })
      t.equal(same.statusCode, 201, 'naming its own scope is fine')
      const noScope = await post(
        `/internal/sessions/${nextId()}/messages`,
        { sender: 'customer', content: 'x' },
        h.unscoped,
      )
      t.equal(noScope.statusCode, 400, 'an unscoped caller must name the new session’s scope')
      t.match(noScope.json().message, /tenant_id/)
      const later = await post(
        `/internal/sessions/${id}/messages`,
        {
          sender: 'customer',
          content: 'still me',
          visitor_credential: v.visitor.credential,
        },
        h.unscoped,
      )
      t.equal(later.statusCode, 201, 'an unscoped hub reaches an existing session by its credential')
    },
  )

  t.test('POST /internal/sessions chooses the id unless given one', async (t) => {
    const res = await post('/internal/sessions', { sender: 'customer', customer_id: 'cust-3', content: 'New here' })
    t.equal(res.statusCode, 201)
    t.match(res.json(), { created: true, visitor: null, session: { customer_id: 'cust-3', visitor_id: null } })
    t.match(res.json().session.id, /^[0-9a-f-]{36}$/)
    const id = nextId()
    const named = await post('/internal/sessions', {
      sender: 'customer',
      content: 'x',
      session_id: id,
      channel: 'voice',
    })
    t.match(named.json(), { created: true, session: { id, channel: 'voice' }, visitor: { credential: String } })
  })

  t.test('AI and system messages; the AI never answers over an agent', async (t) => {
    const c = (
      await post(`/internal/sessions/${nextId()}/messages`, {
        sender: 'customer',
        customer_id: 'cust-4',
        content: 'hi',
      })
    ).json().session
    const url = `/internal/sessions/${c.id}/messages`
    const answer = await post(url, { sender: 'ai', content: 'How can I help?', metadata: { confidence: 0.9 } }, h.ai)
    t.equal(answer.statusCode, 201)
    t.match(answer.json().message, { sender: 'ai', sender_id: 'ai-orchestrator', metadata: { confidence: 0.9 } })
    t.equal(answer.json().created, false)
    const sys = await post(url, { sender: 'system', kind: 'system', content: 'You are in the queue.' })
    t.equal(sys.statusCode, 201)
    t.match(sys.json().message, { sender: 'system', kind: 'system', sender_id: null })

    await post(`/api/omni/sessions/${c.id}/assign`, { agent_id: 'agent-1' }, h.agent)
    const over = await post(url, { sender: 'ai', content: 'I also know!' }, h.ai)
    t.equal(over.statusCode, 409)
    t.equal(over.json().code, 'CONVERSATIONS_AGENT_HANDLES')
    t.equal((await post(url, { sender: 'system', content: 'note' })).statusCode, 201)

    const firstFromAi = await post(`/internal/sessions/${nextId()}/messages`, { sender: 'ai', content: 'x' }, h.ai)
    t.equal(firstFromAi.statusCode, 404, 'only a customer opens a session here')
    for (const body of [
      { sender: 'ai', content: 'x', customer_id: 'cust-4' },
      { sender: 'customer', content: 'x', sender_id: 'someone' },
      { sender: 'customer', content: 'x', customer_id: 'cust-4', visitor_credential: 'abc' },
      { sender: 'customer', content: 'x', kind: 'system' },
      { sender: 'agent', content: 'x' },
      { sender: 'customer', content: 'x', tenant_id: 'not a slug!' },
    ]) {
      const res = await post(url, body)
      t.equal(res.statusCode, 400, JSON.stringify(body))
    }
    const big = await post(url, { sender: 'customer', customer_id: 'cust-4', content: 'x'.repeat(16_385) })
    t.equal(big.statusCode, 413)
    t.equal(big.json().code, 'CONVERSATIONS_MESSAGE_TOO_LARGE')
  })

  t.test('a customer message reopens a closed session; others get 409', async (t) => {
    const c = (
      await post(`/internal/sessions/${nextId()}/messages`, {
        sender: 'customer',
        customer_id: 'cust-5',
        content: 'hi',
      })
    ).json().session
    await post(`/api/omni/sessions/${c.id}/assign`, { agent_id: 'agent-1' }, h.agent)
    t.equal((await post(`/api/omni/sessions/${c.id}/close`, {}, h.agent)).statusCode, 200)
    const url = `/internal/sessions/${c.id}/messages`
    for (const body of [
      { sender: 'ai', content: 'x' },
      { sender: 'system', content: 'x' },
    ]) {
      const res = await post(url, body)
      t.equal(res.statusCode, 409, body.sender)
      t.equal(res.json().code, 'CONVERSATIONS_SESSION_CLOSED')
    }
    const back = await post(url, { sender: 'customer', customer_id: 'cust-5', content: 'one more thing' })
    t.equal(back.statusCode, 201)
    t.match(back.json(), {
      created: false,
      reopened: true,
      session: { status: 'active', ended_at: null, agent_id: null },
      message: { sender: 'customer', content: 'one more thing' },
    })
    t.equal((await post(url, { sender: 'ai', content: 'welcome back' }, h.ai)).statusCode, 201, 'the AI answers again')
  })

  t.test('the hub resumes: GET session and messages after a cursor', async (t) => {
    const v = await visitorSession()
    const id = v.session.id
    const url = `/internal/sessions/${id}/messages`
    await post(url, { sender: 'ai', content: 'a1' }, h.ai)
    await post(url, { sender: 'customer', content: 'c2', visitor_credential: v.visitor.credential })
    const got = await get(`/internal/sessions/${id}`)
    t.equal(got.statusCode, 200)
    t.match(got.json(), { id, message_count: 3, visitor_id: v.visitor.visitor_id })
    const after = await get(`${url}?after=${v.message.id}`)
    t.equal(after.statusCode, 200)
    t.same(
      after.json().items.map((m: { content: string }) => m.content),
      ['a1', 'c2'],
    )
    t.equal(after.json().count, 2)
    t.equal((await get(`/internal/sessions/${id}`, h.globex)).statusCode, 404, 'outside the caller’s scope')
    t.equal((await get(`${url}?after=${v.message.id}`, h.sales)).statusCode, 404)
    t.equal((await get(`/internal/sessions/${id}`, h.unscoped)).statusCode, 200)
  })

  t.test('two first messages for one new id make one session', async (t) => {
    const id = nextId()
    const body = { sender: 'customer', customer_id: 'cust-6', content: 'race' }
    const [a, b] = await Promise.all([
      post(`/internal/sessions/${id}/messages`, body),
      post(`/internal/sessions/${id}/messages`, body),
    ])
    t.same([a.statusCode, b.statusCode], [201, 201])
    t.same([a.json().created, b.json().created].sort(), [false, true])
    const session = (await get(`/internal/sessions/${id}`)).json()
    t.equal(session.message_count, 2)
  })
})
