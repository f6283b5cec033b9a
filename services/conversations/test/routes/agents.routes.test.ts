import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { as, conversationsApp, principal } from '../helpers/app.ts'
import { eventsOf } from '../helpers/omni.ts'
import { ACME, seedAgents, seedSession } from '../helpers/queue.ts'

// /api/agents/find-available and /api/agents/:id/{assign,release}-session: the routing pick and sessions by agent.
const agentId = (user: string, scope = ACME) => `ag-${user}-${scope.tenant_id}-${scope.workspace_id}`
const GLOBEX = { tenant_id: 'globex', workspace_id: 'support' }

inEachStorageMode(t, 'agents routing API', async (t, mode) => {
  const { app, svc } = await conversationsApp(t, mode)
  const h = {
    // an admin of acme/support, and one of globex
    admin: await as(principal({ user_id: 'adm', kind: 'admin', roles: ['admin'], permissions: ['*'] })),
    globex: await as(principal({ user_id: 'gadm', kind: 'admin', permissions: ['*'], ...GLOBEX })),
    // the default agent role reads agents; it does not write them
    agent: await as(principal({ permissions: ['workspace.read', 'workspace.write', 'agents.read'] })),
    noAgents: await as(principal({ permissions: ['workspace.read', 'workspace.write'] })),
    unscoped: await as(
      principal({ user_id: 'root', kind: 'admin', permissions: ['*'], tenant_id: '', workspace_id: '' }),
    ),
  }
  const get = (url: string, headers = h.admin) => app.inject({ method: 'GET', url, headers })
  const post = (url: string, payload: object, headers = h.admin) =>
    app.inject({ method: 'POST', url, payload, headers })

  await seedAgents(svc, [
    { user_id: 'u-star', rating: 5, skills: ['billing'], max_concurrent: 2 },
    { user_id: 'u-de', rating: 4, skills: ['de', 'billing'], max_concurrent: 2 },
    { user_id: 'u-off', rating: 5, status: 'offline' },
    { user_id: 'u-g', rating: 5, scope: GLOBEX },
  ])

  t.test('find-available: the routing score picks; skills repeated or comma-separated', async (t) => {
    const best = await get('/api/agents/find-available', h.agent)
    t.equal(best.statusCode, 200)
    t.match(best.json(), {
      id: agentId('u-star'),
      user_id: 'u-star',
      tenant_id: 'acme',
      workspace_id: 'support',
      status: 'online',
      max_concurrent: 2,
      current_load: 0,
      rating: 5,
    })
    t.equal(best.json().score, 5 + 3, 'rating + spare capacity; no speed bonus without a measured time')
    // u-de matches both skills (4 + 3 + 2 = 9) where u-star matches one (5 + 3 + 1 = 9) — the urgent bonus is
    // theirs alike, so the tie goes to the lower user id, u-de
    for (const q of ['skills=de&skills=billing', 'skills=de,billing', 'skills=de, billing&priority=urgent']) {
      const res = await get(`/api/agents/find-available?${q}`, h.agent)
      t.equal(res.json().user_id, 'u-de', q)
    }
    const bad = await get('/api/agents/find-available?priority=asap')
    t.equal(bad.statusCode, 400)
    t.match(bad.json(), { code: 'VALIDATION_FAILED', message: /priority/ })
  })

  t.test('find-available: 404 when nobody qualifies; a pick needs a workspace; agents.read needed', async (t) => {
    const none = await get('/api/agents/find-available', await as(principal({ permissions: ['*'], workspace_id: 'x' })))
    t.equal(none.statusCode, 404)
    t.match(none.json(), { error: 'not_found', code: 'CONVERSATIONS_NO_AGENT_AVAILABLE' })
    const globex = await get('/api/agents/find-available', h.globex)
    t.equal(globex.json().user_id, 'u-g', "each tenant's pick is among its own agents")
    t.equal((await get('/api/agents/find-available', h.unscoped)).statusCode, 400, 'unscoped, no selector')
    const denied = await get('/api/agents/find-available', h.noAgents)
    t.equal(denied.statusCode, 403)
    t.equal(denied.json().code, 'CONVERSATIONS_PERMISSION_MISSING')
  })

  t.test('assign-session: by agent id, the assign rules, load on the answer; idempotent', async (t) => {
    const s = await seedSession(svc)
    const res = await post(`/api/agents/${agentId('u-star')}/assign-session`, { session_id: s.id })
    t.equal(res.statusCode, 200)
    t.match(res.json(), {
      message: 'Session assigned successfully',
      agent_id: agentId('u-star'),
      session_id: s.id,
      current_load: 1,
      session: { id: s.id, agent_id: 'u-star', status: 'active' },
    })
    const again = await post(`/api/agents/${agentId('u-star')}/assign-session`, { session_id: s.id })
    t.equal(again.statusCode, 200)
    t.equal(again.json().current_load, 1, 'the agent already had it: nothing moves')
    const events = await eventsOf(svc, s.id, 2)
    t.same(
      events.map((e) => e.type),
      ['conversations.message.created', 'conversations.session.assigned'],
      'one assignment announced',
    )
    // u-star's spare capacity fell to half (5 + 1.5 = 6.5): u-de (4 + 3 = 7) is the pick now
    const seen = await get('/api/agents/find-available', h.agent)
    t.equal(seen.json().user_id, 'u-de', 'routing counts the load')

    const offline = await post(`/api/agents/${agentId('u-off')}/assign-session`, { session_id: s.id })
    t.equal(offline.statusCode, 409)
    t.equal(offline.json().code, 'CONVERSATIONS_AGENT_OFFLINE')
    t.equal((await post(`/api/agents/${agentId('u-star')}/assign-session`, {}, h.admin)).statusCode, 400)
    const denied = await post(`/api/agents/${agentId('u-star')}/assign-session`, { session_id: s.id }, h.agent)
    t.equal(denied.statusCode, 403, 'agents.read is not agents.write')
  })

  t.test("another tenant's agent or session is answered like a missing one", async (t) => {
    const s = await seedSession(svc)
    const gs = await seedSession(svc, GLOBEX)
    const foreignAgent = await post(`/api/agents/${agentId('u-g', GLOBEX)}/assign-session`, { session_id: s.id })
    const missingAgent = await post('/api/agents/nobody/assign-session', { session_id: s.id })
    t.equal(foreignAgent.statusCode, 404)
    t.same(
      { ...foreignAgent.json(), message: '', request_id: '' },
      { ...missingAgent.json(), message: '', request_id: '' },
    )
    for (const verb of ['assign-session', 'release-session']) {
      const foreignSession = await post(`/api/agents/${agentId('u-star')}/${verb}`, { session_id: gs.id })
      const missingSession = await post(`/api/agents/${agentId('u-star')}/${verb}`, { session_id: 'nope' })
      t.equal(foreignSession.statusCode, 404, verb)
      t.equal(foreignSession.json().code, missingSession.json().code)
      t.equal(foreignSession.json().code, 'CONVERSATIONS_SESSION_NOT_FOUND')
    }
    const row = await svc.db.selectFrom('sessions').selectAll().where('id', '=', gs.id).executeTakeFirstOrThrow()
    t.equal(row.agent_id, null, "globex's session untouched")
  })

  t.test('release-session: the agent lets go; a closed session was released already', async (t) => {
    const s = await seedSession(svc)
    await post(`/api/agents/${agentId('u-de')}/assign-session`, { session_id: s.id })
    const other = await post(`/api/agents/${agentId('u-star')}/release-session`, { session_id: s.id })
    t.equal(other.statusCode, 409)
    t.equal(other.json().code, 'CONVERSATIONS_AGENT_NOT_ASSIGNED')

    const res = await post(`/api/agents/${agentId('u-de')}/release-session`, { session_id: s.id })
    t.equal(res.statusCode, 200)
    t.match(res.json(), {
      message: 'Session released successfully',
      agent_id: agentId('u-de'),
      session_id: s.id,
      current_load: 0,
      session: { agent_id: null, status: 'active' },
    })
    const events = await eventsOf(svc, s.id, 4)
    const released = events.find((e) => e.type === 'conversations.session.released')
    t.match(released?.data, { session: { session_id: s.id, agent_id: null }, previous_agent_id: 'u-de' })
    t.equal(
      (await post(`/api/agents/${agentId('u-de')}/release-session`, { session_id: s.id })).statusCode,
      409,
      'released twice: it is no longer theirs',
    )

    await post(`/api/agents/${agentId('u-de')}/assign-session`, { session_id: s.id })
    await post(`/api/omni/sessions/${s.id}/close`, {})
    const closed = await post(`/api/agents/${agentId('u-de')}/release-session`, { session_id: s.id })
    t.equal(closed.statusCode, 200, 'the earlier clients release after closing: no error')
    t.match(closed.json(), { current_load: 0, session: { status: 'closed' } })
  })
})
