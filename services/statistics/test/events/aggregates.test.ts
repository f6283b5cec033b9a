// The aggregates the projections keep (per scope and day, status, agent and day, category/priority and day) equal
// the raw rows summed (the migration's set-based build), after a world published out of order and after the changes
// that move a ticket between rows: reassigned, recategorised, its rating changed and removed, a session reopened.
import { ConversationEvents, TicketEvents, TicketSatisfactionEvents } from '@switchboard/contracts'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { CONVERSATIONS_PROJECTION } from '../../src/consumers/conversations.consumer.ts'
import { TICKETS_PROJECTION } from '../../src/consumers/tickets.consumer.ts'
import { aggregatesDrift } from '../../src/db/aggregates-check.ts'
import { ACME, applied, publish, statisticsApp } from '../helpers/app.ts'
import { at, publishWorld, session, ticket } from '../helpers/world.ts'

inEachStorageMode(t, 'aggregates', async (t, mode) => {
  const { svc } = await statisticsApp(t, mode)
  await publishWorld(svc)
  t.same(await aggregatesDrift(svc.db, svc.dialect), [], 'after the world: equal to the raw rows summed')

  // t3 (resolved, u-a1's, billing) moves to u-a2 and technical, priority urgent; t2 is resolved now
  await publish(svc, TicketEvents.updated, {
    ticket: ticket('t3', 'u-a2', 'technical', 'urgent', 'resolved', at(1, '08:00:00')),
    changed: ['agent_id', 'category', 'priority'],
  })
  await publish(svc, TicketEvents.statusChanged, {
    ticket_id: 't2',
    from: 'assigned',
    to: 'resolved',
    resolved_at: at(0, '02:00:00'),
    closed_at: null,
  })
  const rating = { ticket_id: 't3', customer_id: 'u-c1', agent_id: null, category: 'overall', source: 'api' }
  await publish(svc, TicketSatisfactionEvents.changed, {
    ...rating,
    satisfaction_id: 'r1',
    rating: 4,
    rated_at: at(1, '13:00:00'),
    previous_rating: 5,
  })
  const lastTicket = await publish(svc, TicketSatisfactionEvents.removed, {
    ...rating,
    satisfaction_id: 'r1',
    rating: 4,
    rated_at: at(1, '13:00:00'),
  })
  const lastSession = await publish(
    svc,
    ConversationEvents.sessionReopened,
    session('s2', 'active', at(1, '09:00:00')),
    ACME,
  )
  await applied(svc, TICKETS_PROJECTION, lastTicket.id)
  await applied(svc, CONVERSATIONS_PROJECTION, lastSession.id)
  t.same(await aggregatesDrift(svc.db, svc.dialect), [], 'after the changes: still equal')

  const perf = await svc.db
    .selectFrom('ticket_agent_days')
    .select(['agent_id', 'day', 'total', 'resolved', 'resolution_count'])
    .where('agent_id', '=', 'u-a2')
    .where('day', '=', at(1, '08:00:00').slice(0, 10))
    .executeTakeFirst()
  t.match(perf, { total: 1, resolved: 1, resolution_count: 1 }, "t3's day moved to its new agent")
})
