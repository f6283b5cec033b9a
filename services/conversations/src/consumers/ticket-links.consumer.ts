import { ConversationEvents, TicketEvents } from '@switchboard/contracts'
import { type ConsumerDef, nowIso, on } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import { findSessionRowForUpdate, toSession, updateSession } from '../db/sessions.repository.ts'
import { sessionFacts } from '../domain/session-facts.ts'

export const TICKET_LINKS_DURABLE = 'conversations-ticket-links'

/**
 * A ticket created to continue a conversation (`session_id`): the session gets its `ticket_id` and announces it
 * with `conversations.session.linked` (tickets' projection of linked conversations and the console follow it).
 * Only a session of the ticket's scope and of the ticket's customer is linked — anything else is another tenant's or
 * another customer's, and is left alone. Applied once (inbox). When several tickets continue one session, the link
 * applied last stands (delivery order, which a redelivery can change); a link already in place emits nothing.
 */
export const ticketLinks: ConsumerDef<ConversationsService> = {
  durable: TICKET_LINKS_DURABLE,
  stream: 'TICKETS',
  subjects: [TicketEvents.sessionLinked.type],
  idempotency: 'inbox',
  handlers: [
    on(TicketEvents.sessionLinked, async ({ envelope, data: link }, tx, svc) => {
      if (!envelope.tenant_id || !envelope.workspace_id) return
      const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
      const row = await findSessionRowForUpdate(tx, link.session_id, scope)
      if (!row || row.customer_id !== link.customer_id || row.ticket_id === link.ticket_id) {
        svc.log.debug({ component: TICKET_LINKS_DURABLE, ...link, found: Boolean(row) }, 'ticket link not applied')
        return
      }
      // updated_at: the inbox's last activity, which a resync (changed_since) finds it by
      await updateSession(tx.db, row.id, { ticket_id: link.ticket_id, updated_at: nowIso() })
      await tx.emit(
        ConversationEvents.sessionLinked,
        sessionFacts(toSession({ ...row, ticket_id: link.ticket_id })),
        scope,
      )
    }),
  ],
}
