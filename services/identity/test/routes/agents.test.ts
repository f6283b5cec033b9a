import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { as } from '../helpers/app.ts'
import { createCustomer, directoryFixture, errorShape, who as principal } from '../helpers/directory.ts'

inEachStorageMode(t, 'agent directory', async (t, mode) => {
  const { app, who, rec, req } = await directoryFixture(t, mode)

  const carol = await createCustomer(app, who.acmeAdmin, { name: 'Carol', email: 'carol@acme.test' })
  const dave = await createCustomer(app, who.acmeAdmin, { name: 'Dave', email: 'dave@acme.test' })
  const gina = await createCustomer(app, who.globexAdmin, { name: 'Gina', email: 'gina@globex.test' })
  let agentId = ''

  await t.test('POST /api/agents promotes a visible user and emits its events', async (t) => {
    const res = await req('POST', '/api/agents', who.acmeAdmin, {
      user_id: carol.user_id,
      department: 'billing',
      skills: ['refunds', 'de'],
      max_concurrent: 3,
    })
    t.equal(res.statusCode, 201, res.body)
    const a = res.json()
    agentId = a.id
    t.same(Object.keys(a).sort(), [
      'avg_response_time',
      'created_at',
      'current_load',
      'department',
      'id',
      'max_concurrent',
      'name',
      'rating',
      'skills',
      'status',
      'tenant_id',
      'updated_at',
      'user_id',
      'workspace_id',
    ])
    t.match(a, {
      user_id: carol.user_id,
      tenant_id: 'acme',
      workspace_id: 'support',
      name: 'Carol',
      department: 'billing',
      skills: ['refunds', 'de'],
      max_concurrent: 3,
      status: 'offline',
    })
    const upserted = await rec.find('identity.agent.upserted', (d: any) => d.agent_id === a.id)
    t.equal(upserted.tenant_id, 'acme')
    t.same(upserted.data.skills, ['refunds', 'de'])
    const role = await rec.find('identity.user.role_changed', (d: any) => d.user_id === carol.user_id)
    t.equal(role.data.role, 'agent')
    await rec.find(
      'identity.user.token_state_changed',
      (d: any) => d.user.user_id === carol.user_id && d.user.token_version === 2,
    )
    const state = (await req('GET', `/api/security/users/${carol.user_id}`, who.acmeAdmin)).json()
    t.equal(state.role, 'agent', 'the user is an agent now')
    t.equal(state.token_version, 2, 'old tokens carried the old role')
    const audit = await rec.audit('agents.create', a.id)
    t.equal(audit.after_json.user_id, carol.user_id)
  })

  await t.test('refusals: duplicate, foreign or unknown user, no scope, bad input', async (t) => {
    const dup = await req('POST', '/api/agents', who.acmeAdmin, { user_id: carol.user_id })
    t.equal(dup.statusCode, 409)
    t.equal(dup.json().code, 'IDENTITY_AGENT_EXISTS')
    const foreign = await req('POST', '/api/agents', who.acmeAdmin, { user_id: gina.user_id })
    const unknown = await req('POST', '/api/agents', who.acmeAdmin, { user_id: 'nobody' })
    t.equal(foreign.statusCode, 404)
    t.same(errorShape(foreign), errorShape(unknown), 'a foreign user is as unknown as a missing one')
    const unscoped = await req('POST', '/api/agents', who.platform, { user_id: dave.user_id })
    t.equal(unscoped.statusCode, 400, 'creating needs a concrete scope')
    const bad = await req('POST', '/api/agents', who.acmeAdmin, { user_id: dave.user_id, max_concurrent: 0 })
    t.equal(bad.statusCode, 400)
    t.match(bad.json().message, /max_concurrent/)
    t.equal((await req('POST', '/api/agents', who.acmeAgent, { user_id: dave.user_id })).statusCode, 403)
    // an unscoped platform service narrowed to acme may bind any user, even one acme can't see yet
    const platform = await req('POST', '/api/agents', who.platformInAcme, { user_id: gina.user_id, name: 'Gina A.' })
    t.equal(platform.statusCode, 201, platform.body)
    t.equal(platform.json().tenant_id, 'acme')
  })

  await t.test('GET list and one: scoped, filtered, paginated', async (t) => {
    await req('POST', '/api/agents', who.acmeAdmin, { user_id: dave.user_id, department: 'sales' })
    const all = (await req('GET', '/api/agents', who.acmeAdmin)).json()
    t.same([all.total, all.page, all.page_size, all.pages], [3, 1, 20, 1])
    const sales = (await req('GET', '/api/agents?department=sales', who.acmeAdmin)).json()
    t.same(
      sales.data.map((a: any) => a.user_id),
      [dave.user_id],
    )
    const paged = (await req('GET', '/api/agents?page=2&page_size=2', who.acmeAdmin)).json()
    t.same([paged.data.length, paged.pages], [1, 2])
    t.equal((await req('GET', '/api/agents', who.globexAdmin)).json().total, 0, 'globex sees no acme agents')
    t.equal((await req('GET', '/api/agents', who.acmeAgent)).statusCode, 200, 'agents may read the directory')
    t.equal((await req('GET', '/api/agents?status=sleeping', who.acmeAdmin)).statusCode, 400)
    const one = await req('GET', `/api/agents/${agentId}`, who.acmeAdmin)
    t.equal(one.json().id, agentId)
    t.same(
      errorShape(await req('GET', `/api/agents/${agentId}`, who.globexAdmin)),
      errorShape(await req('GET', '/api/agents/none', who.globexAdmin)),
    )
  })

  await t.test('online, offline, status: event and audit snapshot', async (t) => {
    const on = await req('POST', `/api/agents/${agentId}/online`, who.acmeAdmin)
    t.equal(on.statusCode, 200, on.body)
    t.equal(on.json().status, 'online')
    const ev = await rec.find(
      'identity.agent.status_changed',
      (d: any) => d.agent_id === agentId && d.status === 'online',
    )
    t.same(ev.data, { agent_id: agentId, user_id: carol.user_id, status: 'online', previous: 'offline' })
    const audit = await rec.audit('agents.online', agentId)
    t.same([audit.before_json, audit.after_json], [{ status: 'offline' }, { status: 'online' }])
    const busy = await req('PUT', `/api/agents/${agentId}/status`, who.acmeAdmin, { status: 'busy' })
    t.equal(busy.json().status, 'busy')
    const statusAudit = await rec.audit('agents.status', agentId)
    t.same([statusAudit.before_json, statusAudit.after_json], [{ status: 'online' }, { status: 'busy' }])
    const away = await req('PUT', `/api/agents/${agentId}/status`, who.acmeAdmin, { status: 'away' })
    t.equal(away.json().status, 'away')
    const bad = await req('PUT', `/api/agents/${agentId}/status`, who.acmeAdmin, { status: 'sleeping' })
    t.equal(bad.statusCode, 400)
    t.match(bad.json().message, /status/)
    const off = await req('POST', `/api/agents/${agentId}/offline`, who.acmeAdmin)
    t.equal(off.json().status, 'offline')
    await rec.find('identity.agent.status_changed', (d: any) => d.agent_id === agentId && d.previous === 'away')
    const filtered = (await req('GET', '/api/agents?status=offline', who.acmeAdmin)).json()
    t.ok(filtered.data.some((a: any) => a.id === agentId))
    for (const [method, url, payload] of [
      ['POST', `/api/agents/${agentId}/online`, undefined],
      ['POST', `/api/agents/${agentId}/offline`, undefined],
      ['PUT', `/api/agents/${agentId}/status`, { status: 'online' }],
    ] as const) {
      const res = await req(method, url, who.globexAdmin, payload)
      t.equal(res.statusCode, 404, `${url} from globex`)
      t.equal(res.json().code, 'IDENTITY_AGENT_NOT_FOUND')
    }
    t.equal((await req('GET', `/api/agents/${agentId}`, who.acmeAdmin)).json().status, 'offline', 'unchanged by globex')
  })

  await t.test('GET /api/agents/me and PUT /api/agents/me/status: an agent sets its own presence', async (t) => {
    const self = await as(
      principal({ kind: 'agent', tenant_id: 'acme', workspace_id: 'support', user_id: carol.user_id }),
    )
    const me = await req('GET', '/api/agents/me', self)
    t.equal(me.statusCode, 200, me.body)
    t.equal(me.json().id, agentId)
    const away = await req('PUT', '/api/agents/me/status', self, { status: 'away' })
    t.equal(away.statusCode, 200, away.body)
    t.equal(away.json().status, 'away')
    await rec.find('identity.agent.status_changed', (d: any) => d.agent_id === agentId && d.status === 'away')
    // audited as an operator's status change is (a later record than the earlier test's)
    const audit = await rec.find(
      'audit.record.recorded',
      (d: any) => d.action === 'agents.status' && d.resource_id === agentId && d.after_json?.status === 'away',
    )
    t.ok(audit, 'the change is audited')
    const online = await req('PUT', '/api/agents/me/status', self, { status: 'online' })
    t.equal(online.json().status, 'online')
    t.equal((await req('GET', `/api/agents/${agentId}`, who.acmeAdmin)).json().status, 'online')
    const bad = await req('PUT', '/api/agents/me/status', self, { status: 'sleeping' })
    t.equal(bad.statusCode, 400)
    // a user without an agent record here, or the same user in another workspace, has none
    const none = await req('PUT', '/api/agents/me/status', who.acmeAgent, { status: 'away' })
    t.equal(none.statusCode, 404)
    t.equal(none.json().code, 'IDENTITY_AGENT_NOT_FOUND')
    const elsewhere = await as(
      principal({ kind: 'agent', tenant_id: 'globex', workspace_id: 'main', user_id: carol.user_id }),
    )
    t.equal((await req('GET', '/api/agents/me', elsewhere)).statusCode, 404)
    t.equal((await req('PUT', '/api/agents/me/status', who.acmeAdmin, { status: 'offline' })).statusCode, 404)
    await req('POST', `/api/agents/${agentId}/offline`, who.acmeAdmin)
  })

  await t.test('PUT /api/agents/:id updates the profile', async (t) => {
    const res = await req('PUT', `/api/agents/${agentId}`, who.acmeAdmin, { department: 'support', skills: ['en'] })
    t.equal(res.statusCode, 200)
    t.match(res.json(), { department: 'support', skills: ['en'] })
    await rec.find('identity.agent.upserted', (d: any) => d.agent_id === agentId && d.department === 'support')
    t.equal((await req('PUT', `/api/agents/${agentId}`, who.acmeAdmin, {})).statusCode, 400, 'empty patch')
  })

  await t.test('POST /api/agents/:id/revoke-tokens', async (t) => {
    const res = await req('POST', `/api/agents/${agentId}/revoke-tokens`, who.acmeAdmin)
    t.equal(res.statusCode, 200, res.body)
    t.same(res.json(), { agent_id: agentId, token_version: 3 })
    await rec.find(
      'identity.user.token_state_changed',
      (d: any) => d.user.user_id === carol.user_id && d.user.token_version === 3,
    )
    const audit = await rec.audit('agents.revoke_tokens', agentId)
    t.same([audit.before_json.token_version, audit.after_json.token_version], [2, 3])
    t.equal((await req('POST', `/api/agents/${agentId}/revoke-tokens`, who.globexAdmin)).statusCode, 404)
    t.equal((await req('GET', `/api/security/users/${carol.user_id}`, who.platform)).json().token_version, 3)
  })
})
