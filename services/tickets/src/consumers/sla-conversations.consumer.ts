import type { MessageFacts, SessionFacts } from '@switchboard/contracts'
import { type ConsumerDef, type Scope, systemCaller, type Tx } from '@switchboard/platform'
import { recordFirstResponse } from '../commands/sla-hooks.ts'
import type { TicketsService } from '../context.ts'
import type { TicketsDatabase } from '../db/database.ts'
import { findSessionLink, upsertSessionLink } from '../db/sla-projections.repository.ts'

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
    await svc.transaction(systemCaller(scope), (tx) => firstResponseIn(tx, scope, m))
  },
}

async function firstResponseIn(tx: Tx<TicketsDatabase>, scope: Scope, m: MessageFacts) {
  const link = await findSessionLink(tx.db, scope, m.session_id)
  let q = tx.db
    .selectFrom('tickets')
    .select(['id', 'tenant_id', 'workspace_id', 'priority', 'customer_id', 'status', 'created_at', 'resolved_at'])
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .where('first_response_at', 'is', null)
    .where('status', 'in', ['open', 'assigned', 'in_progress'])
    .where('created_at', '<=', m.created_at)
  q = q.where((eb) =>
    link?.ticket_id
      ? eb.or([eb('session_id', '=', m.session_id), eb('id', '=', link.ticket_id)])
      : eb('session_id', '=', m.session_id),
  )
  for (const ticket of await q.execute()) await recordFirstResponse(tx, ticket, m.created_at)
}
