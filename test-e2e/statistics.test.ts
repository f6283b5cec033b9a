// Statistics end to end through the gateway, in both run modes: activity made through the owning services' APIs
// (customers and agents in identity, tickets and a rating in tickets, conversations with messages), read back from
// every /api/statistics endpoint once the projections caught up, each value equal to its definition computed here
// from what those services answer. A second tenant's activity is out of the scoped view and in the unscoped one.
// Then the projections' lag settles to 0, and client metrics reach statistics' /metrics through the gateway's
// service-only /api/v1/metrics/ingest.
import { isDeepStrictEqual } from 'node:util'
import { login } from './harness/auth.ts'
import { conversationsKit, must, type Scope } from './harness/conversations-kit.ts'
import type { CallOptions, Client } from './harness/http.ts'
import { isError } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'
import { createTicket } from './harness/tickets-kit.ts'

/**
 * Reads `path` until `ready(body)` holds (the projections caught up) and returns that body; after `ms` it returns
 * the last one, so the assertion that follows shows what differed.
 */
async function settled(api: Client, path: string, auth: CallOptions, ready: (body: any) => boolean, ms = 20_000) {
  const deadline = Date.now() + ms
  for (;;) {
    const r = await api.get(path, auth)
    if (r.status === 200 && ready(r.body)) return r.body
    if (Date.now() > deadline) return r.status === 200 ? r.body : r.text
    await new Promise((res) => setTimeout(res, 150))
  }
}

const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length)
const near = (a: number, b: number) => Math.abs(a - b) <= 0.002
const today = () => new Date().toISOString().slice(0, 10)

inEachMode('statistics: every endpoint equals its definition', {}, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api } = kit
  const scope = kit.freshScope('stats')
  const other = kit.freshScope('stato')
  const staff = kit.svc(scope)
  const all: CallOptions = { token: kit.service } // the service token without selectors: no scope

  // identity: three customers (two sources), two agents (each a user promoted from a customer record of source web)
  const customer = async (s: Scope, name: string, source: string) =>
    must(
      await api.post(
        '/api/customers',
        { name, email: `${name}_${kit.suffix}@e2e.example.com`, username: `${name}_${kit.suffix}`, source },
        kit.svc(s),
      ),
      201,
      `customer ${name}`,
    ) as { id: string; user_id: string }
  const c1 = await customer(scope, 'st_c1', 'web')
  const c2 = await customer(scope, 'st_c2', 'app')
  const c3 = await customer(scope, 'st_c3', 'app')
  const agent = async (name: string, department: string, status: 'online' | 'busy') => {
    const user = await customer(scope, name, 'web')
    const a = must(
      await api.post('/api/agents', { user_id: user.user_id, name, department }, staff),
      201,
      `agent ${name}`,
    ) as { id: string; user_id: string }
    must(await api.put(`/api/agents/${a.id}/status`, { status }, staff), 200, `agent ${name} ${status}`)
    return a
  }
  const ann = await agent(`ann_${kit.suffix}`, 'Sales', 'online')
  const ben = await agent(`ben_${kit.suffix}`, 'Support', 'busy')

  // tickets: one per status of the definitions table, a resolution, a close, a rating
  const ticket = async (customerId: string, category: string, priority: string, s = scope) =>
    must(
      await createTicket(
        api,
        { title: `${category} ${priority}`, customer_id: customerId, category, priority },
        kit.svc(s),
      ),
      201,
      'ticket',
    ) as { id: string }
  const step = async (path: string, body: unknown, method: 'post' | 'put' = 'post') =>
    must(await api[method](path, body, staff), 200, path)
  const tOpen = await ticket(c1.id, 'billing', 'high')
  const tAssigned = await ticket(c1.id, 'billing', 'normal')
  await step(`/api/tickets/${tAssigned.id}/assign`, { agent_id: ann.id })
  const tResolved = await ticket(c2.id, 'technical', 'high')
  await step(`/api/tickets/${tResolved.id}/assign`, { agent_id: ann.id })
  await step(`/api/tickets/${tResolved.id}`, { status: 'in_progress' }, 'put')
  await step(`/api/tickets/${tResolved.id}`, { status: 'resolved' }, 'put')
  const tClosed = await ticket(c3.id, 'general', 'low')
  await step(`/api/tickets/${tClosed.id}/assign`, { agent_id: ben.id })
  await step(`/api/tickets/${tClosed.id}`, { status: 'in_progress' }, 'put')
  await step(`/api/tickets/${tClosed.id}`, { status: 'resolved' }, 'put')
  await step(`/api/tickets/${tClosed.id}/close`, {})
  must(await api.post('/api/satisfactions', { ticket_id: tResolved.id, rating: 5 }, staff), 201, 'rating')

  // conversations: one session left active with three customer messages, one closed (closing adds a system message)
  const hub = kit.hub(scope)
  const open = await hub.open('Where is my order?', c1.user_id)
  for (const content of ['Order 1', 'Still waiting']) {
    must(
      await hub.post(`/internal/sessions/${open.session.id}/messages`, {
        sender: 'customer',
        customer_id: c1.user_id,
        content,
      }),
      201,
      'message',
    )
  }
  const done = await hub.open('Thanks, all good', c2.user_id)
  must(await api.post(`/api/omni/sessions/${done.session.id}/close`, {}, staff), 200, 'close')

  // the other tenant: a customer of its own source, a ticket of its own category, a session with one message
  const foreigner = await customer(other, 'st_x1', `only_${kit.suffix}`)
  const foreignTicket = await ticket(foreigner.id, `only_${kit.suffix}`, 'urgent', other)
  await kit.hub(other).open('Hello from elsewhere', foreigner.user_id)

  // The definitions, computed from what the owning services answer.
  const tickets = await Promise.all(
    [tOpen, tAssigned, tResolved, tClosed].map(async (x) =>
      must(await api.get(`/api/tickets/${x.id}`, staff), 200, 'ticket'),
    ),
  )
  const byStatus = (s: string) => tickets.filter((x) => x.status === s).length
  const durations = tickets
    .filter((x) => x.resolved_at)
    .map((x) => (Date.parse(x.resolved_at) - Date.parse(x.created_at)) / 1000)
  const messages = async (id: string) =>
    must(await api.get(`/api/omni/sessions/${id}/messages?limit=200`, staff), 200, 'messages').count as number
  const messageCount = (await messages(open.session.id)) + (await messages(done.session.id))
  // the agents' own figures, once identity has applied the rating to ann
  const agents = await settled(api, '/api/agents?page_size=200', staff, (b) =>
    b.data.some((a: any) => a.id === ann.id && a.rating === 5),
  )
  const agentRow = (id: string) => agents.data.find((a: any) => a.id === id)

  t.test('dashboard, scoped: every metric of the definitions table', async (t) => {
    t.same(
      tickets.map((x) => x.status),
      ['open', 'assigned', 'resolved', 'closed'],
    )
    const expected = {
      total_customers: 3, // users with role customer: the agents' users are agents now
      total_agents: 2,
      total_tickets: 4,
      total_sessions: 2,
      today_tickets: 4,
      today_sessions: 2,
      today_messages: messageCount,
      open_tickets: byStatus('open'),
      assigned_tickets: byStatus('assigned'),
      resolved_tickets: byStatus('resolved'),
      closed_tickets: byStatus('closed'),
      online_agents: 1,
      busy_agents: 1,
      active_sessions: 1,
      avg_response_time: mean(agents.data.map((a: any) => a.avg_response_time)),
      customer_satisfaction: 5,
      ai_usage_today: 0,
      knowledge_provider_usage_today: 0,
      compat_provider_usage_today: 0,
    }
    const body = await settled(api, '/api/statistics/dashboard', staff, (b) =>
      isDeepStrictEqual({ ...b, avg_resolution_time: undefined }, { ...expected, avg_resolution_time: undefined }),
    )
    t.match(body, expected)
    t.ok(
      near(body.avg_resolution_time, mean(durations)),
      `avg_resolution_time ${body.avg_resolution_time} ≈ ${mean(durations)}`,
    )
  })

  t.test('time-range, agent performance, grouped counts', async (t) => {
    const day = today()
    const range = `start_date=${day}&end_date=${day}`
    t.same(await settled(api, `/api/statistics/time-range?${range}`, staff, (b) => b[0]?.messages === messageCount), [
      {
        date: day,
        tickets: 4,
        sessions: 2,
        messages: messageCount,
        resolved_tickets: 2, // the resolved one and the closed one, both resolved today
        avg_response_time: mean(agents.data.map((a: any) => a.avg_response_time)),
        customer_satisfaction: 5,
      },
    ])
    const perf = await settled(api, `/api/statistics/agent-performance?${range}&limit=5`, staff, (b) =>
      b.some((r: any) => r.rating === 5),
    )
    t.match(perf, [
      {
        agent_id: ann.user_id,
        agent_name: agentRow(ann.id).name,
        department: 'Sales',
        total_tickets: 2,
        resolved_tickets: 1,
        rating: agentRow(ann.id).rating,
      },
      {
        agent_id: ben.user_id,
        agent_name: agentRow(ben.id).name,
        department: 'Support',
        total_tickets: 1,
        resolved_tickets: 1,
        rating: agentRow(ben.id).rating,
      },
    ])
    t.equal(perf.length, 2)
    const limited = must(await api.get(`/api/statistics/agent-performance?${range}&limit=1`, staff), 200, 'limit')
    t.equal(limited.length, 1)
    t.same(must(await api.get(`/api/statistics/ticket-category?${range}`, staff), 200, 'category'), [
      { key: 'billing', count: 2 },
      { key: 'general', count: 1 },
      { key: 'technical', count: 1 },
    ])
    t.same(must(await api.get(`/api/statistics/ticket-priority?${range}`, staff), 200, 'priority'), [
      { key: 'high', count: 2 },
      { key: 'low', count: 1 },
      { key: 'normal', count: 1 },
    ])
    t.same(must(await api.get('/api/statistics/customer-source', staff), 200, 'source'), [
      { key: 'web', count: 3 }, // st_c1 and the two agents' customer records
      { key: 'app', count: 2 },
    ])
  })

  t.test('the other tenant: out of the scoped view, in the unscoped one', async (t) => {
    const only = `only_${kit.suffix}`
    const category = await settled(api, '/api/statistics/ticket-category', all, (b) =>
      b.some((r: any) => r.key === only),
    )
    t.ok(
      category.some((r: any) => r.key === only && r.count === 1),
      'unscoped: its category',
    )
    const sources = await settled(api, '/api/statistics/customer-source', all, (b) =>
      b.some((r: any) => r.key === only),
    )
    t.ok(
      sources.some((r: any) => r.key === only && r.count === 1),
      'unscoped: its source',
    )
    t.notOk(
      must(await api.get('/api/statistics/ticket-category', staff), 200, 'scoped').some((r: any) => r.key === only),
      'scoped: not its category',
    )
    // the unscoped totals are every tenant's: what tickets itself lists without a scope
    const listed = must(await api.get('/api/tickets?page_size=1', all), 200, 'all tickets').total as number
    const dash = await settled(api, '/api/statistics/dashboard', all, (b) => b.total_tickets === listed)
    t.equal(dash.total_tickets, listed)
    t.ok(dash.total_sessions >= 3 && dash.total_customers >= 4, 'unscoped counts include the other tenant')
    const theirs = await settled(api, '/api/statistics/dashboard', kit.svc(other), (b) => b.total_sessions === 1)
    t.match(theirs, { total_customers: 1, total_tickets: 1, total_sessions: 1, open_tickets: 1, total_agents: 0 })
    t.ok(foreignTicket.id)
  })

  t.test('update-daily: the unscoped view recomputes the system day; refusals', async (t) => {
    const res = await api.post(`/api/statistics/update-daily?date=${today()}`, undefined, all)
    t.equal(res.status, 200, res.text)
    t.match(res.body, { message: 'Daily statistics updated successfully', date: today() })
    t.ok(
      res.body.stats.total_tickets >= 5 && res.body.stats.resolved_tickets >= 2 && res.body.stats.total_sessions >= 3,
    )
    t.equal(res.body.stats.ai_usage_count, 0)
    isError(t, await api.post('/api/statistics/update-daily', undefined, staff), 403, 'FORBIDDEN')
    // tz= through the gateway: the same world, counted in another zone's days
    const zoned = must(await api.get('/api/statistics/dashboard?tz=Asia/Kolkata', staff), 200, 'tz')
    t.match(zoned, { total_tickets: 4, total_sessions: 2, total_customers: 3 })
    isError(t, await api.get('/api/statistics/dashboard?tz=Mars/Olympus', staff), 400, 'VALIDATION_FAILED')
    isError(
      t,
      await api.get('/api/statistics/time-range?start_date=2026-01-10&end_date=2026-01-01', staff),
      400,
      'STATISTICS_INVALID_RANGE',
    )
    const missing = await api.get('/api/statistics/agent-performance?end_date=2026-01-01', staff)
    isError(t, missing, 400, 'VALIDATION_FAILED')
    t.match(missing.body.message, /start_date/)
  })

  t.test('the projections caught up: lag 0, on /api/statistics/lag and stats_projection_lag_seconds', async (t) => {
    const lag = await settled(api, '/api/statistics/lag', staff, (b) => b.caught_up === true)
    t.equal(lag.caught_up, true, JSON.stringify(lag))
    t.same(
      lag.projections.map((p: any) => [p.projection, p.lag_seconds]),
      [
        ['statistics-identity', 0],
        ['statistics-tickets', 0],
        ['statistics-conversations', 0],
        ['statistics-ai', 0],
      ],
    )
    const metrics = await fetch(new URL('/metrics', system.serviceUrls.statistics![0]!)).then((r) => r.text())
    t.match(metrics, /stats_projection_lag_seconds\{[^}]*projection="statistics-tickets"[^}]*\} 0\n/)
  })

  t.test(
    'metrics ingest: a service token records allow-listed names, counts the rest; other kinds refused',
    async (t) => {
      const batch = {
        source: 'sdk',
        tenant: scope.tenant_id,
        metrics: [
          { name: 'sdk_messages_sent_total', value: 3 },
          { name: 'sdk_ws_reconnects_total' },
          { name: `not_ours_${kit.suffix}`, value: 1 },
        ],
      }
      const res = await api.post('/api/v1/metrics/ingest', batch, all)
      t.equal(res.status, 200, res.text)
      t.same(res.body, { success: true, accepted: 2, dropped: 1, dropped_names: [`not_ours_${kit.suffix}`] })
      const metrics = await fetch(new URL('/metrics', system.serviceUrls.statistics![0]!)).then((r) => r.text())
      const line = (name: string) =>
        metrics.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(`tenant="${scope.tenant_id}"`))
      t.match(line('sdk_messages_sent_total'), / 3$/)
      t.match(line('sdk_ws_reconnects_total'), / 1$/)
      t.match(metrics, /statistics_ingest_dropped_total\{[^}]*reason="unknown_name"[^}]*\} [1-9]/)
      t.notMatch(metrics, new RegExp(`not_ours_${kit.suffix}`))

      isError(
        t,
        await api.post('/api/v1/metrics/ingest', { source: 'sdk', metrics: [] }, all),
        400,
        'VALIDATION_FAILED',
      )
      const admin = await login(api, system.admin.username, system.admin.password)
      isError(
        t,
        await api.post('/api/v1/metrics/ingest', batch, { token: admin.token }),
        403,
        'PRINCIPAL_KIND_FORBIDDEN',
      )
      t.equal((await api.post('/api/v1/metrics/ingest', batch)).status, 401)
    },
  )
})
