// Every metric of the spec's definitions table, over a world published as the owning services publish it
// (test/helpers/world.ts), against the value computed by hand from the spec's sentence: scoped to each tenant and
// unscoped (the administrator view), on both storage engines.
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { findDaily } from '../../src/db/daily-stats.repository.ts'
import { ACME, as, GLOBEX, platformAdmin, statisticsApp, supervisor } from '../helpers/app.ts'
import { D0, D1, D2, publishWorld } from '../helpers/world.ts'

inEachStorageMode(t, 'statistics definitions', async (t, mode) => {
  const { app, svc } = await statisticsApp(t, mode)
  await publishWorld(svc)
  const h = {
    acme: await as(supervisor()),
    globex: await as(supervisor({ ...GLOBEX, user_id: 'sup-g' })),
    all: await as(platformAdmin()),
  }
  const get = async (url: string, headers: Record<string, string>) => {
    const res = await app.inject({ method: 'GET', url, headers })
    return { status: res.statusCode, body: res.json() }
  }

  t.test('dashboard, scoped to acme/support', async (t) => {
    const { status, body } = await get('/api/statistics/dashboard', h.acme)
    t.equal(status, 200)
    t.same(body, {
      // users with role customer reached through acme's customer records: u-c1, u-c2 (u-c3 is an agent now)
      total_customers: 2,
      total_agents: 3,
      total_tickets: 5,
      total_sessions: 3,
      today_tickets: 2, // t2, t5
      today_sessions: 2, // s1, s3
      today_messages: 3,
      open_tickets: 1,
      assigned_tickets: 1,
      resolved_tickets: 1,
      closed_tickets: 1,
      online_agents: 2, // a1, and a3 after its status change
      busy_agents: 1,
      active_sessions: 2, // s1, s3 (s2 closed)
      avg_response_time: (30 + 60 + 90) / 3,
      avg_resolution_time: (4 * 3600 + 3600) / 2, // t3 took 4 h, t4 1 h
      customer_satisfaction: (5 + 3) / 2, // r2 changed 2 → 3, r3 removed
      ai_usage_today: 0,
      knowledge_provider_usage_today: 0,
      compat_provider_usage_today: 0,
    })
  })

  t.test('dashboard, scoped to globex/main, and unscoped', async (t) => {
    t.match((await get('/api/statistics/dashboard', h.globex)).body, {
      total_customers: 1,
      total_agents: 1,
      total_tickets: 1,
      total_sessions: 1,
      today_tickets: 1,
      today_sessions: 1,
      today_messages: 4,
      resolved_tickets: 1,
      online_agents: 1,
      busy_agents: 0,
      active_sessions: 1,
      avg_response_time: 100,
      avg_resolution_time: 100,
      customer_satisfaction: 1,
    })
    t.same((await get('/api/statistics/dashboard', h.all)).body, {
      total_customers: 4, // every user with role customer, u-c4 included (no customer record needed unscoped)
      total_agents: 4,
      total_tickets: 6,
      total_sessions: 4,
      today_tickets: 3,
      today_sessions: 3,
      today_messages: 7,
      open_tickets: 1,
      assigned_tickets: 1,
      resolved_tickets: 2,
      closed_tickets: 1,
      online_agents: 3,
      busy_agents: 1,
      active_sessions: 3,
      avg_response_time: (30 + 60 + 90 + 100) / 4,
      avg_resolution_time: Math.round(((4 * 3600 + 3600 + 100) / 3) * 1000) / 1000,
      customer_satisfaction: (5 + 3 + 1) / 3,
      ai_usage_today: 0,
      knowledge_provider_usage_today: 0,
      compat_provider_usage_today: 0,
    })
  })

  t.test('time-range: per UTC day, resolved by resolved_at, the agents’ global response time', async (t) => {
    const { status, body } = await get(`/api/statistics/time-range?start_date=${D2}&end_date=${D0}`, h.acme)
    t.equal(status, 200)
    t.same(body, [
      {
        date: D2,
        tickets: 1,
        sessions: 0,
        messages: 0,
        resolved_tickets: 1,
        avg_response_time: 60,
        customer_satisfaction: 3,
      },
      {
        date: D1,
        tickets: 2,
        sessions: 1,
        messages: 2,
        resolved_tickets: 1,
        avg_response_time: 60,
        customer_satisfaction: 5,
      },
      {
        date: D0,
        tickets: 2,
        sessions: 2,
        messages: 3,
        resolved_tickets: 0,
        avg_response_time: 60,
        customer_satisfaction: 0,
      },
    ])
    const unscoped = await get(`/api/statistics/time-range?start_date=${D0}&end_date=${D0}`, h.all)
    t.same(unscoped.body, [
      {
        date: D0,
        tickets: 3,
        sessions: 3,
        messages: 7,
        resolved_tickets: 1,
        avg_response_time: 70,
        customer_satisfaction: 1,
      },
    ])
  })

  t.test('agent performance: tickets of the agent created in range, resolved or closed, most first', async (t) => {
    const { body } = await get(`/api/statistics/agent-performance?start_date=${D2}&end_date=${D0}`, h.acme)
    t.same(body, [
      {
        agent_id: 'u-a1',
        agent_name: 'Ann',
        department: 'Sales',
        total_tickets: 2,
        resolved_tickets: 1,
        avg_response_time: 30,
        avg_resolution_time: 14400,
        rating: 4,
      },
      {
        agent_id: 'u-a2',
        agent_name: 'Bob',
        department: 'Support',
        total_tickets: 2,
        resolved_tickets: 1,
        avg_response_time: 60,
        avg_resolution_time: 3600,
        rating: 3,
      },
      {
        agent_id: 'u-a3',
        agent_name: 'Cid',
        department: 'Support',
        total_tickets: 0,
        resolved_tickets: 0,
        avg_response_time: 90,
        avg_resolution_time: 0,
        rating: 0,
      },
    ])
    const today = await get(`/api/statistics/agent-performance?start_date=${D0}&end_date=${D0}&limit=2`, h.acme)
    t.same(
      today.body.map((r: { agent_id: string; total_tickets: number; resolved_tickets: number }) => [
        r.agent_id,
        r.total_tickets,
        r.resolved_tickets,
      ]),
      [
        ['u-a1', 1, 0],
        ['u-a2', 1, 0],
      ],
    )
    const all = await get(`/api/statistics/agent-performance?start_date=${D2}&end_date=${D0}&limit=10`, h.all)
    t.equal(all.body.length, 4)
    t.match(
      all.body.find((r: { agent_id: string }) => r.agent_id === 'u-aB'),
      { total_tickets: 1, resolved_tickets: 1, avg_resolution_time: 100 },
    )
  })

  t.test('ticket-category, ticket-priority, customer-source: [{key, count}], most first', async (t) => {
    const range = `start_date=${D2}&end_date=${D0}`
    t.same((await get(`/api/statistics/ticket-category?${range}`, h.acme)).body, [
      { key: 'billing', count: 3 },
      { key: 'general', count: 1 },
      { key: 'technical', count: 1 },
    ])
    t.same((await get(`/api/statistics/ticket-priority?${range}`, h.acme)).body, [
      { key: 'high', count: 2 },
      { key: 'normal', count: 2 },
      { key: 'urgent', count: 1 },
    ])
    // no dates: the last 30 days
    t.same((await get('/api/statistics/ticket-priority', h.all)).body, [
      { key: 'high', count: 2 },
      { key: 'normal', count: 2 },
      { key: 'low', count: 1 },
      { key: 'urgent', count: 1 },
    ])
    t.same((await get(`/api/statistics/ticket-category?start_date=${D1}&end_date=${D1}`, h.acme)).body, [
      { key: 'billing', count: 1 },
      { key: 'general', count: 1 },
    ])
    t.same((await get('/api/statistics/customer-source', h.acme)).body, [
      { key: 'web', count: 2 },
      { key: 'app', count: 1 },
    ])
    t.same((await get('/api/statistics/customer-source', h.all)).body, [
      { key: 'web', count: 3 },
      { key: 'app', count: 1 },
    ])
  })

  t.test('tz=: days and "today" in a zone (Asia/Kolkata, UTC+05:30, no daylight saving)', async (t) => {
    // the one record of acme that changes day there: the message of D1 23:59:59 UTC is D0 05:29:59 in Kolkata
    const { body } = await get(`/api/statistics/time-range?start_date=${D2}&end_date=${D0}&tz=Asia/Kolkata`, h.acme)
    t.same(
      body.map(
        (d: {
          date: string
          tickets: number
          sessions: number
          messages: number
          resolved_tickets: number
          customer_satisfaction: number
        }) => [d.date, d.tickets, d.sessions, d.messages, d.resolved_tickets, d.customer_satisfaction],
      ),
      [
        [D2, 1, 0, 0, 1, 3],
        [D1, 2, 1, 1, 1, 5],
        [D0, 2, 2, 4, 0, 0],
      ],
    )
    // "today" there is D0 until 18:30 UTC, then the day after, which has no records yet
    const localToday = new Date(Date.now() + 5.5 * 3_600_000).toISOString().slice(0, 10)
    const dash = (await get('/api/statistics/dashboard?tz=Asia/Kolkata', h.acme)).body
    const isD0 = localToday === D0
    t.match(dash, {
      today_tickets: isD0 ? 2 : 0,
      today_sessions: isD0 ? 2 : 0,
      today_messages: isD0 ? 4 : 0,
      total_tickets: 5,
    })
    const bad = await get('/api/statistics/dashboard?tz=Mars/Olympus', h.acme)
    t.equal(bad.status, 400)
    t.match(bad.body, { code: 'VALIDATION_FAILED', message: /^querystring\.tz: Mars\/Olympus/ })
    t.equal((await get('/api/statistics/customer-source?tz=Nowhere/Else', h.acme)).status, 400)
    t.same(
      (await get(`/api/statistics/ticket-category?start_date=${D1}&end_date=${D1}&tz=Asia/Kolkata`, h.acme)).body,
      [
        { key: 'billing', count: 1 },
        { key: 'general', count: 1 },
      ],
    )
  })

  t.test('dates: 400 naming the parameter; end before start; at most 366 days', async (t) => {
    const bad = async (query: string, path = 'time-range') => {
      const res = await get(`/api/statistics/${path}?${query}`, h.acme)
      t.equal(res.status, 400, query)
      return res.body as { code: string; message: string }
    }
    t.match(await bad(`end_date=${D0}`), { code: 'VALIDATION_FAILED', message: /start_date/ })
    t.match(await bad(`start_date=${D0}`), { code: 'VALIDATION_FAILED', message: /end_date/ })
    t.match(await bad(`start_date=2026-13-01&end_date=${D0}`), { message: /^querystring\.start_date: / })
    t.match(await bad(`start_date=2026-02-01&end_date=2026-02-30`), {
      message: /^querystring\.end_date: .*calendar day/,
    })
    t.match(await bad(`start_date=${D0}&end_date=${D2}`), { code: 'STATISTICS_INVALID_RANGE', message: /end_date/ })
    t.match(await bad('start_date=2025-01-01&end_date=2026-01-02'), { code: 'STATISTICS_INVALID_RANGE' })
    t.equal(
      (await get('/api/statistics/time-range?start_date=2025-01-01&end_date=2026-01-01', h.acme)).body.length,
      366,
    )
    t.match(await bad(`start_date=${D0}`, 'ticket-category'), { message: /^querystring\.end_date: / })
    t.match(await bad(`start_date=${D0}&end_date=${D0}&limit=0`, 'agent-performance'), { code: 'VALIDATION_FAILED' })
  })

  t.test('DailyStats: moved by the events, on the day of each record; update-daily recomputes it', async (t) => {
    const counters = async (date: string) => {
      const row = await findDaily(svc.db, date)
      return (
        row && {
          total_sessions: row.total_sessions,
          total_messages: row.total_messages,
          total_tickets: row.total_tickets,
          resolved_tickets: row.resolved_tickets,
          sla_violations: row.sla_violations,
          ai_usage_count: row.ai_usage_count,
        }
      )
    }
    const expected = {
      [D0]: {
        total_sessions: 3,
        total_messages: 7,
        total_tickets: 3,
        resolved_tickets: 1,
        sla_violations: 1,
        ai_usage_count: 0,
      },
      [D1]: {
        total_sessions: 1,
        total_messages: 2,
        total_tickets: 2,
        resolved_tickets: 1,
        sla_violations: 1,
        ai_usage_count: 0,
      },
      [D2]: {
        total_sessions: 0,
        total_messages: 0,
        total_tickets: 1,
        resolved_tickets: 1,
        sla_violations: 0,
        ai_usage_count: 0,
      },
    }
    for (const [day, values] of Object.entries(expected)) t.same(await counters(day), values, `events moved ${day}`)

    // a recompute from the read models gives the same, and repairs a row that drifted
    await svc.db
      .updateTable('daily_stats')
      .set({ total_messages: 99, total_tickets: 0 })
      .where('date', '=', D1)
      .execute()
    const res = await app.inject({ method: 'POST', url: `/api/statistics/update-daily?date=${D1}`, headers: h.all })
    t.equal(res.statusCode, 200, res.body)
    t.match(res.json(), { message: 'Daily statistics updated successfully', date: D1, stats: expected[D1] })
    t.same(await counters(D1), expected[D1])

    const scoped = await app.inject({ method: 'POST', url: `/api/statistics/update-daily?date=${D1}`, headers: h.acme })
    t.equal(scoped.statusCode, 403, 'DailyStats is system level: not a tenant’s to rewrite')
    const bad = await app.inject({ method: 'POST', url: '/api/statistics/update-daily?date=yesterday', headers: h.all })
    t.equal(bad.statusCode, 400)
    t.match(bad.json(), { message: /^querystring\.date: / })
    const today = await app.inject({ method: 'POST', url: '/api/statistics/update-daily', headers: h.all })
    t.match(today.json(), { date: D0, stats: expected[D0] })
  })

  t.test('the scope of the request bounds every endpoint: another tenant sees none of acme', async (t) => {
    const other = await as(supervisor({ tenant_id: 'initech', workspace_id: 'x', user_id: 'sup-i' }))
    t.match((await get('/api/statistics/dashboard', other)).body, {
      total_customers: 0,
      total_tickets: 0,
      today_messages: 0,
    })
    t.same((await get('/api/statistics/customer-source', other)).body, [])
    t.same((await get(`/api/statistics/agent-performance?start_date=${D0}&end_date=${D0}`, other)).body, [])
    t.equal(ACME.tenant_id, 'acme')
  })
})
