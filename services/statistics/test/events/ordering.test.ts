// How the projections take the bus as it is: events of one record out of order (replicas share a consumer, an
// operator replays from an earlier point), delivered twice, or without a scope. Each record is counted once and
// ends as its newest event describes it.
import { IdentityEvents, TicketEvents, TicketSatisfactionEvents } from '@switchboard/contracts'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { IDENTITY_PROJECTION } from '../../src/consumers/identity.consumer.ts'
import { TICKETS_PROJECTION } from '../../src/consumers/tickets.consumer.ts'
import { findDaily } from '../../src/db/daily-stats.repository.ts'
import { ACME, applied, publish, statisticsApp } from '../helpers/app.ts'

const facts = (ticket_id: string, status: string, created_at: string, category = 'general') => ({
  ticket_id,
  customer_id: 'u-c1',
  agent_id: null,
  category,
  priority: 'normal',
  status,
  source: 'web',
  created_at,
})

inEachStorageMode(t, 'projection ordering', async (t, mode) => {
  const { svc } = await statisticsApp(t, mode)
  const ticketRow = (id: string) =>
    svc.db.selectFrom('tickets').selectAll().where('ticket_id', '=', id).executeTakeFirst()

  t.test('a status change before its ticket is retried; the ticket is counted once', async (t) => {
    const created = '2020-03-01T10:00:00.000Z'
    // the change first: nothing to apply it to yet, so it is redelivered until the ticket is there
    const change = await publish(svc, TicketEvents.statusChanged, {
      ticket_id: 'o-1',
      from: 'open',
      to: 'resolved',
      resolved_at: '2020-03-01T11:00:00.000Z',
      closed_at: null,
    })
    const update = await publish(svc, TicketEvents.updated, {
      ticket: facts('o-1', 'resolved', created, 'billing'),
      changed: ['status'],
    })
    // the creation event arrives last and older: it neither counts the ticket again nor undoes the update
    const creation = await publish(
      svc,
      TicketEvents.created,
      facts('o-1', 'open', created),
      ACME,
      new Date(Date.parse(update.occurred_at) - 1000).toISOString(),
    )
    await applied(svc, TICKETS_PROJECTION, creation.id)
    await applied(svc, TICKETS_PROJECTION, change.id)
    t.match(await ticketRow('o-1'), {
      status: 'resolved',
      category: 'billing',
      resolved_at: '2020-03-01T11:00:00.000Z',
      created_at: created,
    })
    t.match(await findDaily(svc.db, '2020-03-01'), { total_tickets: 1, resolved_tickets: 1 })
  })

  t.test('a replayed event is applied once; a removed rating stays removed', async (t) => {
    const rating = {
      satisfaction_id: 'r-1',
      ticket_id: 'o-1',
      customer_id: 'u-c1',
      agent_id: null,
      rating: 4,
      category: 'overall',
      source: 'api',
      rated_at: '2020-03-02T09:00:00.000Z',
    }
    const rated = await publish(svc, TicketSatisfactionEvents.rated, rating)
    const removed = await publish(svc, TicketSatisfactionEvents.removed, rating)
    await svc.bus.publish(rated.type, rated, { msgId: `${rated.id}-replayed` })
    const marker = await publish(svc, TicketEvents.commented, { ticket_id: 'o-1', comment_id: 'k', type: 'comment' })
    await applied(svc, TICKETS_PROJECTION, marker.id)
    t.match(await svc.db.selectFrom('satisfactions').selectAll().executeTakeFirst(), {
      rating: 4,
      removed: 1,
      version_id: removed.id,
    })
    const resolved = await publish(svc, TicketEvents.statusChanged, {
      ticket_id: 'o-1',
      from: 'resolved',
      to: 'closed',
      resolved_at: '2020-03-01T11:00:00.000Z',
      closed_at: '2020-03-02T00:00:00.000Z',
    })
    await applied(svc, TICKETS_PROJECTION, resolved.id)
    t.match(await findDaily(svc.db, '2020-03-01'), { resolved_tickets: 1 }, 'resolved once, closed or not')
  })

  t.test('identity: an unscoped event updates a known record in place; an unknown one is not placed', async (t) => {
    const customer = { customer_id: 'cu-1', user_id: 'u-1', name: 'x', source: 'web', tags: [] }
    await publish(svc, IdentityEvents.customerUpserted, customer)
    await publish(
      svc,
      IdentityEvents.customerUpserted,
      { ...customer, source: 'phone' },
      { tenant_id: '', workspace_id: '' },
    )
    const nowhere = await publish(
      svc,
      IdentityEvents.customerUpserted,
      { ...customer, customer_id: 'cu-2' },
      { tenant_id: '', workspace_id: '' },
    )
    await applied(svc, IDENTITY_PROJECTION, nowhere.id)
    t.match(await svc.db.selectFrom('customers').selectAll().where('customer_id', '=', 'cu-1').executeTakeFirst(), {
      ...ACME,
      source: 'phone',
    })
    t.notOk(await svc.db.selectFrom('customers').selectAll().where('customer_id', '=', 'cu-2').executeTakeFirst())
  })

  t.test('an agent status change before the agent is retried', async (t) => {
    const change = await publish(svc, IdentityEvents.agentStatusChanged, {
      agent_id: 'ag-9',
      user_id: 'u-9',
      status: 'busy',
      previous: 'offline',
    })
    await publish(
      svc,
      IdentityEvents.agentUpserted,
      {
        agent_id: 'ag-9',
        user_id: 'u-9',
        name: 'Nine',
        department: '',
        skills: [],
        max_concurrent: 5,
        status: 'offline',
        rating: 0,
        avg_response_time: 12.5,
      },
      ACME,
      // made before the change, delivered after it
      new Date(Date.parse(change.occurred_at) - 1000).toISOString(),
    )
    const row = await waitFor(async () => {
      const r = await svc.db.selectFrom('agents').selectAll().where('agent_id', '=', 'ag-9').executeTakeFirst()
      return r?.status === 'busy' ? r : undefined
    }, 10_000)
    t.match(row, { status: 'busy', avg_response_time: 12.5 })
  })
})
