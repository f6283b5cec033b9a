// tickets' events reach the consoles of their scope as `ticket` frames (a console's ticket list and detail follow
// them live): only consoles whose principal may read tickets, only in the event's tenant/workspace, never a
// customer's socket, and only the ticket events — a survey's event (it carries the survey link) stays in the hub.
import { TicketEvents, TicketSatisfactionEvents, TicketSlaEvents } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { admin, agent, customer, hubFixture } from '../helpers/hub.ts'
import { type Frame, open } from '../helpers/socket.ts'

const SUPPORT = { tenant_id: 'acme', workspace_id: 'support' }
const TICKET_AGENT = ['workspace.read', 'workspace.write', 'tickets.read', 'tickets.write']

const facts = {
  ticket_id: 'tk-1',
  title: 'Printer on fire',
  customer_id: 'cust-1',
  agent_id: null,
  category: 'general',
  priority: 'high',
  status: 'open',
  source: 'api',
  created_at: '2026-11-27T06:00:00.000Z',
}

inEachStorageMode(t, "tickets' events on consoles", async (t, mode) => {
  const fx = await hubFixture(t, mode)
  const bus = fx.hub.svc.bus
  const publish = (type: string, data: unknown, scope = SUPPORT) =>
    bus.publish(type, newEnvelope({ type, ...scope, actor: { user_id: 'agent-2', kind: 'agent' }, data }))

  const reader = await open(t, fx.hub.url, { principal: agent('agent-1', { permissions: TICKET_AGENT }) })
  const unscopedAdmin = await open(t, fx.hub.url, { principal: admin({ tenant_id: '', workspace_id: '' }) })
  const otherWorkspace = await open(t, fx.hub.url, {
    principal: agent('agent-3', { workspace_id: 'sales', permissions: TICKET_AGENT }),
  })
  const noTicketRead = await open(t, fx.hub.url, { principal: agent('agent-4') }) // workspace.* only
  const customerSock = await open(t, fx.hub.url, { principal: customer('cust-1') })
  const isTicket = (f: Frame) => f.type === 'ticket'

  await publish(TicketEvents.created.type, facts)
  const created = { type: 'ticket', session_id: null, data: { event: 'created', ...facts, source: undefined } }
  t.match(await reader.take(isTicket, 'the created ticket at an agent of its workspace'), created)
  t.match(await unscopedAdmin.take(isTicket, 'the created ticket at an unscoped admin'), created)

  await publish(TicketEvents.updated.type, {
    ticket: { ...facts, agent_id: 'agent-1', status: 'assigned' },
    changed: ['agent_id'],
  })
  t.match((await reader.take(isTicket, 'the update')).data, {
    event: 'updated',
    ticket_id: 'tk-1',
    agent_id: 'agent-1',
    status: 'assigned',
    changed: ['agent_id'],
  })
  await publish(TicketEvents.statusChanged.type, {
    ticket_id: 'tk-1',
    from: 'assigned',
    to: 'resolved',
    resolved_at: '2026-11-27T06:05:00.000Z',
    closed_at: null,
  })
  t.match((await reader.take(isTicket, 'the status change')).data, { event: 'status_changed', to: 'resolved' })

  // a survey's event (with its link) and a rating are not for sockets; the same ticket in another workspace neither
  // reaches this one
  await publish(TicketSatisfactionEvents.surveySent.type, {
    survey_id: 'sv-1',
    ticket_id: 'tk-1',
    customer_id: 'cust-1',
    channel: 'chat',
    link: 'https://example.test/survey/SECRET-TOKEN',
    expires_at: '2026-12-27T06:00:00.000Z',
  })
  await publish(TicketEvents.created.type, { ...facts, ticket_id: 'tk-sales' }, { ...SUPPORT, workspace_id: 'sales' })
  await publish(TicketEvents.commented.type, { ticket_id: 'tk-1', comment_id: 'cm-1', type: 'reply' })
  t.match((await reader.take(isTicket, 'the comment')).data, {
    event: 'commented',
    ticket_id: 'tk-1',
    comment_id: 'cm-1',
    type: 'reply',
  })
  await publish(TicketSlaEvents.violated.type, {
    violation_id: 'v-1',
    ticket_id: 'tk-1',
    sla_config_id: 'sla-1',
    violation_type: 'resolution',
    priority: 'high',
    customer_tier: 'normal',
    deadline: '2026-11-27T07:00:00.000Z',
    violated_at: '2026-11-27T07:00:01.000Z',
    resolved: false,
  })
  t.match((await reader.take(isTicket, 'the violation')).data, {
    event: 'sla_violated',
    ticket_id: 'tk-1',
    violation_type: 'resolution',
  })
  await publish(TicketEvents.closed.type, { ticket_id: 'tk-1', reason: 'done', closed_at: '2026-11-27T06:06:00.000Z' })
  t.match((await reader.take(isTicket, 'the close')).data, { event: 'closed', ticket_id: 'tk-1' })

  // every event above was handled (in order) once the last one arrived here; what was sent is on the wire after a ping
  for (const s of [reader, otherWorkspace, noTicketRead, customerSock, unscopedAdmin]) await s.sync()
  t.same(
    reader.frames.filter(isTicket).map((f) => f.data.event),
    ['created', 'updated', 'status_changed', 'commented', 'sla_violated', 'closed'],
    'the workspace agent got each ticket event once, and nothing of the survey',
  )
  t.notOk(
    reader.frames.some((f) => JSON.stringify(f).includes('SECRET-TOKEN')),
    "the survey's link never reached a socket",
  )
  t.same(
    otherWorkspace.frames.filter(isTicket).map((f) => f.data.ticket_id),
    ['tk-sales'],
    "another workspace's agent got only its own workspace's ticket",
  )
  t.equal(noTicketRead.frames.filter(isTicket).length, 0, 'a console without tickets.read gets no ticket frame')
  t.equal(customerSock.frames.filter(isTicket).length, 0, "a customer's socket gets no ticket frame")
  t.same(
    unscopedAdmin.frames.filter(isTicket).map((f) => f.data.ticket_id),
    ['tk-1', 'tk-1', 'tk-1', 'tk-sales', 'tk-1', 'tk-1', 'tk-1'],
    'an unscoped admin gets the tickets of every workspace',
  )
})
