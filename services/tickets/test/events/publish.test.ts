import type { AuditRecordData, Envelope } from '@switchboard/contracts'
import type { EventBus } from '@switchboard/events'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import { ACME_SUPPORT, as, principal, ticketsApp } from '../helpers/app.ts'
import { busFor, gated, streamEvents } from '../helpers/bus.ts'
import { makeKnown } from '../helpers/directory.ts'

const agent = principal()

type OutboxRow = { id: string; subject: string; envelope: string }
const outboxRows = <DB>(db: Kysely<DB>) =>
  (db as Kysely<any>)
    .selectFrom('outbox')
    .select(['id', 'subject', 'envelope'])
    .orderBy('created_at')
    .orderBy('id')
    .execute() as Promise<OutboxRow[]>

inEachStorageMode(t, 'events', async (t, mode) => {
  let gate: { bus: EventBus; open(): void } | undefined
  const { app, svc } = await ticketsApp(t, mode, {
    bus: async (store) => {
      gate = gated(await busFor(store))
      return gate.bus
    },
  })
  const bus = Object.getPrototypeOf(gate!.bus) as EventBus
  const headers = await as(agent)
  // the customers and agents these tests name are known (identity's events go round the held bus)
  await makeKnown(svc, ACME_SUPPORT, { customers: ['cust-1', 'cust-2', 'cust-3'], agents: ['agent-5', 'agent-6'] }, bus)

  t.test('the write commits its outbox row; the event reaches the bus only after, from the relay', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers,
      payload: { title: 'Outboxed', customer_id: 'cust-1', priority: 'high' },
    })
    t.equal(res.statusCode, 201)
    const ticket = res.json()
    const pending = await outboxRows(svc.db)
    const created = pending.find((r) => r.subject === 'tickets.ticket.created')
    t.ok(created, 'the event row is in the outbox while the bus is held')
    const envelope = JSON.parse(created!.envelope) as Envelope<Record<string, unknown>>
    t.match(envelope, {
      id: created!.id,
      type: 'tickets.ticket.created',
      tenant_id: 'acme',
      workspace_id: 'support',
      actor: { user_id: 'agent-1', kind: 'agent' },
      request_id: res.headers['x-request-id'],
      data: {
        ticket_id: ticket.id,
        title: 'Outboxed',
        customer_id: 'cust-1',
        priority: 'high',
        status: 'open',
        agent_id: null,
      },
    })
    t.equal((await streamEvents(bus, 'TICKETS')).length, 0, 'nothing on the bus yet')

    gate!.open()
    await waitFor(async () => (await outboxRows(svc.db)).length === 0)
    const events = await streamEvents(bus, 'TICKETS')
    t.equal(events.length, 1)
    t.equal(events[0]!.subject, 'tickets.ticket.created')
    t.same(events[0]!.envelope, envelope, 'the envelope on the bus is the committed one')
  })

  t.test('every write emits its events; a refused write emits none', async (t) => {
    const before = (await streamEvents(bus, 'TICKETS')).length
    const post = (url: string, payload: object) => app.inject({ method: 'POST', url, headers, payload })
    const ticket = (await post('/api/tickets', { title: 'Evented', customer_id: 'cust-2' })).json()
    const url = `/api/tickets/${ticket.id}`
    await app.inject({ method: 'PUT', url, headers, payload: { category: 'billing' } })
    await post(`${url}/assign`, { agent_id: 'agent-5' })
    await post(`${url}/comments`, { content: 'looking' })
    const refused = await app.inject({ method: 'PUT', url, headers, payload: { status: 'open', title: 'x' } })
    t.equal(refused.statusCode, 200, 'assigned → open is a reopen')
    const conflict = await app.inject({ method: 'PUT', url, headers, payload: { status: 'resolved' } })
    t.equal(conflict.statusCode, 409, 'open → resolved is refused')
    await post(`${url}/close`, { reason: 'done' })

    const events = await waitFor(async () => {
      const all = (await streamEvents(bus, 'TICKETS')).slice(before)
      return all.length >= 11 ? all : undefined
    })
    t.same(
      events.map((e) => e.envelope.type),
      [
        'tickets.ticket.created',
        'tickets.ticket.updated',
        'tickets.ticket.updated',
        'tickets.ticket.status_changed',
        'tickets.comment.added',
        'tickets.ticket.updated',
        'tickets.ticket.status_changed',
        'tickets.ticket.status_changed',
        'tickets.comment.added',
        'tickets.ticket.closed',
        // the close schedules the customer's satisfaction survey
        'tickets.survey.sent',
      ],
    )
    t.match(events[1]!.envelope.data, { changed: ['category'], ticket: { category: 'billing' } })
    t.match(events[2]!.envelope.data, { changed: ['agent_id', 'status'], ticket: { agent_id: 'agent-5' } })
    t.match(events[3]!.envelope.data, { from: 'open', to: 'assigned' })
    t.match(events[7]!.envelope.data, { from: 'open', to: 'closed', closed_at: String })
    t.match(events[8]!.envelope.data, { type: 'system' })
    t.match(events[9]!.envelope.data, { ticket_id: ticket.id, reason: 'done' })
  })

  t.test('an audit event for every write, failed ones included, with snapshots', async (t) => {
    const post = (url: string, payload: object) => app.inject({ method: 'POST', url, headers, payload })
    const ticket = (await post('/api/tickets', { title: 'Audited', customer_id: 'cust-3' })).json()
    const url = `/api/tickets/${ticket.id}`
    await app.inject({ method: 'PUT', url, headers, payload: { priority: 'urgent', password: 'x' } })
    await post(`${url}/assign`, { agent_id: 'agent-6' })
    await post(`${url}/comments`, { content: 'noted' })
    await post(`${url}/close`, {})
    await post(`${url}/close`, {})
    await post('/api/tickets/missing/assign', { agent_id: 'agent-6' })

    const audits = await waitFor(async () => {
      const all = (await streamEvents(bus, 'AUDIT'))
        .map((e) => e.envelope as Envelope<AuditRecordData>)
        .filter((e) => e.data.resource_id === ticket.id || e.data.resource_id === 'missing')
      return all.length >= 7 ? all : undefined
    })
    // Audit records are queued after each response is sent, so two quick requests may swap places.
    const summary = audits.map((e) => [e.data.action, e.data.status_code, e.data.success]).sort()
    t.same(
      summary,
      [
        ['tickets.create', 201, true],
        ['tickets.update', 400, false],
        ['tickets.assign', 200, true],
        ['tickets.comments', 201, true],
        ['tickets.close', 200, true],
        ['tickets.close', 409, false],
        ['tickets.assign', 404, false],
      ].sort(),
    )
    const find = (action: string, status: number) =>
      audits.find((e) => e.data.action === action && e.data.status_code === status)
    const [create, badUpdate, assign, close] = [
      find('tickets.create', 201),
      find('tickets.update', 400),
      find('tickets.assign', 200),
      find('tickets.close', 200),
    ]
    t.match(create!, { type: 'audit.record.recorded', tenant_id: 'acme', actor: { user_id: 'agent-1' } })
    t.match(create!.data, { before_json: null, after_json: { id: ticket.id, status: 'open' }, route: '/api/tickets' })
    t.equal((badUpdate!.data.request_json as { password: string }).password, '[REDACTED]', 'masked at the source')
    t.match(assign!.data, {
      route: '/api/tickets/:id/assign',
      before_json: { agent_id: null, status: 'open' },
      after_json: { agent_id: 'agent-6', status: 'assigned' },
    })
    t.match(close!.data, { before_json: { status: 'assigned' }, after_json: { status: 'closed' } })
  })
})
