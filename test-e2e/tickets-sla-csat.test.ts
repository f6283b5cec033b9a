// SLA, satisfaction (with the public survey page) and macros, end to end through the gateway in both run modes:
// the SLA monitor finding a breach while nobody calls anything, the public CSAT flow with its 409 and 410, macros
// applied to a ticket and for a session, and every new route answering another tenant's ids as missing.
import { randomUUID } from 'node:crypto'
import { mintServiceToken } from '@switchboard/cli'
import { login } from './harness/auth.ts'
import { type CallOptions, client, type Reply, until } from './harness/http.ts'
import { isError, likeMissing } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'
import type { System } from './harness/system.ts'

// The monitor looks every 200 ms; configs count in minutes, so a test moves a ticket's creation back instead.
const env = { SLA_MONITOR_INTERVAL_MS: '200' }

async function setBack(system: System, ticketId: string, minutes: number) {
  const db = await system.serviceDatabase('tickets')
  try {
    const at = new Date(Date.now() - minutes * 60_000).toISOString()
    await db.db.updateTable('tickets').set({ created_at: at }).where('id', '=', ticketId).execute()
  } finally {
    await db.close()
  }
}

async function expireSurvey(system: System, surveyId: string) {
  const db = await system.serviceDatabase('tickets')
  try {
    const past = new Date(Date.now() - 1000).toISOString()
    await db.db.updateTable('satisfaction_surveys').set({ expires_at: past }).where('id', '=', surveyId).execute()
  } finally {
    await db.close()
  }
}

inEachMode('tickets: SLA, satisfaction, macros', { env }, async (t, system) => {
  const api = client(system.url)
  const suffix = randomUUID().slice(0, 6)
  const demo = { 'x-tenant-id': system.tenant_id, 'x-workspace-id': system.workspace_id }
  const admin = await login(api, system.admin.username, system.admin.password)
  const agent = await login(api, system.agent.username, system.agent.password)
  const asAdmin: CallOptions = { token: admin.token, headers: demo }
  const asAgent: CallOptions = { token: agent.token }
  const del = (path: string, opts: CallOptions) => api.call('DELETE', path, opts)
  const must = (r: Reply, status: number, what: string) => {
    if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`)
    return r.body
  }

  // Tenant B, reached by an unscoped service token naming it.
  const { token: service } = await mintServiceToken({ service: 'e2e-sla', permissions: ['*'], env: system.env })
  const tenantB = `slab${suffix}`
  must(
    await api.post('/api/security/tenants', { id: tenantB, workspaces: [{ id: 'support' }] }, { token: service }),
    201,
    'tenant B',
  )
  const asB: CallOptions = { token: service, headers: { 'x-tenant-id': tenantB, 'x-workspace-id': 'support' } }

  const customer = (name: string, opts: CallOptions, priority = 'normal') =>
    api
      .post('/api/customers', { name, email: `${name}_${suffix}@e2e.example.com`, priority }, opts)
      .then((r) => must(r, 201, `customer ${name}`))
  const custA = await customer('slavip', asAdmin, 'urgent')
  const custB = await customer('slab', asB)
  // a ticket names a customer tickets has heard of from identity: retried until the event has arrived
  const ticket = (body: Record<string, unknown>, opts: CallOptions) =>
    until('ticket created', async () => {
      const r = await api.post('/api/tickets', { title: 'Printer on fire', ...body }, opts)
      return r.status === 201 ? r.body : undefined
    })
  const agents = must(await api.get('/api/agents?page_size=200', asAdmin), 200, 'agents').data
  const agentName = agents.find((a: { user_id: string }) => a.user_id === agent.user.id).name as string

  t.test('a ticket past its SLA gets its violations while nobody calls anything', async (t) => {
    const config = must(
      await api.post(
        '/api/sla/configs',
        {
          name: `VIP urgent ${suffix}`,
          priority: 'urgent',
          customer_tier: 'urgent',
          first_response_time: 1,
          resolution_time: 3,
          escalation_time: 2,
        },
        asAdmin,
      ),
      201,
      'config',
    )
    // the tier comes from identity's customer event: wait until the config is the one that applies
    const tk = await ticket({ customer_id: custA.id, priority: 'urgent' }, asAdmin)
    t.equal(tk.customer_id, custA.user_id)
    await setBack(system, tk.id, 5)
    // Only reads from here on: the monitor records the breaches on its own schedule.
    const violations = await until('the monitor records both breaches', async () => {
      const r = await api.get(`/api/sla/violations?ticket_id=${tk.id}`, asAdmin)
      return r.body.total === 2 ? r.body.data : undefined
    })
    t.same(violations.map((v: { violation_type: string }) => v.violation_type).sort(), ['first_response', 'resolution'])
    t.match(violations[0], { sla_config_id: config.id, customer_tier: 'urgent', priority: 'urgent', resolved: false })

    must(await api.post(`/api/tickets/${tk.id}/comments`, { content: 'Looking into it' }, asAgent), 201, 'comment')
    const after = must(
      await api.get(`/api/sla/violations?ticket_id=${tk.id}&violation_type=first_response`, asAdmin),
      200,
      'list',
    )
    t.equal(after.data[0].resolved, true, 'the first agent comment resolves the first-response breach')
    const check = await api.post(`/api/sla/check/ticket/${tk.id}`, undefined, asAdmin)
    t.equal(check.status, 200)
    t.match(check.body, { ticket_id: tk.id, ticket: { id: tk.id }, sla_config: { id: config.id } })
    const stats = must(await api.get('/api/sla/stats', asAdmin), 200, 'stats')
    t.ok(stats.total_violations >= 2 && stats.compliance_rate < 100, `stats ${JSON.stringify(stats).slice(0, 200)}`)
    must(await api.post(`/api/tickets/${tk.id}/close`, {}, asAgent), 200, 'close')
    const closed = must(await api.get(`/api/sla/violations?ticket_id=${tk.id}&resolved=false`, asAdmin), 200, 'list')
    t.equal(closed.total, 0, 'closing resolves what was open')

    // statistics counts the scope's breaches per day of their violation (the reports' SLA chart): these two
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
    const perDay = await until("statistics' SLA violations per day", async () => {
      const r = await api.get(`/api/statistics/sla-violations?start_date=${day(-1)}&end_date=${day(0)}`, asAdmin)
      const sum =
        r.status === 200 ? r.body.reduce((n: number, d: { sla_violations: number }) => n + d.sla_violations, 0) : 0
      return sum === 2 ? r.body : undefined
    })
    t.same(
      perDay.map((d: { date: string }) => d.date),
      [day(-1), day(0)],
      'one row per day of the range',
    )
    const asB2 = await api.get(`/api/statistics/sla-violations?start_date=${day(-1)}&end_date=${day(0)}`, asB)
    t.same(
      asB2.body.map((d: { sla_violations: number }) => d.sla_violations),
      [0, 0],
      "another tenant counts none of A's",
    )
  })

  t.test('survey settings: off, a close sends no survey; back on, its link lasts the days set', async (t) => {
    must(await api.put('/api/tickets/settings', { survey_enabled: false }, asAdmin), 200, 'surveys off')
    const quiet = await ticket({ customer_id: custA.id, source: 'chat', title: `No survey ${suffix}` }, asAgent)
    must(await api.post(`/api/tickets/${quiet.id}/close`, { reason: 'answered' }, asAgent), 200, 'close')
    const none = must(await api.get(`/api/satisfactions/surveys?ticket_id=${quiet.id}`, asAgent), 200, 'surveys')
    t.equal(none.total, 0, 'no survey while they are off')
    const on = must(
      await api.put('/api/tickets/settings', { survey_enabled: true, survey_expiry_days: 3 }, asAdmin),
      200,
      'on',
    )
    t.match(on, { survey_enabled: true, survey_expiry_days: 3 })
    const asked = await ticket({ customer_id: custA.id, source: 'chat', title: `Three days ${suffix}` }, asAgent)
    const before = Date.now()
    must(await api.post(`/api/tickets/${asked.id}/close`, { reason: 'answered' }, asAgent), 200, 'close')
    const survey = must(await api.get(`/api/satisfactions/surveys?ticket_id=${asked.id}`, asAgent), 200, 's').data[0]
    const lasts = Date.parse(survey.expires_at) - before
    t.ok(Math.abs(lasts - 3 * 86_400_000) < 120_000, `the link lasts 3 days (${Math.round(lasts / 3_600_000)} h)`)
    must(await api.put('/api/tickets/settings', { survey_expiry_days: 7 }, asAdmin), 200, 'back to 7 days')
  })

  t.test('business hours of the scope', async (t) => {
    const put = await api.put(
      '/api/sla/business-hours',
      { time_zone: 'Europe/Berlin', weekly: { mon: [['09:00', '17:00']], fri: [['09:00', '13:00']] } },
      asAdmin,
    )
    t.equal(put.status, 200, put.text)
    t.match((await api.get('/api/sla/business-hours', asAdmin)).body, { time_zone: 'Europe/Berlin', is_default: false })
    isError(t, await api.put('/api/sla/business-hours', { time_zone: 'Nowhere/City', weekly: {} }, asAdmin), 400)
  })

  t.test('public CSAT: closing sends a survey; its page, one answer (409 after), an expired one (410)', async (t) => {
    const tk = await ticket({ customer_id: custA.id, source: 'chat', title: `Billing question ${suffix}` }, asAgent)
    must(await api.post(`/api/tickets/${tk.id}/assign`, { agent_id: agent.user.id }, asAgent), 200, 'assign')
    must(await api.post(`/api/tickets/${tk.id}/close`, { reason: 'answered' }, asAgent), 200, 'close')
    const survey = must(await api.get(`/api/satisfactions/surveys?ticket_id=${tk.id}`, asAgent), 200, 'surveys').data[0]
    t.match(survey, { channel: 'chat', status: 'sent', agent_name: agentName })
    // the close sent the link to the customer's channel; staff get a fresh one with a resend
    const resent = must(
      await api.post(`/api/satisfactions/surveys/${survey.id}/resend`, undefined, asAgent),
      200,
      'resend',
    )
    t.match(resent.link, /^\/csat\/[A-Za-z0-9_-]{43}$/, 'the link is the survey page')
    const link = `/public${resent.link}` // its JSON twin

    const page = await api.get(link)
    t.equal(page.status, 200, page.text)
    t.same(page.body, {
      ticket_title: `Billing question ${suffix}`,
      agent_name: agentName,
      status: 'sent',
      expires_at: resent.expires_at,
      completed_at: null,
    })
    isError(t, await api.post(`${link}/respond`, { rating: 9 }), 400, 'VALIDATION_FAILED')
    isError(t, await api.post(`${link}/respond`, { comment: 'no rating' }), 400, 'VALIDATION_FAILED')
    isError(t, await api.post(`/public/csat/${'A'.repeat(43)}/respond`, { rating: 5 }), 404, 'TICKETS_SURVEY_NOT_FOUND')
    isError(t, await api.get(`/public/csat/${'A'.repeat(43)}`), 404, 'TICKETS_SURVEY_NOT_FOUND')
    const answer = await api.post(`${link}/respond`, { rating: 5, comment: 'Quick and kind' })
    t.equal(answer.status, 200, answer.text)
    t.match(answer.body, { message: String, data: { rating: 5, comment: 'Quick and kind' } })
    isError(t, await api.post(`${link}/respond`, { rating: 1 }), 409, 'TICKETS_SURVEY_COMPLETED')
    const rating = must(await api.get(`/api/satisfactions?ticket_id=${tk.id}`, asAgent), 200, 'ratings').data[0]
    t.match(rating, { rating: 5, source: 'survey', agent_id: agent.user.id, customer_id: custA.user_id })
    const stats = must(await api.get('/api/satisfactions/stats', asAgent), 200, 'stats')
    t.ok(stats.total_ratings >= 1)
    // identity keeps the agent's rating from tickets' rating events (the only rating of this agent here)
    const record = agents.find((a: { user_id: string }) => a.user_id === agent.user.id)
    const rated = await until('the agent rating moved', async () => {
      const a = must(await api.get(`/api/agents/${record.id}`, asAdmin), 200, 'agent')
      return a.rating > 0 ? a : undefined
    })
    t.equal(rated.rating, 5, "the agent's rating is the survey's")

    const late = await ticket({ customer_id: custA.id }, asAgent)
    must(await api.post(`/api/tickets/${late.id}/close`, {}, asAgent), 200, 'close')
    const lateSurvey = must(await api.get(`/api/satisfactions/surveys?ticket_id=${late.id}`, asAgent), 200, 's').data[0]
    t.equal(lateSurvey.channel, 'email', 'a web ticket is surveyed by email')
    const lateLink = must(
      await api.post(`/api/satisfactions/surveys/${lateSurvey.id}/resend`, undefined, asAgent),
      200,
      'r',
    ).link as string
    await expireSurvey(system, lateSurvey.id)
    isError(t, await api.post(`/public${lateLink}/respond`, { rating: 3 }), 410, 'TICKETS_SURVEY_EXPIRED')
    const expired = must(await api.get(`/api/satisfactions/surveys?ticket_id=${late.id}`, asAgent), 200, 's').data[0]
    t.equal(expired.status, 'expired')
  })

  t.test('macros: applied to a ticket as a system comment, for a session as text; inactive 400', async (t) => {
    const macro = must(
      await api.post(
        '/api/macros',
        { name: `Greeting ${suffix}`, content: 'Hi {{customer.name}}, re {{ticket.id}}. {{agent.name}} {{unknown.x}}' },
        asAdmin,
      ),
      201,
      'macro',
    )
    const tk = await ticket({ customer_id: custA.id }, asAdmin)
    const applied = await api.post(`/api/macros/${macro.id}/apply`, { ticket_id: tk.id }, asAdmin)
    t.equal(applied.status, 201, applied.text)
    t.match(applied.body.content, new RegExp(`^Hi slavip, re ${tk.id}\\. .* \\{\\{unknown\\.x\\}\\}$`))
    const thread = must(await api.get(`/api/tickets/${tk.id}/comments`, asAgent), 200, 'comments')
    t.match(thread.data.at(-1), { type: 'system', content: applied.body.content })
    const forSession = await api.post(`/api/macros/${macro.id}/apply`, { session_id: randomUUID() }, asAdmin)
    t.equal(forSession.status, 200)
    t.match(forSession.body.content, /^Hi , re \. /)
    isError(
      t,
      await api.post(`/api/macros/${macro.id}/apply`, { ticket_id: randomUUID() }, asAdmin),
      404,
      'TICKETS_NOT_FOUND',
    )
    must(await api.put(`/api/macros/${macro.id}`, { active: false }, asAdmin), 200, 'deactivate')
    isError(
      t,
      await api.post(`/api/macros/${macro.id}/apply`, { ticket_id: tk.id }, asAdmin),
      400,
      'TICKETS_MACRO_INACTIVE',
    )
  })

  t.test("another tenant's ids are answered as missing on every new route", async (t) => {
    // B's records: a config, a breach, a rated ticket, a surveyed ticket, a macro
    const configB = must(
      await api.post(
        '/api/sla/configs',
        { name: 'B', priority: 'normal', first_response_time: 1, resolution_time: 3, escalation_time: 2 },
        asB,
      ),
      201,
      'config B',
    )
    const ticketB = await ticket({ customer_id: custB.id }, asB)
    await setBack(system, ticketB.id, 5)
    const violationB = await until('B violation', async () => {
      const r = await api.get(`/api/sla/violations?ticket_id=${ticketB.id}`, asB)
      return r.body.total > 0 ? r.body.data[0] : undefined
    })
    const ratingB = must(
      await api.post('/api/satisfactions', { ticket_id: ticketB.id, rating: 4 }, asB),
      201,
      'rating B',
    )
    const closedB = await ticket({ customer_id: custB.id }, asB)
    must(await api.post(`/api/tickets/${closedB.id}/close`, {}, asB), 200, 'close B')
    const surveyB = must(await api.get(`/api/satisfactions/surveys?ticket_id=${closedB.id}`, asB), 200, 's').data[0]
    const macroB = must(await api.post('/api/macros', { name: 'B macro', content: 'x' }, asB), 201, 'macro B')
    const macroA = must(
      await api.post('/api/macros', { name: `A macro ${suffix}`, content: 'x' }, asAdmin),
      201,
      'macro A',
    )

    const missing = randomUUID()
    const pairs: Array<[string, (id: string) => Promise<Reply>, string]> = [
      ['GET sla config', (id) => api.get(`/api/sla/configs/${id}`, asAdmin), configB.id],
      ['PUT sla config', (id) => api.put(`/api/sla/configs/${id}`, { active: false }, asAdmin), configB.id],
      ['DELETE sla config', (id) => del(`/api/sla/configs/${id}`, asAdmin), configB.id],
      ['resolve violation', (id) => api.post(`/api/sla/violations/${id}/resolve`, undefined, asAdmin), violationB.id],
      ['check ticket', (id) => api.post(`/api/sla/check/ticket/${id}`, undefined, asAdmin), ticketB.id],
      ['rate ticket', (id) => api.post('/api/satisfactions', { ticket_id: id, rating: 1 }, asAdmin), closedB.id],
      ['GET rating', (id) => api.get(`/api/satisfactions/${id}`, asAdmin), ratingB.id],
      ['PUT rating', (id) => api.put(`/api/satisfactions/${id}`, { rating: 1 }, asAdmin), ratingB.id],
      ['DELETE rating', (id) => del(`/api/satisfactions/${id}`, asAdmin), ratingB.id],
      ['resend survey', (id) => api.post(`/api/satisfactions/surveys/${id}/resend`, undefined, asAdmin), surveyB.id],
      ['GET macro', (id) => api.get(`/api/macros/${id}`, asAdmin), macroB.id],
      ['PUT macro', (id) => api.put(`/api/macros/${id}`, { active: false }, asAdmin), macroB.id],
      ['DELETE macro', (id) => del(`/api/macros/${id}`, asAdmin), macroB.id],
      ['apply macro', (id) => api.post(`/api/macros/${id}/apply`, { ticket_id: ticketB.id }, asAdmin), macroB.id],
      ['apply to ticket', (id) => api.post(`/api/macros/${macroA.id}/apply`, { ticket_id: id }, asAdmin), ticketB.id],
    ]
    for (const [label, call, foreignId] of pairs)
      await likeMissing(
        t,
        label,
        () => call(foreignId),
        () => call(missing),
      )
    // the agent of A (scoped) and the admin naming A see none of B's records in lists
    for (const [path, opts] of [
      [`/api/sla/violations?ticket_id=${ticketB.id}`, asAdmin],
      [`/api/satisfactions?ticket_id=${ticketB.id}`, asAgent],
      [`/api/satisfactions/surveys?ticket_id=${closedB.id}`, asAgent],
    ] as const) {
      t.equal(must(await api.get(path, opts), 200, path).total, 0, `${path}: nothing of B`)
    }
    const configs = must(await api.get('/api/sla/configs?page_size=200', asAdmin), 200, 'configs').data
    t.notOk(
      configs.some((c: { id: string }) => c.id === configB.id),
      'configs: nothing of B',
    )
    // B's own records still answer B
    t.equal((await api.get(`/api/sla/configs/${configB.id}`, asB)).status, 200)
    t.equal((await api.get(`/api/satisfactions/${ratingB.id}`, asB)).status, 200)
  })
})
