import { ConversationEvents as C, type SessionFacts } from '@switchboard/contracts'
import { type ConsumedEvent, type ConsumerDef, type ConsumerTx, on } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import type { TicketsDatabase } from '../db/database.ts'
import { unlinkTicketSession, upsertTicketSession } from '../db/ticket-sessions.repository.ts'

export const TICKET_SESSIONS_CONSUMER = 'tickets-conversations'

/**
 * The conversations a ticket continues (GET /api/tickets/:id/conversations), from conversations' session events:
 * a session that carries a `ticket_id` is kept (as its newest event describes it), one that no longer does is
 * dropped; a released session is kept without the agent who let it go (as the event says). Rebuilt by replay of the
 * CONVERSATIONS stream; each event applied once (inbox), only if newer. Each event is checked against its own
 * contract by the platform (one off its contract is dead-lettered at once, never skipped).
 */
export const ticketSessionsProjection: ConsumerDef<TicketsService> = {
  durable: TICKET_SESSIONS_CONSUMER,
  stream: 'CONVERSATIONS',
  subjects: ['conversations.session.>'],
  idempotency: 'inbox',
  handlers: [
    on(C.sessionCreated, (event, tx) => project(event, event.data, tx)),
    on(C.sessionClosed, (event, tx) => project(event, event.data, tx)),
    on(C.sessionReopened, (event, tx) => project(event, event.data, tx)),
    on(C.sessionLinked, (event, tx) => project(event, event.data, tx)),
    on(C.sessionAssigned, (event, tx) => project(event, event.data.session, tx)),
    on(C.sessionTransferred, (event, tx) => project(event, event.data.session, tx)),
    on(C.sessionReleased, (event, tx) => project(event, event.data.session, tx)),
  ],
}

/** The session an event describes (whole, or under `session` in assigned, transferred and released). */
async function project({ envelope }: ConsumedEvent<unknown>, s: SessionFacts, tx: ConsumerTx<TicketsDatabase>) {
  const at = envelope.occurred_at
  if (!s.ticket_id) {
    await unlinkTicketSession(tx.db, s.session_id, at)
    return
  }
  await upsertTicketSession(tx.db, {
    session_id: s.session_id,
    ticket_id: s.ticket_id,
    status: s.status,
    channel: s.channel,
    subject: s.subject,
    customer_id: s.customer_id,
    agent_id: s.agent_id,
    started_at: s.started_at,
    last_message_at: s.last_message_at,
    ended_at: s.ended_at,
    tenant_id: envelope.tenant_id,
    workspace_id: envelope.workspace_id,
    event_at: at,
  })
}
