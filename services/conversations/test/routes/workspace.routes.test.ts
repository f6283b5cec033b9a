import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { as, conversationsApp, principal, servicePrincipal } from '../helpers/app.ts'
import { seedAgent } from '../helpers/omni.ts'

const agent = principal()
const otherTenant = principal({ user_id: 'agent-9', tenant_id: 'globex', workspace_id: 'support' })
const admin = principal({
  user_id: 'admin-1',
  kind: 'admin',
  roles: ['admin'],
  permissions: ['*'],
  tenant_id: '',
  workspace_id: '',
})

inEachStorageMode(t, 'workspace overview', async (t, mode) => {
  const { app, svc } = await conversationsApp(t, mode)
  const h = { agent: await as(agent), other: await as(otherTenant), admin: await as(admin) }
  const hub = await as(servicePrincipal({ tenant_id: '', workspace_id: '' }))
  const post = (url: string, payload: unknown, headers = h.agent) =>
    app.inject({ method: 'POST', url, payload: payload as object, headers })
  const overview = async (qs = '', headers = h.agent) => {
    const res = await app.inject({ method: 'GET', url: `/api/omni/workspace${qs}`, headers })
    t.equal(res.statusCode, 200)
    return res.json()
  }
  let n = 0
  const open = async (channel: string, tenant_id = 'acme') => {
    const res = await post(
      `/internal/sessions/ws-${mode}-${++n}/messages`,
      { sender: 'customer', customer_id: 'cust-1', content: 'hi', channel, tenant_id, workspace_id: 'support' },
      hub,
    )
    t.equal(res.statusCode, 201)
    return res.json().session.id as string
  }

  t.test('empty', async (t) => {
    t.same(await overview(), {
      total_active_sessions: 0,
      waiting_queue: 0,
      online_agents: 0,
      busy_agents: 0,
      channels: [],
      recent_sessions: [],
    })
  })

  t.test('counts sessions per channel and agents by presence and load, in the caller’s scope', async (t) => {
    await seedAgent(svc, { user_id: 'agent-1', max_concurrent: 1 })
    await seedAgent(svc, { user_id: 'agent-2', max_concurrent: 3 })
    await seedAgent(svc, { user_id: 'agent-3', status: 'busy' })
    await seedAgent(svc, { user_id: 'agent-4', status: 'offline' })
    await seedAgent(svc, { user_id: 'agent-5', tenant_id: 'globex' })

    const web1 = await open('web')
    const web2 = await open('web')
    const web3 = await open('web')
    const mail = await open('email')
    const voice = await open('voice')
    await open('web', 'globex')
    t.equal((await post(`/api/omni/sessions/${web1}/assign`, { agent_id: 'agent-1' })).statusCode, 200)
    t.equal((await post(`/api/omni/sessions/${web2}/transfer`, { to_agent_id: 'agent-2' })).statusCode, 200)
    await svc.db.updateTable('sessions').set({ status: 'waiting_human' }).where('id', 'in', [web3, mail]).execute()
    t.equal((await post(`/api/omni/sessions/${voice}/close`, {})).statusCode, 200)

    const o = await overview()
    t.match(o, {
      total_active_sessions: 2,
      waiting_queue: 2,
      online_agents: 3,
      busy_agents: 2,
      channels: [
        { channel: 'email', active_sessions: 0, waiting_sessions: 1 },
        { channel: 'web', active_sessions: 2, waiting_sessions: 1 },
      ],
    })
    t.same(
      o.recent_sessions.map((s: { id: string }) => s.id),
      [voice, mail, web3, web2, web1],
      'newest first, closed ones too',
    )
    t.match(o.recent_sessions[3], { id: web2, status: 'transferred', agent_id: 'agent-2' })
    t.equal((await overview('?limit=2')).recent_sessions.length, 2)

    const globex = await overview('', h.other)
    t.match(globex, { total_active_sessions: 1, online_agents: 1, busy_agents: 0 })
    t.equal(globex.recent_sessions.length, 1)
    const all = await overview('?limit=100', h.admin)
    t.match(all, { total_active_sessions: 3, waiting_queue: 2, online_agents: 4 })
    t.equal(all.recent_sessions.length, 6)
  })

  t.test('limit is 1..100', async (t) => {
    for (const qs of ['?limit=0', '?limit=101', '?limit=x']) {
      const res = await app.inject({ method: 'GET', url: `/api/omni/workspace${qs}`, headers: h.agent })
      t.equal(res.statusCode, 400, qs)
    }
  })
})
