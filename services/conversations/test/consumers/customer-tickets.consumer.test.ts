import { TicketEvents } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import type { ConversationsService } from '../../src/context.ts'
import { conversationsApp } from '../helpers/app.ts'
import { ACME, QUIET_QUEUE } from '../helpers/queue.ts'

// tickets' ticket events → customer_tickets (a customer's activity): newest wins, a change before its ticket retried.
const tickets = { user_id: 'tickets', kind: 'service' }
const row = (svc: ConversationsService, id: string) =>
  svc.db.selectFrom('customer_tickets').selectAll().where('ticket_id', '=', id).executeTakeFirst()

const facts = (ticket_id: string, status: string, title = 'Refund') => ({
  ticket_id,
  title,
  customer_id: 'u-cust',
  agent_id: null,
  category: 'billing',
  priority: 'normal',
  status,
  source: 'web',
  created_at: '2026-11-27T09:00:00.000Z',
})

inEachStorageMode(t, 'customer tickets projection', async (t, mode) => {
  const { svc } = await conversationsApp(t, mode, { env: { ...QUIET_QUEUE, CONVERSATIONS_CONSUMER_MAX_DELIVER: '20' } })
  let clock = Date.parse('2026-11-27T10:00:00.000Z')
  const tick = () => {
    clock += 1000
    return new Date(clock).toISOString()
  }
  const envelope = (type: string, data: object) => ({
    ...newEnvelope({ type, ...ACME, actor: tickets, data }),
    occurred_at: tick(),
  })

  t.test('a status change that arrives before its ticket is applied once the ticket is', async (t) => {
    const created = envelope(TicketEvents.created.type, facts(`k1-${mode}`, 'open'))
    const changed = envelope(TicketEvents.statusChanged.type, {
      ticket_id: `k1-${mode}`,
      from: 'open',
      to: 'resolved',
      resolved_at: new Date(clock).toISOString(),
      closed_at: null,
    })
    await svc.bus.publish(changed.type, changed)
    await svc.bus.publish(created.type, created)
    const r = await waitFor(async () => {
      const x = await row(svc, `k1-${mode}`)
      return x?.status === 'resolved' ? x : undefined
    }, 15_000)
    t.match(r, { tenant_id: 'acme', workspace_id: 'support', customer_id: 'u-cust', title: 'Refund' })
  })

  t.test('an older event never undoes a newer one', async (t) => {
    const first = envelope(TicketEvents.created.type, facts(`k2-${mode}`, 'open', 'Old title'))
    const newer = envelope(TicketEvents.updated.type, {
      ticket: facts(`k2-${mode}`, 'assigned', 'New title'),
      changed: ['title'],
    })
    await svc.bus.publish(newer.type, newer)
    await waitFor(() => row(svc, `k2-${mode}`))
    await svc.bus.publish(first.type, first)
    // a marker after it: once the marker is in, the older event was handled
    const marker = envelope(TicketEvents.created.type, facts(`k3-${mode}`, 'open'))
    await svc.bus.publish(marker.type, marker)
    await waitFor(() => row(svc, `k3-${mode}`))
    t.match(await row(svc, `k2-${mode}`), { status: 'assigned', title: 'New title' })
  })
})
