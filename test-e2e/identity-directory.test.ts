// Identity's customer and agent directory end to end through the gateway, in both run modes: the CRUD and status
// routes, the revoke paths ending the target's tokens at the gateway, and the audit records of those writes with
// their before/after snapshots. Auth self-service and the security surface are identity-surface.test.ts.
import { randomUUID } from 'node:crypto'
import { login } from './harness/auth.ts'
import { identityActors } from './harness/identity-actors.ts'
import { isError, refusedWithin } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'

inEachMode('identity directory', {}, async (t, system) => {
  const { api, suffix, agent, adminId, as, me, demoCustomer, auditRecord } = await identityActors(system)

  t.test('customers: create, list, get, update, notes, tags, revoke-tokens', async (t) => {
    const email = `cust_${suffix}@e2e.example.com`
    const username = `cust_${suffix}`
    const password = `Pw-cust-${suffix}-0123456789`
    const created = await api.post(
      '/api/customers',
      { name: `Cust ${suffix}`, email, username, password, source: 'phone', tags: ['vip'] },
      as,
    )
    t.equal(created.status, 201, created.text)
    t.match(created.body, {
      id: String,
      user_id: String,
      tenant_id: system.tenant_id,
      workspace_id: system.workspace_id,
      name: `Cust ${suffix}`,
      email,
      source: 'phone',
      tags: ['vip'],
    })
    const id = created.body.id as string
    isError(
      t,
      await api.post('/api/customers', { name: 'Again', email }, as),
      409,
      'IDENTITY_CUSTOMER_EXISTS',
      'the same email',
    )
    isError(t, await api.post('/api/customers', { name: 'No mail' }, as), 400, undefined, 'a body without email')
    isError(
      t,
      await api.post('/api/customers', { name: 'x', email: `a_${suffix}@e2e.example.com` }, { token: agent.token }),
      403,
      'PERMISSION_DENIED',
      'an agent has customers.read only',
    )

    const list = await api.get(`/api/customers?search=${suffix}&source=phone&tag=vip`, { token: agent.token })
    t.equal(list.status, 200, list.text)
    t.same(
      list.body.data.map((c: any) => c.id),
      [id],
      'search, source and tag filters',
    )
    t.match(list.body, { total: 1, page: 1, pages: 1 })
    const got = await api.get(`/api/customers/${id}`, { token: agent.token })
    t.equal(got.status, 200)
    t.same(got.body, created.body)
    isError(t, await api.get(`/api/customers/${randomUUID()}`, as), 404, 'IDENTITY_CUSTOMER_NOT_FOUND')

    const updated = await api.put(`/api/customers/${id}`, { name: `Renamed ${suffix}`, phone: '+100' }, as)
    t.equal(updated.status, 200, updated.text)
    t.match(updated.body, { id, name: `Renamed ${suffix}`, phone: '+100', email })
    isError(t, await api.put(`/api/customers/${id}`, {}, as), 400, undefined, 'an empty update')

    const note = await api.post(`/api/customers/${id}/notes`, { content: 'called about billing' }, as)
    t.equal(note.status, 201, note.text)
    t.match(note.body, { customer_id: id, author_user_id: adminId, content: 'called about billing' })
    const notes = await api.get(`/api/customers/${id}/notes`, { token: agent.token })
    t.equal(notes.status, 200)
    t.match(notes.body, { count: 1, items: [{ id: note.body.id }] })

    const tagged = await api.put(`/api/customers/${id}/tags`, { tags: ['churn-risk', 'enterprise'] }, as)
    t.equal(tagged.status, 200, tagged.text)
    t.same(tagged.body.tags.sort(), ['churn-risk', 'enterprise'], 'the set is replaced')

    const own = await login(api, username, password)
    t.equal(own.user.id, created.body.user_id)
    t.equal((await me(own.token)).status, 200, 'the customer can log in')
    const revoke = await api.post(`/api/customers/${id}/revoke-tokens`, undefined, as)
    t.equal(revoke.status, 200, revoke.text)
    t.match(revoke.body, { customer_id: id, token_version: Number })
    const gone = await refusedWithin(() => me(own.token))
    isError(t, gone.reply, 401, 'TOKEN_REVOKED', `the customer's token after revoke-tokens (${gone.ms} ms)`)

    const audit = await auditRecord(t, 'customers.update', id)
    t.equal(audit.before.name, `Cust ${suffix}`, 'before snapshot')
    t.equal(audit.after.name, `Renamed ${suffix}`, 'after snapshot')
    const tags = await auditRecord(t, 'customers.tags', id)
    t.same(tags.before.tags, ['vip'])
    t.same(tags.after.tags.sort(), ['churn-risk', 'enterprise'])
    const tokens = await auditRecord(t, 'customers.revoke_tokens', id)
    t.ok(tokens.after.token_version > tokens.before.token_version, 'token revoke before/after')
  })

  t.test('agents: create, list, get, online, offline, status, revoke-tokens', async (t) => {
    const u = await demoCustomer('promoted')
    const created = await api.post(
      '/api/agents',
      { user_id: u.user.id, department: `dept-${suffix}`, skills: ['billing'], max_concurrent: 3 },
      as,
    )
    t.equal(created.status, 201, created.text)
    t.match(created.body, {
      id: String,
      user_id: u.user.id,
      tenant_id: system.tenant_id,
      workspace_id: system.workspace_id,
      department: `dept-${suffix}`,
      skills: ['billing'],
      max_concurrent: 3,
      status: String,
      rating: Number,
      avg_response_time: Number,
    })
    const id = created.body.id as string
    const promoted = await refusedWithin(() => me(u.token))
    t.equal(promoted.reply.status, 401, `the role change ends the old customer token (${promoted.ms} ms)`)
    isError(
      t,
      await api.post('/api/agents', { user_id: u.user.id }, as),
      409,
      'IDENTITY_AGENT_EXISTS',
      'the same user twice',
    )
    isError(
      t,
      await api.post('/api/agents', { user_id: randomUUID() }, as),
      404,
      'IDENTITY_USER_NOT_FOUND',
      'an unknown user',
    )

    const asAgent = await login(api, u.username, u.password)
    t.equal(asAgent.user.role, 'agent')
    t.equal((await api.get('/api/tickets', { token: asAgent.token })).status, 200, 'now an agent principal')

    const list = await api.get(`/api/agents?department=dept-${suffix}`, { token: agent.token })
    t.equal(list.status, 200, list.text)
    t.same(
      list.body.data.map((a: any) => a.id),
      [id],
    )
    const got = await api.get(`/api/agents/${id}`, { token: agent.token })
    t.equal(got.status, 200)
    t.equal(got.body.user_id, u.user.id)
    isError(t, await api.get(`/api/agents/${randomUUID()}`, as), 404, 'IDENTITY_AGENT_NOT_FOUND')

    const online = await api.post(`/api/agents/${id}/online`, undefined, as)
    t.equal(online.status, 200, online.text)
    t.equal(online.body.status, 'online')
    const byStatus = await api.get(`/api/agents?status=online&department=dept-${suffix}`, as)
    t.same(
      byStatus.body.data.map((a: any) => a.id),
      [id],
      'status filter',
    )
    const busy = await api.put(`/api/agents/${id}/status`, { status: 'busy' }, as)
    t.equal(busy.status, 200, busy.text)
    t.equal(busy.body.status, 'busy')
    isError(t, await api.put(`/api/agents/${id}/status`, { status: 'napping' }, as), 400, undefined, 'a bad status')
    const offline = await api.post(`/api/agents/${id}/offline`, undefined, as)
    t.equal(offline.status, 200, offline.text)
    t.equal(offline.body.status, 'offline')
    t.equal(
      (await api.post(`/api/agents/${id}/online`, undefined, { token: agent.token })).status,
      403,
      'an agent has agents.read only',
    )

    const revoke = await api.post(`/api/agents/${id}/revoke-tokens`, undefined, as)
    t.equal(revoke.status, 200, revoke.text)
    t.match(revoke.body, { agent_id: id, token_version: Number })
    const gone = await refusedWithin(() => api.get('/api/tickets', { token: asAgent.token }))
    isError(t, gone.reply, 401, 'TOKEN_REVOKED', `the agent's token after revoke-tokens (${gone.ms} ms)`)

    const status = await auditRecord(t, 'agents.status', id)
    t.same([status.before, status.after], [{ status: 'online' }, { status: 'busy' }], 'status change before/after')
    const off = await auditRecord(t, 'agents.offline', id)
    t.same([off.before, off.after], [{ status: 'busy' }, { status: 'offline' }])
  })
})
