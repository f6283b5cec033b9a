import { TicketEvents } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { nowIso } from '@switchboard/platform'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import type { ConversationsService } from '../../src/context.ts'
import { as, conversationsApp, principal, servicePrincipal } from '../helpers/app.ts'
import { ACME, QUIET_QUEUE } from '../helpers/queue.ts'

// GET /api/customers/:id/activity: a customer's recent sessions, tickets and messages.
const GLOBEX = { tenant_id: 'globex', workspace_id: 'support' }
const tickets = { user_id: 'tickets', kind: 'service' }

async function seedCustomer(svc: ConversationsService, customer_id: string, user_id: string, scope = ACME) {
  await svc.db
    .insertInto('customers')
    .values({ customer_id, user_id, ...scope, updated_at: nowIso() })
    .execute()
}

const ticketFacts = (ticket_id: string, customer_id: string, status = 'open', n = 0) => ({
  ticket_id,
  title: `Ticket ${ticket_id}`,
  customer_id,
  agent_id: null,
  category: 'billing',
  priority: 'high',
  status,
  source: 'web',
  created_at: new Date(Date.parse('2026-11-27T10:00:00.000Z') + n * 1000).toISOString(),
})

inEachStorageMode(t, 'customer activity', async (t, mode) => {
  const { app, svc } = await conversationsApp(t, mode, { env: QUIET_QUEUE })
  const h = {
    agent: await as(principal({ permissions: ['workspace.read', 'workspace.write', 'customers.read'] })),
    noCustomers: await as(principal({ permissions: ['workspace.read', 'workspace.write'] })),
    globex: await as(principal({ user_id: 'g-agent', permissions: ['customers.read'], ...GLOBEX })),
    unscoped: await as(
      principal({ user_id: 'root', kind: 'admin', permissions: ['*'], tenant_id: '', workspace_id: '' }),
    ),
    hub: await as(servicePrincipal()),
    hubGlobex: await as(servicePrincipal({ ...GLOBEX })),
  }
  const get = (url: string, headers = h.agent) => app.inject({ method: 'GET', url, headers })
  const publishTicket = async (type: string, data: object, scope = ACME) => {
    const e = newEnvelope({ type, ...scope, actor: tickets, data })
    await svc.bus.publish(e.type, e)
  }
  // a customer's first message through the hub makes a session
  const say = async (session: string, customer: string, content: string, headers = h.hub) => {
    const res = await app.inject({
      method: 'POST',
      url: `/internal/sessions/${session}/messages`,
      payload: { sender: 'customer', customer_id: customer, content },
      headers,
    })
    t.equal(res.statusCode, 201, res.body)
  }

  await seedCustomer(svc, 'c-ann', 'u-ann')
  await seedCustomer(svc, 'c-bob', 'u-bob')
  await seedCustomer(svc, 'c-gil', 'u-gil', GLOBEX)
  // the same user is a customer of globex too
  await seedCustomer(svc, 'c-ann-g', 'u-ann', GLOBEX)

  await say(`a1-${mode}`, 'u-ann', 'first question')
  await say(`a2-${mode}`, 'u-ann', 'second question')
  await say(`a2-${mode}`, 'u-ann', 'still there?')
  await say(`b1-${mode}`, 'u-bob', "bob's question")
  await say(`g1-${mode}`, 'u-ann', 'asked in globex', h.hubGlobex)
  await publishTicket(TicketEvents.created.type, ticketFacts(`t1-${mode}`, 'u-ann', 'open', 1))
  await publishTicket(TicketEvents.created.type, ticketFacts(`t2-${mode}`, 'u-ann', 'open', 2))
  await publishTicket(TicketEvents.statusChanged.type, {
    ticket_id: `t2-${mode}`,
    from: 'open',
    to: 'resolved',
    resolved_at: nowIso(),
    closed_at: null,
  })
  await publishTicket(TicketEvents.created.type, ticketFacts(`tb-${mode}`, 'u-bob', 'open', 3))
  await publishTicket(TicketEvents.created.type, ticketFacts(`tg-${mode}`, 'u-ann', 'open', 4), GLOBEX)

  t.test("a customer's sessions, tickets and messages of its own workspace, newest first", async (t) => {
    const body = await waitFor(async () => {
      const res = await get('/api/customers/c-ann/activity')
      const b = res.json()
      return b.recent_tickets?.length === 2 && b.recent_tickets[0].status === 'resolved' ? b : undefined
    })
    t.match(body, { customer_id: 'c-ann', user_id: 'u-ann', tenant_id: 'acme', workspace_id: 'support' })
    t.same(
      body.recent_sessions.map((s: { id: string }) => s.id),
      [`a2-${mode}`, `a1-${mode}`],
    )
    t.match(body.recent_tickets, [
      { id: `t2-${mode}`, title: `Ticket t2-${mode}`, status: 'resolved', priority: 'high', agent_id: null },
      { id: `t1-${mode}`, status: 'open' },
    ])
    t.same(
      body.recent_messages.map((m: { content: string }) => m.content),
      ['still there?', 'second question', 'first question'],
    )
    const byUser = await get('/api/customers/u-ann/activity?limit=1')
    t.equal(byUser.statusCode, 200, "the customer's user id names it too (the earlier system's :id)")
    t.equal(byUser.json().customer_id, 'c-ann')
    t.equal(byUser.json().recent_sessions.length, 1, 'limit applies to each list')
    t.equal(byUser.json().recent_messages.length, 1)
    t.equal(byUser.json().recent_messages[0].content, 'still there?')
  })

  t.test('a customer with no activity has empty lists', async (t) => {
    await seedCustomer(svc, `c-new-${mode}`, `u-new-${mode}`)
    const res = await get(`/api/customers/c-new-${mode}/activity`)
    t.equal(res.statusCode, 200)
    t.match(res.json(), { recent_sessions: [], recent_tickets: [], recent_messages: [] })
  })

  t.test("another tenant's customer is answered exactly like a missing one", async (t) => {
    const foreign = await get('/api/customers/c-gil/activity')
    const missing = await get('/api/customers/nobody/activity')
    t.equal(foreign.statusCode, 404)
    t.same(
      { ...foreign.json(), message: foreign.json().message.replace('c-gil', 'X'), request_id: '' },
      { ...missing.json(), message: missing.json().message.replace('nobody', 'X'), request_id: '' },
    )
    t.equal(foreign.json().code, 'CONVERSATIONS_CUSTOMER_NOT_FOUND')
    const mine = await get('/api/customers/c-ann-g/activity', h.globex)
    t.equal(mine.statusCode, 200, 'globex reads its own')
    t.same(
      mine.json().recent_sessions.map((s: { id: string }) => s.id),
      [`g1-${mode}`],
      "only globex's sessions of that user",
    )
    const tickets = await waitFor(async () => {
      const b = (await get('/api/customers/c-ann-g/activity', h.globex)).json()
      return b.recent_tickets.length > 0 ? b.recent_tickets : undefined
    })
    t.same(
      tickets.map((x: { id: string }) => x.id),
      [`tg-${mode}`],
    )
  })

  t.test('bad input, a user in several workspaces, and the permission', async (t) => {
    const limit = await get('/api/customers/c-ann/activity?limit=0')
    t.equal(limit.statusCode, 400)
    t.match(limit.json(), { code: 'VALIDATION_FAILED', message: /limit/ })
    const ambiguous = await get('/api/customers/u-ann/activity', h.unscoped)
    t.equal(ambiguous.statusCode, 400, 'an unscoped caller naming a user of two workspaces picks one')
    t.equal((await get('/api/customers/c-ann/activity', h.unscoped)).statusCode, 200, 'by customer id it may')
    const denied = await get('/api/customers/c-ann/activity', h.noCustomers)
    t.equal(denied.statusCode, 403)
    t.equal(denied.json().code, 'CONVERSATIONS_PERMISSION_MISSING')
  })
})
