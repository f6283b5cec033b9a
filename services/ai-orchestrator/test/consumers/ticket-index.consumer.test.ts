import { TicketEvents } from '@switchboard/contracts'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { TICKET_INDEX_CONSUMER } from '../../src/consumers/ticket-index.consumer.ts'
import { ACME, aiApp, applied, GLOBEX, publish } from '../helpers/app.ts'

const facts = (ticket_id: string, over: Record<string, unknown> = {}) => ({
  ticket_id,
  title: `Ticket ${ticket_id}`,
  customer_id: 'cust-1',
  agent_id: null,
  category: 'general',
  priority: 'normal',
  status: 'open',
  source: 'web',
  created_at: '2026-11-01T10:00:00.000Z',
  ...over,
})

inEachStorageMode(t, 'the ticket index consumer', async (t, mode) => {
  const { svc } = await aiApp(t, mode)
  const row = (id: string) =>
    svc.db.selectFrom('ai_ticket_index').selectAll().where('ticket_id', '=', id).executeTakeFirst()
  const at = (iso: string) => new Date(iso).toISOString()

  t.test('created, then updated: the ticket in its own scope, as the newest event says', async (t) => {
    const created = await publish(svc, TicketEvents.created, facts('t-1', { title: 'Printer on fire' }), GLOBEX)
    await applied(svc, TICKET_INDEX_CONSUMER, created.id)
    t.match(await row('t-1'), {
      tenant_id: 'globex',
      workspace_id: 'main',
      title: 'Printer on fire',
      status: 'open',
      category: 'general',
      priority: 'normal',
      version_id: created.id,
    })
    t.equal(at((await row('t-1'))!.created_at), '2026-11-01T10:00:00.000Z')
    const updated = await publish(
      svc,
      TicketEvents.updated,
      {
        ticket: facts('t-1', { title: 'Printer still on fire', priority: 'urgent', status: 'assigned' }),
        changed: ['title'],
      },
      GLOBEX,
    )
    await applied(svc, TICKET_INDEX_CONSUMER, updated.id)
    t.match(await row('t-1'), { title: 'Printer still on fire', priority: 'urgent', status: 'assigned' })
  })

  t.test('an older event arriving late changes nothing; a replay is applied once', async (t) => {
    const before = await row('t-1')
    const late = await publish(
      svc,
      TicketEvents.updated,
      { ticket: facts('t-1', { title: 'Old title', status: 'open' }), changed: ['title'] },
      GLOBEX,
      '2020-01-01T00:00:00.000Z',
    )
    await applied(svc, TICKET_INDEX_CONSUMER, late.id)
    t.same(await row('t-1'), before)
  })

  t.test('a status change before its ticket is retried until the ticket is there', async (t) => {
    const change = await publish(svc, TicketEvents.statusChanged, {
      ticket_id: 't-2',
      from: 'open',
      to: 'resolved',
      resolved_at: '2026-11-02T10:00:00.000Z',
      closed_at: null,
    })
    const created = await publish(
      svc,
      TicketEvents.created,
      facts('t-2', { title: 'Refund please' }),
      ACME,
      new Date(Date.parse(change.occurred_at) - 1000).toISOString(),
    )
    await applied(svc, TICKET_INDEX_CONSUMER, created.id)
    await applied(svc, TICKET_INDEX_CONSUMER, change.id)
    t.match(await row('t-2'), { title: 'Refund please', status: 'resolved', tenant_id: 'acme', version_id: change.id })
  })

  t.test('events without a title (producers before it): the last title seen is kept', async (t) => {
    const { title: _, ...untitled } = facts('t-3')
    const created = await publish(svc, TicketEvents.created, untitled)
    await applied(svc, TICKET_INDEX_CONSUMER, created.id)
    t.match(await row('t-3'), { title: '', status: 'open' })
    const titled = await publish(svc, TicketEvents.updated, { ticket: facts('t-3', { title: 'Named' }), changed: [] })
    await applied(svc, TICKET_INDEX_CONSUMER, titled.id)
    const again = await publish(svc, TicketEvents.updated, {
      ticket: { ...untitled, status: 'in_progress' },
      changed: ['status'],
    })
    await applied(svc, TICKET_INDEX_CONSUMER, again.id)
    t.match(await row('t-3'), { title: 'Named', status: 'in_progress' })
  })

  t.test('other ticket events are skipped', async (t) => {
    const closed = await publish(svc, TicketEvents.closed, {
      ticket_id: 't-1',
      reason: '',
      closed_at: '2026-11-03T00:00:00.000Z',
    })
    await applied(svc, TICKET_INDEX_CONSUMER, closed.id)
    t.equal((await svc.db.selectFrom('ai_ticket_index').select('ticket_id').execute()).length, 3)
  })
})
