import type { Static, TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { ConversationEvents as C, type SessionFacts } from '@switchboard/contracts'
import type { ConsumerDef } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { unlinkTicketSession, upsertTicketSession } from '../db/ticket-sessions.repository.ts'

export const TICKET_SESSIONS_CONSUMER = 'tickets-conversations'

type SessionOf = (data: unknown) => SessionFacts

/**
 * How to read one session event: its payload checked against that event's own contract, then its session facts.
 * An event off its contract is thrown (redelivered, then dead-lettered where an operator sees it), never skipped.
 */
function reader<T extends TSchema>(
  def: { type: string; data: T },
  facts: (data: Static<T>) => SessionFacts,
): [string, SessionOf] {
  const check = TypeCompiler.Compile(def.data)
  return [
    def.type,
    (data) => {
      if (check.Check(data)) return facts(data)
      const first = check.Errors(data).First()
      throw new Error(`${def.type} does not match its contract: ${first?.path || '/'} ${first?.message ?? ''}`)
    },
  ]
}

/** The session each event describes: whole in most, under `session` in assigned, transferred and released. */
const SESSION_OF: ReadonlyMap<string, SessionOf> = new Map([
  reader(C.sessionCreated, (d) => d),
  reader(C.sessionClosed, (d) => d),
  reader(C.sessionReopened, (d) => d),
  reader(C.sessionLinked, (d) => d),
  reader(C.sessionAssigned, (d) => d.session),
  reader(C.sessionTransferred, (d) => d.session),
  reader(C.sessionReleased, (d) => d.session),
])

/**
 * The conversations a ticket continues (GET /api/tickets/:id/conversations), from conversations' session events:
 * a session that carries a `ticket_id` is kept (as its newest event describes it), one that no longer does is
 * dropped; a released session is kept without the agent who let it go (as the event says). Rebuilt by replay of the
 * CONVERSATIONS stream; each event applied once (inbox), only if newer.
 */
export const ticketSessionsProjection: ConsumerDef<TicketsService> = {
  durable: TICKET_SESSIONS_CONSUMER,
  stream: 'CONVERSATIONS',
  subjects: ['conversations.session.>'],
  idempotency: 'inbox',
  async handle(svc, delivery, tx) {
    const { envelope } = delivery
    const sessionOf = SESSION_OF.get(envelope.type)
    if (!sessionOf) {
      // a session event this projection does not know yet (one conversations added): said, so it is not missed
      svc.log.warn({ component: TICKET_SESSIONS_CONSUMER, type: envelope.type }, 'unknown session event; skipped')
      return
    }
    const s = sessionOf(envelope.data)
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
