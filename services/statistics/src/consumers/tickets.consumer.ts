import { TicketEvents, TicketSatisfactionEvents, TicketSlaEvents } from '@switchboard/contracts'
import type { Delivery } from '@switchboard/events'
import { type ConsumerDef, type Scope, type Tx, type Version, versionOf } from '@switchboard/platform'
import type { StatisticsService } from '../context.ts'
import { bumpDaily } from '../db/daily-stats.repository.ts'
import type { StatisticsDatabase } from '../db/database.ts'
import {
  changeTicketStatus,
  preloadTickets,
  projectSatisfaction,
  projectTicket,
  recordViolation,
} from '../db/tickets.repository.ts'
import { dayOf } from '../domain/dates.ts'
import { payload } from './payload.ts'
import { scopeOfEvent } from './scope.ts'

export const TICKETS_PROJECTION = 'statistics-tickets'

/**
 * tickets' events → the tickets, ratings and SLA violations read models, and DailyStats' total_tickets (a ticket's
 * first event), resolved_tickets (the change that set its resolved_at) and sla_violations (a new violation), each on
 * the day of the record's own timestamp, so a replay moves the same days. Applied once (inbox); whole-record
 * events newest-wins.
 */
export const ticketsProjection: ConsumerDef<StatisticsService> = {
  durable: TICKETS_PROJECTION,
  stream: 'TICKETS',
  subjects: ['tickets.>'],
  idempotency: 'inbox',
  options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver }),
  async handle(svc, { envelope }, tx) {
    const v = versionOf(envelope)
    const scope = scopeOfEvent(envelope)
    const now = new Date().toISOString()
    switch (envelope.type) {
      case TicketEvents.created.type:
        return ticketFacts(svc, tx, requireScope(scope, envelope), payload(TicketEvents.created, envelope.data), v, now)
      case TicketEvents.updated.type: {
        const d = payload(TicketEvents.updated, envelope.data)
        return ticketFacts(svc, tx, requireScope(scope, envelope), d.ticket, v, now)
      }
      case TicketEvents.statusChanged.type: {
        const d = payload(TicketEvents.statusChanged, envelope.data)
        const resolvedAt = d.resolved_at ? new Date(d.resolved_at).toISOString() : null
        const change = await changeTicketStatus(tx.db, svc.dialect, d.ticket_id, d.to, v, resolvedAt)
        // replicas share this consumer: a change may come before the ticket's creation, so it is retried
        if (!change.found) throw new Error(`ticket ${d.ticket_id} not projected yet`)
        if (resolvedAt && change.resolved) await bumpDaily(tx.db, dayOf(resolvedAt), 'resolved_tickets', now)
        return
      }
      case TicketSatisfactionEvents.rated.type:
      case TicketSatisfactionEvents.changed.type:
      case TicketSatisfactionEvents.removed.type: {
        const d = payload(TicketSatisfactionEvents.rated, envelope.data)
        await projectSatisfaction(tx.db, svc.dialect, {
          satisfaction_id: d.satisfaction_id,
          // a conversation's rating from the widget may have no ticket: kept (and counted) all the same
          ticket_id: d.ticket_id ?? '',
          ...requireScope(scope, envelope),
          rating: d.rating,
          created_at: new Date(d.rated_at).toISOString(),
          removed: envelope.type === TicketSatisfactionEvents.removed.type ? 1 : 0,
          ...v,
        })
        return
      }
      case TicketSlaEvents.violated.type: {
        const d = payload(TicketSlaEvents.violated, envelope.data)
        const violatedAt = new Date(d.violated_at).toISOString()
        const row = { violation_id: d.violation_id, ticket_id: d.ticket_id, ...requireScope(scope, envelope) }
        if (await recordViolation(tx.db, { ...row, violated_at: violatedAt })) {
          await bumpDaily(tx.db, dayOf(violatedAt), 'sla_violations', now)
        }
        return
      }
    }
    // comments, session links and surveys move no statistic
  },
}

/** The events that read and write a ticket's row, and where their data names it. */
const TICKET_OF: Record<string, (data: any) => unknown> = {
  [TicketEvents.created.type]: (d) => d?.ticket_id,
  [TicketEvents.updated.type]: (d) => d?.ticket?.ticket_id,
  [TicketEvents.statusChanged.type]: (d) => d?.ticket_id,
}

/** Before a batch's handlers run: the tickets its events name, read once (db/tickets.repository.ts). */
export async function prepareTickets(svc: StatisticsService, db: Tx<StatisticsDatabase>['db'], batch: Delivery[]) {
  const ids = batch.flatMap(({ envelope }) => {
    const id = TICKET_OF[envelope.type]?.(envelope.data)
    return typeof id === 'string' ? [id] : []
  })
  if (ids.length > 0) await preloadTickets(db, svc.dialect, ids)
}

async function ticketFacts(
  svc: StatisticsService,
  tx: Tx<StatisticsDatabase>,
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
  now: string,
) {
  const createdAt = new Date(t.created_at).toISOString()
  const made = await projectTicket(tx.db, svc.dialect, {
    ticket_id: t.ticket_id,
    ...scope,
    agent_id: t.agent_id,
    category: t.category,
    priority: t.priority,
    status: t.status,
    created_at: createdAt,
    ...v,
  })
  if (made) await bumpDaily(tx.db, dayOf(createdAt), 'total_tickets', now)
}

/** tickets always scopes its events by the record's own scope; one without is a bug upstream, dead-lettered. */
function requireScope(scope: Scope | null, envelope: { type: string; id: string }): Scope {
  if (!scope) throw new Error(`${envelope.type} ${envelope.id} has no scope`)
  return scope
}
