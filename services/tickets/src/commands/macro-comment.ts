import { TicketEvents } from '@switchboard/contracts'
import { newId, nowIso, type Tx } from '@switchboard/platform'
import { insertComment } from '../db/comments.repository.ts'
import type { TicketsDatabase } from '../db/database.ts'
import type { TicketComment } from '../schemas/comments.schemas.ts'
import type { Ticket } from '../schemas/tickets.schemas.ts'

/**
 * A `system` comment by the caller on a ticket already read in `tx`, announced like any comment
 * (`tickets.comment.added`): what applying a macro leaves in the thread. A system comment is not an answer to
 * the customer, so it does not count as the ticket's first response.
 */
export async function addSystemComment(
  tx: Tx<TicketsDatabase>,
  ticket: Ticket,
  content: string,
): Promise<TicketComment> {
  const comment: TicketComment = {
    id: newId(),
    ticket_id: ticket.id,
    author_id: tx.caller.actor.user_id,
    content,
    type: 'system',
    created_at: nowIso(),
  }
  await insertComment(tx.db, comment, ticket)
  await tx.emit(
    TicketEvents.commented,
    { ticket_id: ticket.id, comment_id: comment.id, type: comment.type },
    { tenant_id: ticket.tenant_id, workspace_id: ticket.workspace_id },
  )
  return comment
}
