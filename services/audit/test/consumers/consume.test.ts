import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { auditApp, auditEvent } from '../helpers/app.ts'

inEachStorageMode(t, 'audit consumer', async (t, mode) => {
  const { svc } = await auditApp(t, mode)
  const db = svc.db
  const rowsOf = (eventId: string) => db.selectFrom('audit_logs').selectAll().where('event_id', '=', eventId).execute()
  const stored = (eventId: string) => waitFor(async () => ((await rowsOf(eventId)).length > 0 ? true : undefined))

  t.test('stores a published record once, even when it is delivered twice', async (t) => {
    const event = auditEvent(
      { action: 'tickets.update', request_json: { title: 'x', client_secret: 'shh' } },
      { tenant_id: 'acme', workspace_id: 'support' },
    )
    await svc.bus.publish('audit.tickets.recorded', event)
    await stored(event.id)
    // Another message id gets past the bus's dedup window, so the consumer really sees the event again.
    const again = await svc.bus.publish('audit.tickets.recorded', event, { msgId: `${event.id}-again` })
    t.equal(again.duplicate, false)
    const marker = auditEvent({ action: 'marker.create' })
    await svc.bus.publish('audit.identity.recorded', marker)
    await stored(marker.id)
    const rows = await rowsOf(event.id)
    t.equal(rows.length, 1)
    t.match(rows[0], { action: 'tickets.update', tenant_id: 'acme', workspace_id: 'support' })
    t.match(String(JSON.stringify(rows[0]!.request_json)), /REDACTED/, 'masked again on the way in')
    t.notMatch(String(JSON.stringify(rows[0]!.request_json)), /shh/)
  })

  t.test('records that are not audit records, or not valid ones, are not stored', async (t) => {
    const other = { ...auditEvent({}), type: 'audit.something.else' }
    const invalid = { ...auditEvent({}), data: { action: 'broken' } } as unknown as ReturnType<typeof auditEvent>
    await svc.bus.publish('audit.tickets.recorded', other)
    await svc.bus.publish('audit.tickets.recorded', invalid)
    const marker = auditEvent({ action: 'marker2.create' })
    await svc.bus.publish('audit.tickets.recorded', marker)
    await stored(marker.id)
    t.equal((await rowsOf(other.id)).length, 0)
    t.equal((await rowsOf(invalid.id)).length, 0)
  })
})
