import { createHash } from 'node:crypto'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { as } from '../helpers/app.ts'
import { streamEvents } from '../helpers/bus.ts'
import { ACME, GLOBEX, knownAgent, knownCustomer, otherTenantAgent, slaApp } from '../helpers/sla.ts'

inEachStorageMode(t, 'satisfaction and surveys', async (t, mode) => {
  const { app, svc, call } = await slaApp(t, mode)
  const other = await as(otherTenantAgent)
  await knownCustomer(svc, ACME, { user_id: 'cust-1', name: 'Ann' })
  await knownCustomer(svc, ACME, { user_id: 'cust-2', name: 'Ben' })
  await knownCustomer(svc, GLOBEX, { user_id: 'cust-g', name: 'Gus' })
  await knownAgent(svc, ACME, { user_id: 'agent-7', name: 'Agnes Agent' })
  const ticket = async (body: Record<string, unknown> = {}, headers?: Record<string, string>) => {
    const res = await call('POST', '/api/tickets', { title: 'Broken printer', customer_id: 'cust-1', ...body }, headers)
    if (res.statusCode !== 201) throw new Error(`ticket not created: ${res.statusCode} ${res.body}`)
    return res.json()
  }
  const events = async (subject: string, ticketId: string) =>
    (await streamEvents(svc.bus, 'TICKETS')).filter(
      (e) => e.subject === subject && (e.envelope.data as { ticket_id: string }).ticket_id === ticketId,
    )
  const surveyLink = async (ticketId: string) => {
    const [sent] = await waitFor(async () => {
      const found = await events('tickets.survey.sent', ticketId)
      return found.length > 0 ? found.slice(-1) : undefined
    })
    // the link is the survey page (/csat/<token>); these tests speak to its JSON twin
    return `/public${(sent!.envelope.data as { link: string }).link}`
  }
  const pub = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({ method, url, ...(payload ? { payload } : {}) })

  t.test('a rating per ticket, by its customer; announced', async (t) => {
    const tk = await ticket()
    await call('POST', `/api/tickets/${tk.id}/assign`, { agent_id: 'agent-7' })
    const res = await call('POST', '/api/satisfactions', { ticket_id: tk.id, rating: 4, comment: ' Fine ' })
    t.equal(res.statusCode, 201, res.body)
    const rating = res.json()
    t.match(rating, {
      ticket_id: tk.id,
      customer_id: 'cust-1',
      agent_id: 'agent-7',
      rating: 4,
      comment: 'Fine',
      category: 'overall',
      source: 'api',
      tenant_id: 'acme',
    })
    const twice = await call('POST', '/api/satisfactions', { ticket_id: tk.id, rating: 5 })
    t.equal(twice.statusCode, 409)
    t.equal(twice.json().code, 'TICKETS_SATISFACTION_EXISTS')
    const notOwner = await call('POST', '/api/satisfactions', {
      ticket_id: (await ticket()).id,
      customer_id: 'cust-2',
      rating: 3,
    })
    t.equal(notOwner.statusCode, 403)
    t.equal(notOwner.json().code, 'TICKETS_SATISFACTION_NOT_OWNER')
    for (const [body, status] of [
      [{ ticket_id: tk.id, rating: 6 }, 400],
      [{ ticket_id: tk.id, rating: 0 }, 400],
      [{ ticket_id: tk.id, rating: 3.5 }, 400],
      [{ ticket_id: tk.id }, 400],
      [{ ticket_id: 'nope', rating: 3 }, 404],
    ] as const) {
      t.equal((await call('POST', '/api/satisfactions', body)).statusCode, status, JSON.stringify(body))
    }
    const foreign = await call('POST', '/api/satisfactions', { ticket_id: tk.id, rating: 1 }, other)
    t.equal(foreign.statusCode, 404, "another tenant's ticket is not found")
    t.equal(foreign.json().code, 'TICKETS_NOT_FOUND')
    const [rated] = await waitFor(async () => {
      const found = await events('tickets.satisfaction.rated', tk.id)
      return found.length ? found : undefined
    })
    t.match(rated!.envelope, {
      tenant_id: 'acme',
      data: { satisfaction_id: rating.id, agent_id: 'agent-7', rating: 4, source: 'api' },
    })
  })

  t.test("a ticket's rating: 200 with it, 204 without, another tenant's ticket like a missing one", async (t) => {
    const tk = await ticket()
    const url = `/api/tickets/${tk.id}/satisfaction`
    const none = await call('GET', url)
    t.equal(none.statusCode, 204, 'no rating yet')
    t.equal(none.body, '')
    const rated = (await call('POST', '/api/satisfactions', { ticket_id: tk.id, rating: 5, comment: 'Quick' })).json()
    const got = await call('GET', url)
    t.equal(got.statusCode, 200)
    t.same(got.json(), rated, 'the shape of /api/satisfactions')
    const missing = await call('GET', '/api/tickets/does-not-exist/satisfaction')
    t.equal(missing.statusCode, 404)
    t.equal(missing.json().code, 'TICKETS_NOT_FOUND')
    const foreign = await call('GET', url, undefined, other)
    t.equal(foreign.statusCode, 404, "another tenant's ticket")
    t.equal(foreign.json().code, missing.json().code)
    t.equal(foreign.json().message.replace(tk.id, '<id>'), missing.json().message.replace('does-not-exist', '<id>'))
    await call('DELETE', `/api/satisfactions/${rated.id}`)
    t.equal((await call('GET', url)).statusCode, 204, 'gone again once deleted')
  })

  t.test('read, change (announced with the previous rating), list, stats, trend, delete', async (t) => {
    const a = await ticket({ customer_id: 'cust-2' })
    const b = await ticket({ customer_id: 'cust-2' })
    const ra = (await call('POST', '/api/satisfactions', { ticket_id: a.id, rating: 2, category: 'speed' })).json()
    await call('POST', '/api/satisfactions', { ticket_id: b.id, rating: 5, category: 'speed' })
    const url = `/api/satisfactions/${ra.id}`
    t.same((await call('GET', url)).json(), ra)
    const changed = await call('PUT', url, { rating: 3 })
    t.equal(changed.statusCode, 200)
    t.equal(changed.json().rating, 3)
    const [event] = await waitFor(async () => {
      const found = await events('tickets.satisfaction.changed', a.id)
      return found.length ? found : undefined
    })
    t.match(event!.envelope.data, { rating: 3, previous_rating: 2 })
    t.equal((await call('PUT', url, { rating: 9 })).statusCode, 400)

    const list = (await call('GET', '/api/satisfactions?customer_id=cust-2')).json()
    t.equal(list.total, 2)
    t.equal((await call('GET', '/api/satisfactions?customer_id=cust-2&rating=5')).json().total, 1)
    t.equal((await call('GET', '/api/satisfactions?category=speed&customer_id=cust-2')).json().total, 2)
    const today = new Date().toISOString().slice(0, 10)
    t.equal((await call('GET', `/api/satisfactions?customer_id=cust-2&date_from=${today}`)).json().total, 2)
    t.equal((await call('GET', '/api/satisfactions?customer_id=cust-2&date_to=2020-01-01')).json().total, 0)
    t.equal((await call('GET', '/api/satisfactions?date_from=yesterday')).statusCode, 400)

    const stats = (await call('GET', '/api/satisfactions/stats')).json()
    t.match(stats, { total_ratings: 3, rating_distribution: { '1': 0, '3': 1, '4': 1, '5': 1 } })
    t.equal(stats.average_rating, 4)
    t.same(stats.category_stats.speed, { count: 2, average_rating: 4 })
    t.equal(stats.trend_data.length, 7)
    t.same(stats.trend_data[6], { date: today, count: 3, average_rating: 4 })
    const ranged = (await call('GET', `/api/satisfactions/stats?date_from=${today}&date_to=${today}`)).json()
    t.equal(ranged.trend_data.length, 1)
    const trend = (await call('GET', '/api/satisfactions/trend?days=3')).json()
    t.equal(trend.count, 3)
    t.same(trend.items[2], { date: today, count: 3, average_rating: 4 })
    t.match((await call('GET', '/api/satisfactions/stats', undefined, other)).json(), {
      total_ratings: 0,
      average_rating: 0,
    })

    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { rating: 1 }],
      ['DELETE', undefined],
    ] as const) {
      t.equal((await call(method, url, payload, other)).statusCode, 404, `${method} from another tenant`)
    }
    t.equal((await call('DELETE', url)).statusCode, 204)
    t.equal((await call('GET', url)).statusCode, 404)
    await waitFor(async () => (await events('tickets.satisfaction.removed', a.id)).length === 1)
  })

  t.test('close schedules a survey; the public page shows the title and agent name only', async (t) => {
    const tk = await ticket({ source: 'chat', title: 'Chat about billing' })
    await call('POST', `/api/tickets/${tk.id}/assign`, { agent_id: 'agent-7' })
    t.equal((await call('POST', `/api/tickets/${tk.id}/close`, {})).statusCode, 200)
    const surveys = (await call('GET', `/api/satisfactions/surveys?ticket_id=${tk.id}`)).json()
    t.equal(surveys.total, 1)
    const survey = surveys.data[0]
    t.match(survey, { channel: 'chat', status: 'sent', agent_name: 'Agnes Agent', customer_id: 'cust-1' })
    t.notOk('token' in survey || 'token_hash' in survey, 'no token in the API')
    t.equal(new Date(survey.expires_at).getTime() - new Date(survey.sent_at).getTime(), 7 * 86_400_000)
    const link = await surveyLink(tk.id)
    t.match(link, /^\/public\/csat\/[A-Za-z0-9_-]{43}$/, 'the event carries /csat/<token>: the survey page')
    const token = link.split('/').pop()!
    const stored = await svc.db
      .selectFrom('satisfaction_surveys')
      .select('token_hash')
      .where('id', '=', survey.id)
      .executeTakeFirstOrThrow()
    t.equal(stored.token_hash, createHash('sha256').update(token).digest('hex'), 'only the hash is stored')

    const page = await pub('GET', link)
    t.equal(page.statusCode, 200)
    t.same(Object.keys(page.json()).sort(), ['agent_name', 'completed_at', 'expires_at', 'status', 'ticket_title'])
    t.match(page.json(), { ticket_title: 'Chat about billing', agent_name: 'Agnes Agent', status: 'sent' })
    t.equal((await pub('GET', `/public/csat/${'x'.repeat(43)}`)).statusCode, 404)

    for (const body of [
      { rating: 0 },
      { rating: 6 },
      { rating: 'five' },
      { comment: 'no rating' },
      { rating: 5, x: 1 },
    ]) {
      const bad = await pub('POST', `${link}/respond`, body)
      t.equal(bad.statusCode, 400, JSON.stringify(body))
    }
    const answered = await pub('POST', `${link}/respond`, { rating: 5, comment: 'Great' })
    t.equal(answered.statusCode, 200, answered.body)
    t.same(Object.keys(answered.json().data).sort(), ['comment', 'created_at', 'rating'])
    const again = await pub('POST', `${link}/respond`, { rating: 1 })
    t.equal(again.statusCode, 409)
    t.equal(again.json().code, 'TICKETS_SURVEY_COMPLETED')
    t.equal((await pub('POST', `/public/csat/${'y'.repeat(43)}/respond`, { rating: 3 })).statusCode, 404)
    t.match((await pub('GET', link)).json(), { status: 'completed', completed_at: String })
    const rating = (await call('GET', `/api/satisfactions?ticket_id=${tk.id}`)).json().data[0]
    t.match(rating, { rating: 5, comment: 'Great', source: 'survey', agent_id: 'agent-7', category: 'overall' })
    const resend = await call('POST', `/api/satisfactions/surveys/${survey.id}/resend`)
    t.equal(resend.statusCode, 409, 'a completed survey is not resent')
  })

  t.test('an expired survey answers 410 and is marked so; a resend gives a new link', async (t) => {
    const tk = await ticket({ source: 'phone' })
    await call('POST', `/api/tickets/${tk.id}/close`, { reason: 'done' })
    const link = await surveyLink(tk.id)
    const survey = (await call('GET', `/api/satisfactions/surveys?ticket_id=${tk.id}`)).json().data[0]
    t.equal(survey.channel, 'voice')
    t.equal(survey.agent_name, '', 'no agent: no name')
    await svc.db
      .updateTable('satisfaction_surveys')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', survey.id)
      .execute()
    t.equal((await pub('GET', link)).json().status, 'expired')
    const late = await pub('POST', `${link}/respond`, { rating: 4 })
    t.equal(late.statusCode, 410)
    t.equal(late.json().code, 'TICKETS_SURVEY_EXPIRED')
    const marked = (await call('GET', `/api/satisfactions/surveys?ticket_id=${tk.id}&status=expired`)).json()
    t.equal(marked.total, 1, 'the survey is marked expired')

    t.equal((await call('POST', `/api/satisfactions/surveys/${survey.id}/resend`, undefined, other)).statusCode, 404)
    const resent = await call('POST', `/api/satisfactions/surveys/${survey.id}/resend`)
    t.equal(resent.statusCode, 200)
    t.match(resent.json(), { id: survey.id, status: 'sent', link: /^\/csat\/[A-Za-z0-9_-]{43}$/ })
    t.not(`/public${resent.json().link}`, link)
    t.equal((await pub('GET', link)).statusCode, 404, 'the old link no longer works')
    t.equal((await pub('POST', `/public${resent.json().link}/respond`, { rating: 4 })).statusCode, 200)
    await waitFor(async () => (await events('tickets.survey.sent', tk.id)).length === 2)
  })

  t.test('a rated ticket gets no survey; a staff rating completes a waiting survey', async (t) => {
    const rated = await ticket()
    await call('POST', '/api/satisfactions', { ticket_id: rated.id, rating: 3 })
    await call('POST', `/api/tickets/${rated.id}/close`, {})
    t.equal((await call('GET', `/api/satisfactions/surveys?ticket_id=${rated.id}`)).json().total, 0)

    const waiting = await ticket()
    await call('POST', `/api/tickets/${waiting.id}/close`, {})
    const link = await surveyLink(waiting.id)
    await call('POST', '/api/satisfactions', { ticket_id: waiting.id, rating: 2 })
    t.equal(
      (await call('GET', `/api/satisfactions/surveys?ticket_id=${waiting.id}`)).json().data[0].status,
      'completed',
    )
    t.equal((await pub('POST', `${link}/respond`, { rating: 5 })).statusCode, 409, 'already answered')
    t.equal((await call('GET', '/api/satisfactions/surveys', undefined, other)).json().total, 0)
    const g = await ticket({ customer_id: 'cust-g' }, other)
    t.equal((await call('GET', `/api/satisfactions/surveys?ticket_id=${g.id}`)).json().total, 0)
  })

  t.test('two answers racing: one rating, one 409', async (t) => {
    const tk = await ticket()
    await call('POST', `/api/tickets/${tk.id}/close`, {})
    const link = await surveyLink(tk.id)
    const answers = await Promise.all([1, 2, 3].map((r) => pub('POST', `${link}/respond`, { rating: r })))
    t.same(answers.map((a) => a.statusCode).sort(), [200, 409, 409])
    t.equal((await call('GET', `/api/satisfactions?ticket_id=${tk.id}`)).json().total, 1)
  })

  t.test('a rating naming its agent: by record or user id, of the workspace', async (t) => {
    // an agent named by record id is stored by user id (identity counts the rating by it); an unknown one is a 400
    const byRecord = await call('POST', '/api/satisfactions', {
      ticket_id: (await ticket()).id,
      agent_id: 'rec-agent-7',
      rating: 5,
    })
    t.equal(byRecord.statusCode, 201, byRecord.body)
    t.equal(byRecord.json().agent_id, 'agent-7')
    const unknownAgent = await call('POST', '/api/satisfactions', {
      ticket_id: (await ticket()).id,
      agent_id: 'nobody',
      rating: 5,
    })
    t.equal(unknownAgent.statusCode, 400)
    t.equal(unknownAgent.json().code, 'TICKETS_UNKNOWN_AGENT')
  })
})
