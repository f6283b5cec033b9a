import type { MessageFacts, SessionFacts } from '@switchboard/contracts'
import { type ConsumerDef, systemCaller } from '@switchboard/platform'
import { recordFirstResponse } from '../commands/sla-hooks.ts'
import type { TicketsService } from '../context.ts'
import { awaitingFirstResponse, upsertSessionLink } from '../db/sla-projections.repository.ts'

/**
 * The conversation side of a ticket's first response. Session events (created, linked, assigned, …) tell which
 * ticket a session continues (kept in sla_session_tickets); an agent's message in a session is the first response
 * of the open tickets tied to it, through that link or the ticket's own `session_id`, if sent after the ticket
 * was opened. Idempotent by itself, without an inbox row for the many events it ignores: the link is an upsert,
 * the first response is stamped only where none is, and a violation is recorded (and announced) once by its
 * unique key. One filter subject, in stream order, so a session's link is seen before its later messages.
 */
export const slaConversationsConsumer: ConsumerDef<TicketsService> = {
  durable: 'tickets-sla-conversations',
  stream: 'CONVERSATIONS',
  subjects: ['conversations.>'],
  idempotency: 'handler',
  async handle(svc, { envelope }) {
    const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
    if (!scope.tenant_id || !scope.workspace_id) return
    if (envelope.type.startsWith('conversations.session.')) {
      const data = envelope.data as SessionFacts | { session: SessionFacts }
      const s = 'session' in data ? data.session : data
      if (!s?.session_id) return
      await upsertSessionLink(
        svc.db,
        scope,
        { session_id: s.session_id, customer_id: s.customer_id, ticket_id: s.ticket_id },
        envelope.occurred_at,
      )
      return
    }
    if (envelope.type !== 'conversations.message.created') return
    const m = envelope.data as MessageFacts
    if (m.sender !== 'agent') return
    // Most agent messages answer a conversation with no ticket waiting for its first response: found by two reads,
    // with no transaction opened for them. The stamp itself is conditional (first_response_at still null), so a
    // ticket answered between the read and the transaction is left as it is.
    const waiting = await awaitingFirstResponse(svc.db, scope, m.session_id, m.created_at)
    if (waiting.length === 0) return
    await svc.transaction(systemCaller(scope), async (tx) => {
      for (const ticket of waiting) await recordFirstResponse(tx, ticket, m.created_at)
    })
  },
}
