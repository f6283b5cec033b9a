import type { Static } from '@sinclair/typebox'
import { TicketEvents, TicketSatisfactionEvents, TicketSlaEvents } from '@switchboard/contracts'
import type { Delivery } from '@switchboard/events'
import { type ConsumedEvent, nowIso, on, type Scope, type Tx, type Version, versionOf } from '@switchboard/platform'
import { bumpDaily } from '../db/daily-stats.repository.ts'
import type { StatisticsDatabase } from '../db/database.ts'
import {
  changeTicketStatus,
  preloadTickets,
  projectSatisfaction,
  projectTicket,
  recordViolation,
} from '../db/tickets.repository.ts'
import type { StatsTx, UnitOfWork } from '../db/unit-of-work.ts'
import { dayOf } from '../domain/dates.ts'
import { projection } from './projection.ts'
import { scopeOfEvent } from './scope.ts'

export const TICKETS_PROJECTION = 'statistics-tickets'

type Rating = ConsumedEvent<Static<typeof TicketSatisfactionEvents.rated.data>>

/** A rating, whole (rated, changed, removed: each carries it); `removed` marks a removal. */
async function rating(event: Rating, tx: StatsTx) {
  const d = event.data
  await projectSatisfaction(tx, {
    satisfaction_id: d.satisfaction_id,
    // a conversation's rating from the widget may have no ticket: kept (and counted) all the same
    ticket_id: d.ticket_id ?? '',
    ...requireScope(event),
    rating: d.rating,
    created_at: new Date(d.rated_at).toISOString(),
    removed: event.envelope.type === TicketSatisfactionEvents.removed.type ? 1 : 0,
    ...versionOf(event.envelope),
  })
}

/**
 * tickets' events → the tickets, ratings and SLA violations read models, and DailyStats' total_tickets (a ticket's
 * first event), resolved_tickets (the change that set its resolved_at) and sla_violations (a new violation), each on
 * the day of the record's own timestamp, so a replay moves the same days. Applied once (inbox); whole-record
 * events newest-wins. Comments, session links and surveys move no statistic.
 */
export const ticketsProjection = projection({
  durable: TICKETS_PROJECTION,
  stream: 'TICKETS',
  subjects: ['tickets.>'],
  handlers: [
    on(TicketEvents.created, (event, tx) =>
      ticketFacts(tx, requireScope(event), event.data, versionOf(event.envelope)),
    ),
    on(TicketEvents.updated, (event, tx) =>
      ticketFacts(tx, requireScope(event), event.data.ticket, versionOf(event.envelope)),
    ),
    on(TicketEvents.statusChanged, async (event, tx) => {
      const d = event.data
      const resolvedAt = d.resolved_at ? new Date(d.resolved_at).toISOString() : null
      const change = await changeTicketStatus(tx, d.ticket_id, d.to, versionOf(event.envelope), resolvedAt)
      // replicas share this consumer: a change may come before the ticket's creation, so it is retried
      if (!change.found) throw new Error(`ticket ${d.ticket_id} not projected yet`)
      if (resolvedAt && change.resolved) bumpDaily(tx.work, dayOf(resolvedAt), 'resolved_tickets', nowIso())
    }),
    on(TicketSatisfactionEvents.rated, rating),
    on(TicketSatisfactionEvents.changed, rating),
    on(TicketSatisfactionEvents.removed, rating),
    on(TicketSlaEvents.violated, async (event, tx) => {
      const d = event.data
      const violatedAt = new Date(d.violated_at).toISOString()
      const row = { violation_id: d.violation_id, ticket_id: d.ticket_id, ...requireScope(event) }
      if (await recordViolation(tx, { ...row, violated_at: violatedAt })) {
        bumpDaily(tx.work, dayOf(violatedAt), 'sla_violations', nowIso())
      }
    }),
  ],
  prepare: prepareTickets,
})

/** The events that read and write a ticket's row, and where their data names it (checked by then). */
const TICKET_OF: Record<string, (data: any) => unknown> = {
  [TicketEvents.created.type]: (d) => d?.ticket_id,
  [TicketEvents.updated.type]: (d) => d?.ticket?.ticket_id,
  [TicketEvents.statusChanged.type]: (d) => d?.ticket_id,
}

/** Before a batch's handlers run: the tickets its events name, read once (db/tickets.repository.ts). */
async function prepareTickets(work: UnitOfWork, events: readonly Delivery[], tx: Tx<StatisticsDatabase>) {
  const ids = events.flatMap(({ envelope }) => {
    const id = TICKET_OF[envelope.type]?.(envelope.data)
    return typeof id === 'string' ? [id] : []
  })
  if (ids.length > 0) await preloadTickets(tx, work, ids)
}

async function ticketFacts(
  tx: StatsTx,
  scope: Scope,
  t: {
    ticket_id: string
    agent_id: string | null
    category: string
    priority: string
    status: string
    created_at: string
  },
  v: Version,
) {
  const createdAt = new Date(t.created_at).toISOString()
  const made = await projectTicket(tx, {
    ticket_id: t.ticket_id,
    ...scope,
    agent_id: t.agent_id,
    category: t.category,
    priority: t.priority,
    status: t.status,
    created_at: createdAt,
    ...v,
  })
  if (made) bumpDaily(tx.work, dayOf(createdAt), 'total_tickets', nowIso())
}

/** tickets always scopes its events by the record's own scope; one without is a bug upstream, dead-lettered. */
function requireScope({ envelope }: Delivery): Scope {
  const scope = scopeOfEvent(envelope)
  if (!scope) throw new Error(`${envelope.type} ${envelope.id} has no scope`)
  return scope
}
