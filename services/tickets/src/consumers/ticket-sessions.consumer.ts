import { ConversationEvents, type SessionFacts } from '@switchboard/contracts'
import type { ConsumerDef } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { unlinkTicketSession, upsertTicketSession } from '../db/ticket-sessions.repository.ts'

export const TICKET_SESSIONS_CONSUMER = 'tickets-conversations'

/** The session an event describes: whole in most, under `session` in assigned and transferred. */
function sessionOf(type: string, data: unknown): SessionFacts | undefined {
  if (type === ConversationEvents.sessionAssigned.type || type === ConversationEvents.sessionTransferred.type) {
    return (data as { session?: SessionFacts }).session
  }
  return data as SessionFacts
}

/**
 * The conversations a ticket continues (GET /api/tickets/:id/conversations), from conversations' session events:
 * a session that carries a `ticket_id` is kept (as its newest event describes it), one that no longer does is
 * dropped. Rebuilt by replay of the CONVERSATIONS stream; each event applied once (inbox), only if newer.
 */
export const ticketSessionsProjection: ConsumerDef<TicketsService> = {
  durable: TICKET_SESSIONS_CONSUMER,
  stream: 'CONVERSATIONS',
  subjects: ['conversations.session.>'],
  idempotency: 'inbox',
  async handle(svc, delivery, tx) {
    const { envelope } = delivery
    const s = sessionOf(envelope.type, envelope.data)
    if (!s?.session_id) {
      svc.log.debug({ component: TICKET_SESSIONS_CONSUMER, type: envelope.type }, 'no session in the event; skipped')
      return
    }
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
  },
}
