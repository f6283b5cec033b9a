import { systemCaller } from '@switchboard/platform'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { markOpenTickets } from '../../src/db/sla-monitor.repository.ts'
import { SLA_MONITOR_WORKER } from '../../src/workers/sla-monitor.worker.ts'
import { as, principal } from '../helpers/app.ts'
import { streamEvents } from '../helpers/bus.ts'
import { makeSessionsKnown } from '../helpers/directory.ts'
import { ACME, backdate, knownAgent, knownCustomer, slaApp } from '../helpers/sla.ts'

const MINUTE = 60_000

inEachStorageMode(t, 'SLA monitor', async (t, mode) => {
  const { svc, call } = await slaApp(t, mode)
  await knownCustomer(svc, ACME, { user_id: 'cust-std', name: 'Ann Standard' })
  await knownCustomer(svc, ACME, { user_id: 'cust-vip', name: 'Vic Vip', priority: 'urgent' })
  await knownAgent(svc, ACME, { user_id: 'agent-1', name: 'Agnes Agent' })
  const pass = (at = new Date()) => svc.workers.runOnce(SLA_MONITOR_WORKER, at)
  const ticket = async (body: Record<string, unknown>) => {
    const res = await call('POST', '/api/tickets', { title: 'Help', customer_id: 'cust-std', ...body })
    if (res.statusCode !== 201) throw new Error(`ticket not created: ${res.statusCode} ${res.body}`)
    return res.json()
  }
  const violations = async (ticketId: string) =>
    (await call('GET', `/api/sla/violations?ticket_id=${ticketId}&page_size=50`)).json().data as Array<
      Record<string, unknown>
    >
  const violatedEvents = async (ticketId: string) =>
    (await streamEvents(svc.bus, 'TICKETS')).filter(
      (e) => e.subject === 'tickets.sla.violated' && (e.envelope.data as { ticket_id: string }).ticket_id === ticketId,
    )

  const std = (
    await call('POST', '/api/sla/configs', {
      name: 'Urgent',
      priority: 'urgent',
      first_response_time: 10,
      resolution_time: 60,
      escalation_time: 30,
    })
  ).json()
  const vip = (
    await call('POST', '/api/sla/configs', {
      name: 'Urgent VIP',
      priority: 'urgent',
      customer_tier: 'urgent',
      first_response_time: 5,
      resolution_time: 30,
      escalation_time: 15,
    })
  ).json()

  t.test('a breach is recorded once as time passes, announced, and resolved by the answer', async (t) => {
    const tk = await ticket({ priority: 'urgent' })
    t.equal(await pass(), 0, 'nothing is due yet')
    t.same(await violations(tk.id), [])

    // eleven minutes later: past the first response (10), not the resolution (60)
    await pass(new Date(Date.now() + 11 * MINUTE))
    const [first] = await violations(tk.id)
    t.match(first, {
      ticket_id: tk.id,
      sla_config_id: std.id,
      violation_type: 'first_response',
      priority: 'urgent',
      customer_tier: 'normal',
      resolved: false,
      resolved_at: null,
    })
    t.equal(
      new Date(first!.deadline as string).getTime(),
      new Date(tk.created_at).getTime() + 10 * MINUTE,
      'deadline = created + 10 min',
    )
    await pass(new Date(Date.now() + 12 * MINUTE))
    t.equal((await violations(tk.id)).length, 1, 'a second pass records nothing again')
    const events = await waitFor(async () => {
      const found = await violatedEvents(tk.id)
      return found.length > 0 ? found : undefined
    })
    t.equal(events.length, 1, 'announced once')
    t.match(events[0]!.envelope, {
      tenant_id: 'acme',
      workspace_id: 'support',
      data: { violation_id: first!.id, violation_type: 'first_response', resolved: false },
    })

    const internal = await call('POST', `/api/tickets/${tk.id}/comments`, { content: 'note', type: 'internal_note' })
    t.equal(internal.statusCode, 201)
    t.equal((await violations(tk.id))[0]!.resolved, false, 'an internal note is no answer')
    await call('POST', `/api/tickets/${tk.id}/comments`, { content: 'On it' })
    const [answered] = await violations(tk.id)
    t.equal(answered!.resolved, true, 'the first agent comment resolves it')

    await pass(new Date(Date.now() + 61 * MINUTE))
    const both = await violations(tk.id)
    t.same(both.map((v) => [v.violation_type, v.resolved]).sort(), [
      ['first_response', true],
      ['resolution', false],
    ])
    const closed = await call('POST', `/api/tickets/${tk.id}/close`, {})
    t.equal(closed.statusCode, 200)
    t.ok(
      (await violations(tk.id)).every((v) => v.resolved === true),
      'closing resolves every open violation',
    )
    await pass(new Date(Date.now() + 200 * MINUTE))
    t.equal((await violations(tk.id)).length, 2, 'a closed ticket breaches nothing more')
    // a pass that saw the ticket open just before the close: its marks (and so its violations) skip it
    const marked = await svc.transaction(systemCaller(), (tx) =>
      markOpenTickets(tx.db, svc.dialect, [
        { ticket_id: tk.id, config_id: 'another', first_response: true, resolution: true },
      ]),
    )
    t.same(marked, [], 'a closed ticket is not marked, so nothing is recorded for it')
  })

  t.test("the customer's tier picks the config; unmatched priorities have none", async (t) => {
    const tk = await ticket({ priority: 'urgent', customer_id: 'cust-vip' })
    const low = await ticket({ priority: 'low' })
    await pass(new Date(Date.now() + 6 * MINUTE))
    const [v] = await violations(tk.id)
    t.match(v, { sla_config_id: vip.id, violation_type: 'first_response', customer_tier: 'urgent' })
    t.same(await violations(low.id), [], 'no config for low')
    const check = await call('POST', `/api/sla/check/ticket/${low.id}`)
    t.equal(check.statusCode, 204)
  })

  t.test('a late answer between two passes is recorded, already resolved', async (t) => {
    const tk = await ticket({ priority: 'urgent' })
    await backdate(svc, tk.id, 15)
    const res = await call('POST', `/api/tickets/${tk.id}/comments`, { content: 'Sorry for the wait' })
    t.equal(res.statusCode, 201)
    const [v] = await violations(tk.id)
    t.match(v, { violation_type: 'first_response', resolved: true, resolved_at: res.json().created_at })
    await waitFor(async () => (await violatedEvents(tk.id)).length === 1)
    t.match((await violatedEvents(tk.id))[0]!.envelope.data, { resolved: true })
    const quick = await ticket({ priority: 'urgent' })
    await call('POST', `/api/tickets/${quick.id}/comments`, { content: 'Right away' })
    t.same(await violations(quick.id), [], 'an answer in time records nothing')
    await pass(new Date(Date.now() + 30 * MINUTE))
    t.same(
      (await violations(quick.id)).map((v) => v.violation_type),
      [],
      'answered in time: no first-response breach later either (resolution still 60 min away)',
    )
  })

  t.test('check: records what the ticket breached now, answers it with the ticket and config', async (t) => {
    const tk = await ticket({ priority: 'urgent' })
    t.equal((await call('POST', `/api/sla/check/ticket/${tk.id}`)).statusCode, 204, 'nothing breached yet')
    await backdate(svc, tk.id, 70)
    const res = await call('POST', `/api/sla/check/ticket/${tk.id}`)
    t.equal(res.statusCode, 200)
    t.match(res.json(), {
      ticket_id: tk.id,
      violation_type: 'first_response',
      ticket: { id: tk.id, priority: 'urgent' },
      sla_config: { id: std.id },
    })
    t.same((await violations(tk.id)).map((v) => v.violation_type).sort(), ['first_response', 'resolution'])
    await pass()
    t.equal((await violations(tk.id)).length, 2, 'the monitor does not record them again')
    const other = await as(principal({ user_id: 'agent-9', tenant_id: 'globex', permissions: ['sla.*'] }))
    t.equal((await call('POST', `/api/sla/check/ticket/${tk.id}`, undefined, other)).statusCode, 404)
  })

  t.test('violations: filters, resolve once, other tenants see none; stats', async (t) => {
    const list = (await call('GET', '/api/sla/violations?violation_type=resolution&resolved=false')).json()
    t.ok(list.total >= 1)
    t.ok(list.data.every((v: { violation_type: string; resolved: boolean }) => v.violation_type === 'resolution'))
    const target = list.data[0]
    const resolved = await call('POST', `/api/sla/violations/${target.id}/resolve`)
    t.equal(resolved.statusCode, 200)
    t.match(resolved.json(), { id: target.id, resolved: true, resolved_at: String })
    const again = await call('POST', `/api/sla/violations/${target.id}/resolve`)
    t.equal(again.statusCode, 409)
    t.equal(again.json().code, 'TICKETS_SLA_VIOLATION_RESOLVED')
    const other = await as(principal({ user_id: 'agent-9', tenant_id: 'globex', permissions: ['sla.*'] }))
    t.equal((await call('POST', `/api/sla/violations/${target.id}/resolve`, undefined, other)).statusCode, 404)
    t.equal((await call('GET', '/api/sla/violations', undefined, other)).json().total, 0)
    const today = new Date().toISOString().slice(0, 10)
    t.ok((await call('GET', `/api/sla/violations?date_from=${today}&date_to=${today}`)).json().total >= 1)
    t.equal((await call('GET', '/api/sla/violations?date_from=2026-02-30')).statusCode, 400)
    t.equal((await call('GET', '/api/sla/violations?date_from=2026-03-02&date_to=2026-03-01')).statusCode, 400)

    const stats = (await call('GET', '/api/sla/stats')).json()
    t.match(stats, {
      total_configs: 2,
      active_configs: 2,
      violations_by_type: { first_response: Number, resolution: Number },
      violations_by_priority: { urgent: Number },
      violations_by_tier: { normal: Number, urgent: Number },
    })
    t.ok(stats.total_violations >= 5)
    t.ok(stats.compliance_rate < 100 && stats.compliance_rate > 0, `compliance ${stats.compliance_rate}`)
    t.equal(stats.trend_data.length, 7)
    t.equal(stats.trend_data[6].date, today)
    t.ok(stats.trend_data[6].total_tickets >= 6)
    const empty = (await call('GET', '/api/sla/stats', undefined, other)).json()
    t.match(empty, { total_violations: 0, compliance_rate: 100 })
  })

  t.test('two passes at once (two replicas racing) record each breach once', async (t) => {
    const many = await Promise.all(Array.from({ length: 12 }, () => ticket({ priority: 'urgent' })))
    const at = new Date(Date.now() + 11 * MINUTE)
    await Promise.all([pass(at), pass(at), pass(at)])
    for (const tk of many) t.equal((await violations(tk.id)).length, 1, 'one first-response violation')
  })

  t.test('a conversation reply by an agent is the first response of the ticket the session continues', async (t) => {
    const { newEnvelope } = await import('@switchboard/events')
    await makeSessionsKnown(svc, ACME, ['sess-direct'], 'cust-std')
    const tk = await ticket({ priority: 'urgent', session_id: 'sess-direct' })
    const linked = await ticket({ priority: 'urgent' })
    await backdate(svc, tk.id, 20)
    await backdate(svc, linked.id, 20)
    const publish = (type: string, data: object) =>
      svc.bus.publish(type, newEnvelope({ type, ...ACME, actor: { user_id: 'conv', kind: 'service' }, data }))
    const session = (id: string, ticketId: string | null) => ({
      session_id: id,
      status: 'active',
      channel: 'web',
      subject: '',
      customer_id: 'cust-std',
      visitor_id: null,
      agent_id: 'agent-1',
      ticket_id: ticketId,
      started_at: new Date().toISOString(),
      last_message_at: null,
      ended_at: null,
    })
    const message = (sessionId: string, sender: string) => ({
      message_id: `m-${Math.random()}`,
      session_id: sessionId,
      sender,
      sender_id: sender === 'agent' ? 'agent-1' : 'cust-std',
      kind: 'text',
      content: 'hello',
      metadata: {},
      created_at: new Date().toISOString(),
      session_status: 'active',
      agent_id: 'agent-1',
    })
    await publish('conversations.session.linked', session('sess-linked', linked.id))
    await publish('conversations.message.created', message('sess-linked', 'customer'))
    await publish('conversations.message.created', message('sess-direct', 'agent'))
    await publish('conversations.message.created', message('sess-linked', 'agent'))
    for (const id of [tk.id, linked.id]) {
      const [v] = await waitFor(async () => {
        const found = await violations(id)
        return found.length > 0 ? found : undefined
      })
      t.match(v, { violation_type: 'first_response', resolved: true }, 'answered late, in the conversation')
    }
  })

  // last: its passes run days ahead, past every other ticket's deadlines
  t.test('business hours: deadlines count only opening hours of the scope', async (t) => {
    await call('PUT', '/api/sla/business-hours', {
      time_zone: 'Europe/Berlin',
      weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]])),
    })
    const config = (
      await call('POST', '/api/sla/configs', {
        name: 'High, business hours',
        priority: 'high',
        first_response_time: 60,
        resolution_time: 600,
        escalation_time: 120,
        business_hours_only: true,
      })
    ).json()
    const tk = await ticket({ priority: 'high' })
    // Friday 27 Nov 2026, 16:30 in Berlin (15:30Z): half an hour left that day, the other half on Monday
    await svc.db
      .updateTable('tickets')
      .set({ created_at: '2026-11-27T15:30:00.000Z' })
      .where('id', '=', tk.id)
      .execute()
    await pass(new Date('2026-11-30T08:29:00.000Z'))
    t.same(await violations(tk.id), [], 'Monday 09:29 in Berlin: one minute left')
    await pass(new Date('2026-11-30T08:31:00.000Z'))
    const [v] = await violations(tk.id)
    t.match(v, { sla_config_id: config.id, violation_type: 'first_response', deadline: '2026-11-30T08:30:00.000Z' })
    // resolution: 600 business minutes = 30 min Friday + 8 h Monday + 1 h 30 Tuesday → Tuesday 10:30 (09:30Z)
    await pass(new Date('2026-12-01T09:29:00.000Z'))
    t.equal((await violations(tk.id)).length, 1)
    await pass(new Date('2026-12-01T09:31:00.000Z'))
    const all = await violations(tk.id)
    t.match(
      all.find((x) => x.violation_type === 'resolution'),
      { deadline: '2026-12-01T09:30:00.000Z' },
    )
  })
})

inEachStorageMode(t, 'SLA monitor on its own', async (t, mode) => {
  // the worker runs on its schedule: nobody calls anything after the ticket is made
  // small scans and batches: a pass scans more than once and records in several transactions
  const env = {
    SLA_MONITOR_ENABLED: 'true',
    SLA_MONITOR_INTERVAL_MS: '100',
    SLA_MONITOR_SCAN_LIMIT: '3',
    SLA_MONITOR_BATCH_SIZE: '2',
  }
  const first = await slaApp(t, mode, { env })
  // a second replica on the same storage (PostgreSQL only: SQLite's memory database is one process's)
  const second = mode === 'postgres' ? await slaApp(t, mode, { env, store: first.store }) : undefined
  const { svc, call } = first
  await knownCustomer(svc, ACME, { user_id: 'cust-1' })
  await call('POST', '/api/sla/configs', {
    name: 'Normal',
    priority: 'normal',
    first_response_time: 5,
    resolution_time: 30,
    escalation_time: 10,
  })
  const tickets = await Promise.all(
    Array.from({ length: 5 }, async () =>
      (await call('POST', '/api/tickets', { title: 'x', customer_id: 'cust-1' })).json(),
    ),
  )
  for (const tk of tickets) await backdate(svc, tk.id, 40)
  const rows = await waitFor(async () => {
    const found = await svc.db.selectFrom('sla_violations').selectAll().execute()
    return found.length >= 10 ? found : undefined
  })
  t.equal(rows.length, 10, 'first response and resolution of each, recorded by the worker alone')
  // more passes, on both replicas when there are two, add nothing
  if (second) await second.svc.workers.runOnce(SLA_MONITOR_WORKER)
  await new Promise((r) => setTimeout(r, 400))
  t.equal((await svc.db.selectFrom('sla_violations').selectAll().execute()).length, 10, 'each recorded once')
  const announced = await waitFor(async () => {
    const found = (await streamEvents(svc.bus, 'TICKETS')).filter((e) => e.subject === 'tickets.sla.violated')
    return found.length >= 10 ? found : undefined
  })
  t.equal(announced.length, 10, 'each announced once')
})
