// Group commit (the platform's consumer `batch` option, consumers/projection.ts): a batch of tickets' events applied in one transaction — the tickets it names
// read once, changed in memory, written at the flush; the counters summed — ends exactly where the same events
// applied one by one by the projection's statements end: the same ticket rows, aggregates and DailyStats, newest wins inside a batch too, a copy of
// an event in the batch applied once, and an event that cannot be applied yet fails alone.
import type { EventDef } from '@switchboard/contracts'
import { TicketEvents } from '@switchboard/contracts'
import { type Delivery, newEnvelope } from '@switchboard/events'
import { replayInbox } from '@switchboard/platform'
import { inEachStorageMode } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import { PROJECTIONS } from '../../src/consumers/projections.ts'
import { TICKETS_PROJECTION } from '../../src/consumers/tickets.consumer.ts'
import type { StatisticsService } from '../../src/context.ts'
import { AGGREGATES } from '../../src/db/aggregates.repository.ts'
import { aggregatesDrift } from '../../src/db/aggregates-check.ts'
import { ACME, statisticsApp } from '../helpers/app.ts'
import { at, ticket } from '../helpers/world.ts'

const tickets = PROJECTIONS.find((p) => p.durable === TICKETS_PROJECTION)!
/** the same projection without its batch cache: every ticket read and written by its own statements */
const { prepare: _, ...statementsBatch } = tickets.batch!
const statements = { ...tickets, batch: statementsBatch }

let seq = 0
/** A delivery of `def` with `data`, occurred at `occurred_at` (its place in newest-wins). */
function delivery<D extends EventDef>(def: D, data: unknown, occurred_at: string): Delivery {
  const envelope = newEnvelope({ type: def.type, ...ACME, actor: { user_id: 'admin-1', kind: 'admin' }, data })
  envelope.occurred_at = occurred_at
  return { subject: def.type, envelope, seq: ++seq, deliveryCount: 1, headers: {} }
}

const resolve = (ticket_id: string, from: string, to: string, resolved_at: string | null) => ({
  ticket_id,
  from,
  to,
  resolved_at,
  closed_at: null,
})

/** Everything the tickets projection writes, timestamps as instants, in one order. */
async function stateOf(svc: StatisticsService) {
  const db = svc.db as unknown as Kysely<any>
  const norm = (rows: Record<string, unknown>[]) =>
    rows.map((r) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [
          k,
          v instanceof Date || (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)) ? new Date(v).getTime() : v,
        ]),
      ),
    )
  const state: Record<string, unknown> = {
    tickets: norm(await db.selectFrom('tickets').selectAll().orderBy('ticket_id').execute()),
    daily: norm(
      await db
        .selectFrom('daily_stats')
        .select(['date', 'total_tickets', 'resolved_tickets'])
        .where((eb) => eb.or([eb('total_tickets', '>', 0), eb('resolved_tickets', '>', 0)]))
        .orderBy('date')
        .execute(),
    ),
  }
  for (const [table, spec] of Object.entries(AGGREGATES)) {
    if (!table.startsWith('ticket_')) continue
    let q = db.selectFrom(table).selectAll()
    for (const k of spec.keys) q = q.orderBy(k)
    // counters as numbers (PostgreSQL's numeric comes as a string); a row moved to zero and one never made are alike
    state[table] = norm(await q.execute())
      .map((r) => ({ ...r, ...Object.fromEntries(spec.counters.map((c) => [c, Number(r[c])])) }))
      .filter((r) => spec.counters.some((c) => r[c] !== 0))
  }
  return state
}

inEachStorageMode(t, 'group commit', async (t, mode) => {
  const together = (await statisticsApp(t, mode)).svc
  const oneByOne = (await statisticsApp(t, mode)).svc

  const created = delivery(
    TicketEvents.created,
    ticket('g1', null, 'billing', 'normal', 'open', at(2, '08:00:00')),
    at(2, '08:00:00'),
  )
  const events: Delivery[] = [
    created,
    delivery(
      TicketEvents.updated,
      { ticket: ticket('g1', 'u-a2', 'technical', 'high', 'assigned', at(2, '08:00:00')), changed: ['agent_id'] },
      at(2, '09:00:00'),
    ),
    // older than the update before it: changes nothing
    delivery(
      TicketEvents.updated,
      { ticket: ticket('g1', 'u-a3', 'sales', 'low', 'assigned', at(2, '08:00:00')), changed: ['agent_id'] },
      at(2, '08:30:00'),
    ),
    delivery(TicketEvents.statusChanged, resolve('g1', 'assigned', 'resolved', at(1, '10:00:00')), at(1, '10:00:00')),
    // a later close: status moves, resolved_at stays the first one
    delivery(TicketEvents.statusChanged, resolve('g1', 'resolved', 'closed', at(0, '01:00:00')), at(0, '01:00:00')),
    created, // the same event twice in one batch: applied once
    // an update of g2 before its creation in the same batch: it makes the row, the creation then changes nothing
    delivery(
      TicketEvents.updated,
      { ticket: ticket('g2', 'u-a1', 'billing', 'urgent', 'assigned', at(1, '07:00:00')), changed: ['agent_id'] },
      at(1, '07:30:00'),
    ),
    delivery(
      TicketEvents.created,
      ticket('g2', null, 'billing', 'urgent', 'open', at(1, '07:00:00')),
      at(1, '07:00:00'),
    ),
    delivery(TicketEvents.statusChanged, resolve('g2', 'assigned', 'resolved', at(0, '02:00:00')), at(0, '02:00:00')),
    // an older status change arriving last: resolved_at is set already, the status is newer: nothing moves
    delivery(TicketEvents.statusChanged, resolve('g2', 'open', 'pending', null), at(1, '07:10:00')),
  ]

  const outcomes = await replayInbox(together, tickets, events)
  t.same(
    outcomes.map((o) => o.ok && o.applied),
    [true, true, true, true, true, false, true, true, true, true],
    'one transaction: each event applied once, the copy seen already',
  )
  for (const d of events) {
    const [o] = await replayInbox(oneByOne, statements, [d])
    t.ok(o?.ok, `${d.envelope.type} applied alone`)
  }

  const state = await stateOf(together)
  t.same(state, await stateOf(oneByOne), 'the batch ends where the events one by one end')
  t.match(state.tickets, [
    { ticket_id: 'g1', agent_id: 'u-a2', category: 'technical', priority: 'high', status: 'closed' },
    { ticket_id: 'g2', agent_id: 'u-a1', status: 'resolved' },
  ])
  const [g1, g2] = state.tickets as Array<{ resolved_at: number; created_at: number }>
  t.equal(g1!.resolved_at, Date.parse(at(1, '10:00:00')), "g1's first resolution kept")
  t.equal(g2!.created_at, Date.parse(at(1, '07:00:00')))
  t.same(await aggregatesDrift(together.db, together.dialect), [], 'aggregates equal the raw rows')

  // a change of a ticket not projected yet fails alone; the rest of its batch is applied
  const orphan = delivery(
    TicketEvents.statusChanged,
    resolve('g9', 'open', 'resolved', at(0, '03:00:00')),
    at(0, '03:00:00'),
  )
  const g3 = delivery(
    TicketEvents.created,
    ticket('g3', null, 'billing', 'low', 'open', at(0, '03:00:00')),
    at(0, '03:00:00'),
  )
  const mixed = await replayInbox(together, tickets, [orphan, g3])
  t.match(mixed[0], { ok: false }, 'the orphan change fails (redelivered later)')
  t.same(mixed[1], { ok: true, applied: true }, 'the other event of its batch applied')
  const rows = await together.db.selectFrom('tickets').select('ticket_id').orderBy('ticket_id').execute()
  t.same(
    rows.map((r) => r.ticket_id),
    ['g1', 'g2', 'g3'],
  )
  t.same(await aggregatesDrift(together.db, together.dialect), [], 'still equal after the fallback')
})
