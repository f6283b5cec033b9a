import { inEachStorageMode, testPrincipal } from '@switchboard/testing'
import t from 'tap'
import { as } from '../helpers/app.ts'
import { streamEvents } from '../helpers/bus.ts'
import { ACME, knownAgent, knownCustomer, slaApp } from '../helpers/sla.ts'

// conversations, storing a widget visitor's rating of a closed conversation (its /public/widget/sessions/:id/
// satisfaction checked the credential and the status), narrowed to the session's scope
const conversations = testPrincipal({
  user_id: 'conversations',
  kind: 'service',
  roles: [],
  permissions: ['*'],
  ...ACME,
  token_tenant_id: '',
  token_workspace_id: '',
})

inEachStorageMode(t, "a conversation's rating from the widget", async (t, mode) => {
  const { svc, call } = await slaApp(t, mode)
  const service = await as(conversations)
  await knownCustomer(svc, ACME, { user_id: 'cust-1', name: 'Ann' })
  await knownAgent(svc, ACME, { user_id: 'agent-7', name: 'Agnes Agent' })
  const rate = (body: object, h = service) => call('POST', '/internal/satisfactions/session', body, h)
  const base = { ticket_id: null, customer_id: null, agent_id: 'agent-7' }

  const stored = await rate({ ...base, session_id: 'sess-1', rating: 5, comment: ' Great help ' })
  t.equal(stored.statusCode, 201, stored.body)
  t.match(stored.json(), {
    session_id: 'sess-1',
    ticket_id: null,
    customer_id: null,
    agent_id: 'agent-7',
    rating: 5,
    comment: 'Great help',
    source: 'widget',
    tenant_id: 'acme',
    workspace_id: 'support',
  })
  const again = await rate({ ...base, session_id: 'sess-1', rating: 1 })
  t.equal(again.statusCode, 409)
  t.equal(again.json().code, 'TICKETS_SATISFACTION_ALREADY_GIVEN')

  // a conversation with a ticket: the ticket's rating (once); its ticket already rated: the conversation's alone
  const ticket = (await call('POST', '/api/tickets', { title: 'Parcel', customer_id: 'cust-1' })).json()
  const withTicket = await rate({
    ...base,
    session_id: 'sess-2',
    ticket_id: ticket.id,
    customer_id: 'cust-1',
    rating: 4,
  })
  t.equal(withTicket.statusCode, 201, withTicket.body)
  t.match(withTicket.json(), { ticket_id: ticket.id, session_id: 'sess-2', customer_id: 'cust-1' })
  const ofTicket = await call('GET', `/api/tickets/${ticket.id}/satisfaction`)
  t.equal(ofTicket.json().session_id, 'sess-2', "the ticket's rating")
  const second = await rate({ ...base, session_id: 'sess-3', ticket_id: ticket.id, rating: 2 })
  t.equal(second.statusCode, 201)
  t.equal(second.json().ticket_id, null, 'its ticket rated already: the conversation keeps its own rating')

  const listed = await call('GET', '/api/satisfactions?session_id=sess-1')
  t.equal(listed.statusCode, 200)
  t.match(listed.json(), { total: 1, data: [{ session_id: 'sess-1', rating: 5 }] })
  t.equal((await call('GET', '/api/satisfactions')).json().total, 3, 'listed with the others')

  const events = (await streamEvents(svc.bus, 'TICKETS')).filter((e) => e.subject === 'tickets.satisfaction.rated')
  const ofSession = events.filter((e) => (e.envelope.data as { session_id?: string }).session_id === 'sess-1')
  t.equal(ofSession.length, 1, 'announced once, as every rating (statistics counts it)')
  t.match(ofSession[0]!.envelope, { tenant_id: 'acme', workspace_id: 'support', data: { rating: 5, ticket_id: null } })

  const asAgent = await rate({ ...base, session_id: 'sess-9', rating: 3 }, await as(testPrincipal({ ...ACME })))
  t.equal(asAgent.statusCode, 403, 'service principals only')
  t.equal(asAgent.json().code, 'TICKETS_SERVICE_ONLY')
  const bad = await rate({ ...base, session_id: 'sess-9', rating: 6 })
  t.equal(bad.statusCode, 400)
  t.match(bad.json().message, /rating/)
})
