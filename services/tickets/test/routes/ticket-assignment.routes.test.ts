import { inEachStorageMode, type StorageMode, silentLogger, storageFixture, waitFor } from '@switchboard/testing'
import t, { type Test } from 'tap'
import { tickets } from '../../src/build.ts'
import { loadConfig } from '../../src/config.ts'
import { ACME_SUPPORT, as, INTERNAL_SECRET, principal, ticketsApp } from '../helpers/app.ts'
import { agentStatus, makeKnown, makeSessionsKnown, recordId } from '../helpers/directory.ts'

const agent = principal()
const otherWorkspace = principal({ user_id: 'agent-8', workspace_id: 'sales' })
const SALES = { tenant_id: 'acme', workspace_id: 'sales' }

inEachStorageMode(t, 'ticket references', async (t, mode) => {
  const { app, svc } = await ticketsApp(t, mode)
  const h = { agent: await as(agent), sales: await as(otherWorkspace) }
  await makeKnown(svc, ACME_SUPPORT, { customers: ['rc-1'], agents: ['ra-1'] })
  await makeKnown(svc, SALES, { customers: ['rc-sales'], agents: ['ra-sales'] })
  const post = (url: string, payload: unknown, headers = h.agent) =>
    app.inject({ method: 'POST', url, payload: payload as object, headers })

  t.test('a customer must be one of the workspace: 400 naming the field otherwise', async (t) => {
    for (const customer_id of ['made-up', 'rc-sales', recordId(SALES, 'rc-sales')]) {
      const res = await post('/api/tickets', { title: 'x', customer_id })
      t.equal(res.statusCode, 400, customer_id)
      t.same(res.json().code, 'TICKETS_UNKNOWN_CUSTOMER')
      t.equal(res.json().message, `body.customer_id: no customer ${customer_id} in this workspace`)
    }
    t.equal((await post('/api/tickets', { title: 'x', customer_id: 'rc-sales' }, h.sales)).statusCode, 201)
  })

  t.test('a conversation it continues must be one of the workspace: the same 400 for another tenant’s', async (t) => {
    const GLOBEX = { tenant_id: 'globex', workspace_id: 'support' }
    await makeSessionsKnown(svc, ACME_SUPPORT, [`sess-own-${mode}`], 'rc-1')
    await makeSessionsKnown(svc, SALES, [`sess-sales-${mode}`])
    await makeSessionsKnown(svc, GLOBEX, [`sess-globex-${mode}`])
    const before = await svc.db.selectFrom('tickets').select('id').execute()
    for (const session_id of [`sess-sales-${mode}`, `sess-globex-${mode}`, `sess-nobody-${mode}`]) {
      const res = await post('/api/tickets', { title: 'x', customer_id: 'rc-1', session_id })
      t.equal(res.statusCode, 400, session_id)
      t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'request_id'])
      t.equal(res.json().code, 'TICKETS_UNKNOWN_SESSION')
      t.equal(res.json().message, `body.session_id: no session ${session_id} in this workspace`)
    }
    t.equal((await svc.db.selectFrom('tickets').select('id').execute()).length, before.length, 'nothing was created')
    const own = await post('/api/tickets', { title: 'x', customer_id: 'rc-1', session_id: `sess-own-${mode}` })
    t.equal(own.statusCode, 201)
    t.equal(own.json().session_id, `sess-own-${mode}`)
  })

  t.test('an agent must be one of the ticket’s workspace', async (t) => {
    const ticket = (await post('/api/tickets', { title: 'Assign', customer_id: 'rc-1' })).json()
    for (const agent_id of ['nobody', 'ra-sales', recordId(SALES, 'ra-sales')]) {
      const res = await post(`/api/tickets/${ticket.id}/assign`, { agent_id })
      t.equal(res.statusCode, 400, agent_id)
      t.match(res.json(), {
        code: 'TICKETS_UNKNOWN_AGENT',
        message: `body.agent_id: no agent ${agent_id} in this workspace`,
      })
    }
    const ok = await post(`/api/tickets/${ticket.id}/assign`, { agent_id: recordId(ACME_SUPPORT, 'ra-1') })
    t.match(ok.json(), { agent_id: 'ra-1', status: 'assigned' })
    t.equal((await post('/api/tickets/missing/assign', { agent_id: 'nobody' })).statusCode, 404, 'the ticket first')
  })

  t.test('a customer or agent learnt later from identity becomes usable; a newer event wins', async (t) => {
    t.equal((await post('/api/tickets', { title: 'x', customer_id: 'late' })).statusCode, 400)
    await makeKnown(svc, ACME_SUPPORT, { customers: ['late'] })
    t.equal((await post('/api/tickets', { title: 'x', customer_id: 'late' })).statusCode, 201)
    // a status change that arrives before the agent's record: a placeholder the record fills in
    await agentStatus(svc, ACME_SUPPORT, 'ra-new', 'away')
    await waitFor(
      async () =>
        (await svc.db.selectFrom('directory_agents').selectAll().where('user_id', '=', 'ra-new').executeTakeFirst())
          ?.status === 'away',
    )
    await makeKnown(svc, ACME_SUPPORT, { agents: [{ user_id: 'ra-new', status: 'away' }] })
    const row = await svc.db
      .selectFrom('directory_agents')
      .selectAll()
      .where('user_id', '=', 'ra-new')
      .executeTakeFirstOrThrow()
    t.match(row, { name: 'Agent ra-new', status: 'away', max_concurrent: 5 })
  })
})

async function autoApp(t: Test, mode: StorageMode) {
  const store = await storageFixture(t, mode, 'tkaa')
  const config = {
    ...loadConfig({ INTERNAL_SECRET, LOG_LEVEL: 'silent', TICKETS_AUTO_ASSIGN: 'true', SLA_MONITOR_ENABLED: 'false' }),
    port: 0,
    database: store.database,
    cache: store.cache,
    bus: store.bus,
  }
  const app = await tickets.build(config, { logger: silentLogger() })
  t.teardown(() => app.close())
  await app.ready()
  return { app, svc: tickets.contextOf(app) }
}

inEachStorageMode(t, 'auto-assignment (TICKETS_AUTO_ASSIGN=true)', async (t, mode) => {
  const { app, svc } = await autoApp(t, mode)
  const headers = await as(agent)
  await makeKnown(svc, ACME_SUPPORT, {
    customers: ['ac-1'],
    agents: [
      { user_id: 'aa-busy', max_concurrent: 2 },
      { user_id: 'aa-free', max_concurrent: 2 },
      { user_id: 'aa-away', status: 'away', max_concurrent: 9 },
    ],
  })
  const create = async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers,
      payload: { title: 'Auto', customer_id: 'ac-1' },
    })
    t.equal(res.statusCode, 201)
    return res.json()
  }

  t.test('the lowest load first, never past capacity, never an agent who is not online', async (t) => {
    const first = await create()
    t.match(first, { status: 'assigned', agent_id: 'aa-busy' }, 'equal loads: by user id')
    t.equal((await create()).agent_id, 'aa-free', 'then the less loaded')
    const history = (await app.inject({ method: 'GET', url: `/api/tickets/${first.id}/history`, headers })).json().data
    t.match(history[1], { from_status: 'open', to_status: 'assigned', reason: 'auto-assigned' })
    // the rest concurrently: two slots left, so exactly two more are assigned
    const more = await Promise.all(Array.from({ length: 5 }, () => create()))
    const assigned = more.filter((x) => x.agent_id !== null)
    t.equal(assigned.length, 2, 'capacity holds under concurrent creation')
    t.ok(
      more.filter((x) => x.agent_id === null).every((x) => x.status === 'open'),
      'the rest wait, open',
    )
    const stats = (await app.inject({ method: 'GET', url: '/api/tickets/stats?agent_id=aa-busy', headers })).json()
    t.equal(stats.total, 2)
  })

  t.test('an agent going offline is passed over; one coming online is used', async (t) => {
    await makeKnown(svc, ACME_SUPPORT, { agents: [{ user_id: 'aa-late', max_concurrent: 1 }] })
    await agentStatus(svc, ACME_SUPPORT, 'aa-late', 'offline')
    await waitFor(
      async () =>
        (
          await svc.db
            .selectFrom('directory_agents')
            .select('status')
            .where('user_id', '=', 'aa-late')
            .executeTakeFirst()
        )?.status === 'offline',
    )
    t.equal((await create()).agent_id, null, 'offline: nobody free')
    await agentStatus(svc, ACME_SUPPORT, 'aa-late', 'online', 'offline')
    await waitFor(
      async () =>
        (
          await svc.db
            .selectFrom('directory_agents')
            .select('status')
            .where('user_id', '=', 'aa-late')
            .executeTakeFirst()
        )?.status === 'online',
    )
    t.equal((await create()).agent_id, 'aa-late')
  })
})

inEachStorageMode(t, 'auto-assignment per workspace (GET/PUT /api/tickets/settings)', async (t, mode) => {
  // the service default is off (TICKETS_AUTO_ASSIGN unset): a workspace turns it on for itself
  const { app, svc } = await ticketsApp(t, mode)
  const headers = await as(agent)
  const admin = await as(principal({ user_id: 'admin-1', kind: 'admin', roles: ['admin'], permissions: ['*'] }))
  const salesAdmin = await as(
    principal({ user_id: 'admin-2', kind: 'admin', roles: ['admin'], permissions: ['*'], ...SALES }),
  )
  await makeKnown(svc, ACME_SUPPORT, { customers: ['sc-1'], agents: [{ user_id: 'sa-1', max_concurrent: 5 }] })
  await makeKnown(svc, SALES, { customers: ['sc-2'], agents: [{ user_id: 'sa-2', max_concurrent: 5 }] })
  const create = async (h: Record<string, string>, customer: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: h,
      payload: { title: 'T', customer_id: customer },
    })
    t.equal(res.statusCode, 201, res.body)
    return res.json()
  }
  const settings = (h: Record<string, string>) =>
    app.inject({ method: 'GET', url: '/api/tickets/settings', headers: h })
  const put = (h: Record<string, string>, payload: object) =>
    app.inject({ method: 'PUT', url: '/api/tickets/settings', headers: h, payload })

  t.match((await settings(headers)).json(), { auto_assign: false, is_default: true, updated_at: null })
  t.equal((await create(headers, 'sc-1')).agent_id, null, 'off by default')

  const refused = await put(headers, { auto_assign: true })
  t.equal(refused.statusCode, 403, "an agent's tickets.write does not change settings")
  t.equal((await put(admin, { auto_assign: 'yes' })).statusCode, 400)
  t.equal((await put(admin, { auto_assign: true, extra: 1 })).statusCode, 400)
  const on = await put(admin, { auto_assign: true })
  t.equal(on.statusCode, 200, on.body)
  t.match(on.json(), { auto_assign: true, is_default: false, updated_at: String })
  t.match((await settings(headers)).json(), { auto_assign: true, is_default: false })
  t.match(await create(headers, 'sc-1'), { status: 'assigned', agent_id: 'sa-1' }, 'on: the workspace assigns')

  // another workspace keeps its own (the default)
  t.match((await settings(salesAdmin)).json(), { auto_assign: false, is_default: true })
  t.equal((await create(salesAdmin, 'sc-2')).agent_id, null, 'sales still off')

  t.equal((await put(admin, { auto_assign: false })).statusCode, 200)
  t.equal((await create(headers, 'sc-1')).agent_id, null, 'off again')
})
