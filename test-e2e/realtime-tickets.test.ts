// tickets' events reach the agents' consoles live through the gateway's socket, in both run modes (in the fleet:
// tickets' outbox → NATS → every hub replica's fan-out subscription): a `ticket` frame for a ticket made, assigned,
// commented and closed by another agent; nothing on a customer's socket or on another workspace's console. And the
// `presence` frame of an agent going online. The hub's own rules in detail: services/realtime-voice/test/hub/
// tickets.test.ts and presence.test.ts.
import { conversationsKit, must } from './harness/conversations-kit.ts'
import { until } from './harness/http.ts'
import { inEachMode } from './harness/modes.ts'
import type { Frame } from './harness/realtime-kit.ts'
import { openSocket } from './harness/realtime-kit.ts'
import { createTicket } from './harness/tickets-kit.ts'

// a loaded two-core machine may take more than the default minute to start the fleet's units
inEachMode(
  'realtime: ticket frames on the consoles of the workspace',
  { liveTimeoutMs: 240_000 },
  async (t, system) => {
    const kit = await conversationsKit(system)
    const scope = kit.freshScope('rttickets')
    const other = kit.freshScope('rtticketsother')
    const dan = await kit.agent(scope, 'dan')
    const eve = await kit.agent(scope, 'eve')
    const olga = await kit.agent(other, 'olga')
    const cust = await kit.customer(scope, 'finn')
    const asEve = { token: (await kit.agentLogin(eve)).token }

    const danConsole = await openSocket(system.url, { token: (await kit.agentLogin(dan)).token }, t)
    const olgaConsole = await openSocket(system.url, { token: (await kit.agentLogin(olga)).token }, t)
    const customer = await openSocket(system.url, { token: (await kit.agentLogin(cust)).token }, t)
    for (const s of [danConsole, olgaConsole, customer]) await s.sync()
    const about = (id: string, event: string) => ({
      match: (f: Frame) => f.data?.ticket_id === id && f.data?.event === event,
      what: `ticket ${event}`,
    })

    const ticket = must(
      await createTicket(kit.api, { title: 'Label printer offline', customer_id: cust.id }, asEve),
      201,
      'ticket',
    )
    t.match((await danConsole.next('ticket', about(ticket.id, 'created'))).data, {
      title: 'Label printer offline',
      status: 'open',
      agent_id: null,
    })
    await until('tickets to know dan', async () => {
      const res = await kit.api.post(`/api/tickets/${ticket.id}/assign`, { agent_id: dan.user_id }, asEve)
      if (res.status === 400 && res.body?.code === 'TICKETS_UNKNOWN_AGENT') return undefined
      return must(res, 200, 'assign')
    })
    t.match((await danConsole.next('ticket', about(ticket.id, 'updated'))).data, {
      agent_id: dan.user_id,
      status: 'assigned',
    })
    must(await kit.api.post(`/api/tickets/${ticket.id}/comments`, { content: 'Rebooted it' }, asEve), 201, 'comment')
    t.match((await danConsole.next('ticket', about(ticket.id, 'commented'))).data, { comment_id: String })
    must(await kit.api.post(`/api/tickets/${ticket.id}/close`, {}, asEve), 200, 'close')
    await danConsole.next('ticket', about(ticket.id, 'closed'))
    t.pass("each change another agent made reached the workspace's console")

    for (const s of [olgaConsole, customer]) await s.sync()
    t.equal(olgaConsole.frames.filter((f) => f.type === 'ticket').length, 0, "another workspace's console: nothing")
    t.equal(customer.frames.filter((f) => f.type === 'ticket').length, 0, "a customer's socket: nothing")

    // presence: eve going online reaches the workspace's consoles that read agents (a supervisor's screen), as
    // status and capacity only; nothing on another workspace's console or a customer's socket
    await kit.setStatus(scope, eve, 'online')
    const online = await danConsole.next('presence', {
      match: (f: Frame) => f.data?.user_id === eve.user_id && f.data?.status === 'online',
      what: 'eve online',
    })
    t.same(Object.keys(online.data ?? {}).sort(), ['agent_id', 'event', 'previous', 'status', 'user_id'])
    for (const s of [olgaConsole, customer]) await s.sync()
    t.equal(
      olgaConsole.frames.filter((f) => f.type === 'presence').length,
      0,
      "another workspace's console: no presence",
    )
    t.equal(customer.frames.filter((f) => f.type === 'presence').length, 0, "a customer's socket: no presence")
  },
)
