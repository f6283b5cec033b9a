// The server side of the chat widget (issue 21) end to end through the gateway, in both run modes: the portal's
// governed `widget` section (validated origins, layered, in /public/portal/config); the hub refusing a visitor whose
// page the scope does not list (first message and rejoin, no session made); availability from the agents routing
// would use; "leave a message" as a ticket of a customer made or reused by e-mail, refused where the widget is
// off, answered alike for an e-mail another tenant's account holds (a contact of this scope, no oracle); a
// visitor's rating of its closed conversation — credential and status checked, once, listed with its session_id
// and counted once by statistics.
import { mintServiceToken } from '@switchboard/cli'
import { conversationsKit, must } from './harness/conversations-kit.ts'
import { until } from './harness/http.ts'
import { inEachMode } from './harness/modes.ts'
import { openSocket } from './harness/realtime-kit.ts'

const SHOP = 'https://shop.example'

// a loaded two-core machine may take more than the default minute to start the fleet's units
inEachMode(
  'widget API: embed policy, availability, tickets, a conversation rated',
  { liveTimeoutMs: 240_000 },
  async (t, system) => {
    const kit = await conversationsKit(system)
    const { api, svc } = kit
    const scope = kit.freshScope('wgt')
    const q = `tenant_id=${scope.tenant_id}&workspace_id=${scope.workspace_id}`
    const alice = await kit.agent(scope, 'alice')
    const staff = svc(scope)

    await t.test('availability: the agents routing would use, per scope', async (t) => {
      t.same(must(await api.get(`/public/widget/availability?${q}`), 200, 'availability'), {
        agents_online: 0,
        open: false,
      })
      await kit.setStatus(scope, alice, 'online')
      await kit.onlineAgents(scope, 1)
      t.same(must(await api.get(`/public/widget/availability?${q}`), 200, 'availability'), {
        agents_online: 1,
        open: true,
      })
      const other = await api.get(`/public/widget/availability?tenant_id=nobody${kit.suffix}&workspace_id=main`)
      t.same(other.body, { agents_online: 0, open: false }, 'a scope nobody works in')
      const bad = await api.get(`/public/widget/availability?tenant_id=${scope.tenant_id}`)
      t.equal(bad.status, 400)
      t.match(bad.body, { code: 'VALIDATION_FAILED', message: /workspace_id/, request_id: String })
    })

    await t.test("the portal's widget section, governed and public", async (t) => {
      const put = (widget: unknown, ref: string) =>
        api.put('/api/security/config/workspace', { portal: { widget }, change_ref: ref, reason: 'widget' }, staff)
      const bad = await put({ allowed_origins: [`${SHOP}/checkout`] }, 'W-0')
      t.equal(bad.status, 400, 'an origin with a path')
      t.match(bad.body, { code: 'VALIDATION_FAILED', message: /allowed_origins/ })
      const ok = await put({ allowed_origins: [SHOP], prechat: 'name_email', greeting: 'Hi there!' }, 'W-1')
      t.equal(ok.status, 200, ok.text)
      t.match(ok.body.change_risk, {
        risk_level: 'medium',
        risk_reasons: ['portal_widget_change', 'scoped_config_change'],
      })
      const portal = await until('the portal follows', async () => {
        const r = await api.get(`/public/portal/config?${q}`)
        return r.body?.widget?.allowed_origins?.length ? r.body : undefined
      })
      t.same(portal.widget, {
        allowed_origins: [SHOP],
        prechat: 'name_email',
        greeting: 'Hi there!',
        offline_message: null,
      })
    })

    const visit = { session_id: '', credential: '' }
    await t.test('the hub refuses a page the scope does not list; a listed one chats', async (t) => {
      const sessions = async () => must(await api.get('/api/omni/sessions', staff), 200, 'sessions').total as number
      const pages: Array<Record<string, string>> = [{ ...scope, embed_origin: 'https://evil.example' }, { ...scope }]
      for (const query of pages) {
        const widget = await openSocket(system.url, { query }, t)
        widget.send({ type: 'text-message', data: 'Hello?' })
        const refused = await widget.next('error')
        t.match(
          refused.data,
          { code: 'REALTIME_WIDGET_ORIGIN_NOT_ALLOWED' },
          `refused: ${query.embed_origin ?? 'none'}`,
        )
        await widget.sync()
        t.equal(widget.frames.filter((f) => f.type === 'session').length, 0, 'no session frame')
      }
      t.equal(await sessions(), 0, 'no session was made')

      const widget = await openSocket(system.url, { query: { ...scope, embed_origin: SHOP } }, t)
      widget.send({ type: 'text-message', data: 'My parcel is late' })
      const started = await widget.next('session')
      visit.session_id = started.data.session_id
      visit.credential = started.data.visitor.credential
      t.equal(await sessions(), 1)

      const copied = await openSocket(system.url, { query: { embed_origin: 'https://evil.example' } }, t)
      copied.send({ type: 'join', data: { session_id: visit.session_id, visitor_credential: visit.credential } })
      t.match((await copied.next('error')).data, { code: 'REALTIME_WIDGET_ORIGIN_NOT_ALLOWED' }, 'rejoin elsewhere')
      const back = await openSocket(system.url, { query: { embed_origin: SHOP } }, t)
      back.send({ type: 'join', data: { session_id: visit.session_id, visitor_credential: visit.credential } })
      t.match((await back.next('session')).data, { session_id: visit.session_id }, 'rejoin from the listed page')
    })

    const left = { ticket_id: '', customer_id: '' }
    await t.test('"leave a message": a ticket of a customer made, then reused, by e-mail', async (t) => {
      const email = `visitor.${kit.suffix}@e2e.example.com`
      const body = { ...scope, name: 'Vera Visitor', email, content: 'Nobody answered.\nPlease call me back.' }
      const made = await api.post('/public/widget/tickets', body)
      t.equal(made.status, 201, made.text)
      t.same(Object.keys(made.body), ['ticket_id'])
      const ticket = must(await api.get(`/api/tickets/${made.body.ticket_id}`, staff), 200, 'ticket')
      t.match(ticket, { source: 'widget', title: 'Nobody answered.', description: body.content, status: 'open' })
      const customers = must(await api.get(`/api/customers?search=${encodeURIComponent(email)}`, staff), 200, 'c')
      t.equal(customers.total, 1)
      t.match(customers.data[0], { user_id: ticket.customer_id, email, name: 'Vera Visitor', source: 'widget' })
      left.ticket_id = ticket.id
      left.customer_id = ticket.customer_id

      const again = await api.post('/public/widget/tickets', { ...body, email: email.toUpperCase(), content: 'Again' })
      t.equal(again.status, 201, again.text)
      const second = must(await api.get(`/api/tickets/${again.body.ticket_id}`, staff), 200, 'ticket')
      t.equal(second.customer_id, ticket.customer_id, 'the same customer, by e-mail')
      t.equal(must(await api.get(`/api/customers?search=${encodeURIComponent(email)}`, staff), 200, 'c').total, 1)

      const badEmail = await api.post('/public/widget/tickets', { ...body, email: 'not-an-email' })
      t.equal(badEmail.status, 400)
      t.match(badEmail.body, { code: 'VALIDATION_FAILED', message: /email/ })
      const empty = await api.post('/public/widget/tickets', { ...body, content: '' })
      t.equal(empty.status, 400)
      const unknown = await api.post('/public/widget/tickets', { ...body, tenant_id: `nobody${kit.suffix}` })
      t.equal(unknown.status, 404)
      t.equal(unknown.body.code, 'IDENTITY_TENANT_NOT_FOUND')

      const { token: platform } = await mintServiceToken({ service: 'e2e', permissions: ['*'], env: system.env })
      const closed = `wgtoff${kit.suffix}`
      must(
        await api.post(
          '/api/security/tenants',
          { id: closed, workspaces: [{ id: 'main', settings: { widget_enabled: false } }] },
          { token: platform },
        ),
        201,
        'a tenant without the widget',
      )
      const off = await api.post('/public/widget/tickets', { ...body, tenant_id: closed, workspace_id: 'main' })
      t.equal(off.status, 403, 'refused as the hub refuses')
      t.equal(off.body.code, 'IDENTITY_WIDGET_DISABLED')
      const hubOff = await openSocket(system.url, { query: { tenant_id: closed, workspace_id: 'main' } }, t)
      hubOff.send({ type: 'text-message', data: 'Hello?' })
      t.equal((await hubOff.next('error')).data.code, 'IDENTITY_WIDGET_DISABLED', 'the hub, the same')
    })

    await t.test(
      '"leave a message" with another tenant\'s customer\'s e-mail: 201, a contact of this scope',
      async (t) => {
        // an anonymous caller must not learn that the e-mail has an account elsewhere, nor reach that account
        const other = kit.freshScope('wgtx')
        const theirs = await kit.customer(other, 'holder')
        const email = `${theirs.username}@e2e.example.com`
        const body = { ...scope, email, content: 'Is anyone there?' }
        const made = await api.post('/public/widget/tickets', body)
        t.equal(made.status, 201, made.text)
        t.same(Object.keys(made.body), ['ticket_id'], 'the answer a new e-mail gets')
        const ticket = must(await api.get(`/api/tickets/${made.body.ticket_id}`, staff), 200, 'ticket in the scope')
        t.match(ticket, { source: 'widget', description: body.content, status: 'open' })
        t.not(ticket.customer_id, theirs.user_id, "not the other tenant's account")
        const here = must(await api.get(`/api/customers?search=${encodeURIComponent(email)}`, staff), 200, 'c')
        t.equal(here.total, 1)
        t.match(here.data[0], { user_id: ticket.customer_id, email, source: 'widget', tenant_id: scope.tenant_id })
        const again = await api.post('/public/widget/tickets', { ...body, content: 'Again' })
        t.equal(again.status, 201, again.text)
        const second = must(await api.get(`/api/tickets/${again.body.ticket_id}`, staff), 200, 'ticket')
        t.equal(second.customer_id, ticket.customer_id, 'the same contact for a second message')

        const elsewhere = svc(other)
        t.equal((await api.get(`/api/tickets/${made.body.ticket_id}`, elsewhere)).status, 404, 'not theirs')
        t.equal(must(await api.get('/api/tickets', elsewhere), 200, 'their tickets').total, 0, 'no ticket there')
        const byUser = must(await api.get(`/api/tickets?customer_id=${theirs.user_id}`, elsewhere), 200, 'by customer')
        t.equal(byUser.total, 0, 'their customer has no new ticket')
        t.match(must(await api.get(`/api/customers/${theirs.id}`, elsewhere), 200, 'their customer'), {
          user_id: theirs.user_id,
          email,
          tenant_id: other.tenant_id,
        })
        const session = must(
          await api.post('/api/v1/auth/login', { username: theirs.username, password: theirs.password }),
          200,
          'their login',
        )
        t.equal(session.user.id, theirs.user_id, 'their account still logs in')
      },
    )

    await t.test('a visitor rates its conversation once it closed; listed and counted once', async (t) => {
      const url = `/public/widget/sessions/${visit.session_id}/satisfaction`
      const rate = (body: unknown, credential = visit.credential, path = url) =>
        api.post(path, body, { headers: { 'x-visitor-credential': credential } })
      const open = await rate({ rating: 5 })
      t.equal(open.status, 409)
      t.equal(open.body.code, 'CONVERSATIONS_SESSION_NOT_CLOSED')
      must(
        await api.post(`/api/omni/sessions/${visit.session_id}/assign`, { agent_id: alice.user_id }, staff),
        200,
        'a',
      )
      must(await api.post(`/api/omni/sessions/${visit.session_id}/close`, { reason: 'solved' }, staff), 200, 'close')

      const wrong = await rate({ rating: 5 }, 'x'.repeat(43))
      t.equal(wrong.status, 404)
      const nobody = await rate({ rating: 5 }, visit.credential, '/public/widget/sessions/no-such-session/satisfaction')
      t.equal(nobody.status, 404)
      t.same(
        [wrong.body.code, nobody.body.code, Object.keys(wrong.body).sort()],
        [
          'CONVERSATIONS_SESSION_NOT_FOUND',
          'CONVERSATIONS_SESSION_NOT_FOUND',
          ['code', 'error', 'message', 'request_id'],
        ],
        'a wrong credential answers like a missing session',
      )
      t.equal((await rate({ rating: 6 })).status, 400)
      t.equal((await api.post(url, { rating: 5 })).status, 400, 'no credential')

      const rated = await rate({ rating: 5, comment: 'Quick and kind' })
      t.equal(rated.status, 201, rated.text)
      t.match(rated.body, { id: String, rating: 5, comment: 'Quick and kind' })
      const twice = await rate({ rating: 1 })
      t.equal(twice.status, 409)
      t.equal(twice.body.code, 'TICKETS_SATISFACTION_ALREADY_GIVEN')

      const listed = must(await api.get(`/api/satisfactions?session_id=${visit.session_id}`, staff), 200, 'list')
      t.equal(listed.total, 1)
      t.match(listed.data[0], {
        id: rated.body.id,
        session_id: visit.session_id,
        ticket_id: null,
        agent_id: alice.user_id,
        rating: 5,
        source: 'widget',
      })

      // a staff rating of the widget's ticket beside it: statistics' mean is (5 + 1) / 2 only if each counts once
      must(await api.post('/api/satisfactions', { ticket_id: left.ticket_id, rating: 1 }, staff), 201, 'staff rating')
      const dashboard = await until('statistics counts both ratings', async () => {
        const r = await api.get('/api/statistics/dashboard', staff)
        return r.body?.customer_satisfaction === 3 ? r.body : undefined
      })
      t.equal(dashboard.customer_satisfaction, 3)
      const stats = must(await api.get('/api/satisfactions/stats', staff), 200, 'stats')
      t.match(stats, { total_ratings: 2, average_rating: 3 })
    })
  },
)
