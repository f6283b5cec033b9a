import type { Envelope, MessageFacts, SessionFacts } from '@switchboard/contracts'
import { type ConsumerDef, type Outcome, type Scope, systemCaller } from '@switchboard/platform'
import { recordFirstResponse } from '../commands/sla-hooks.ts'
import type { TicketsService } from '../context.ts'
import { awaitingFirstResponseIn, upsertSessionLink } from '../db/sla-projections.repository.ts'

/** Deliveries handled together at most (each batch: one read for its agent messages, one ack write). */
export const SLA_CONVERSATIONS_BATCH = 32

/**
 * The conversation side of a ticket's first response. Session events (created, linked, assigned, …) tell which
 * ticket a session continues (kept in sla_session_tickets); an agent's message in a session is the first response
 * of the open tickets tied to it, through that link or the ticket's own `session_id`, if sent after the ticket
 * was opened. Idempotent by itself, without an inbox row for the many events it ignores: the link is an upsert,
 * the first response is stamped only where none is, and a violation is recorded (and announced) once by its
 * unique key. One filter subject, in stream order, so a session's link is seen before its later messages.
 *
 * Group commit (the platform's `batch` for handler consumers): the deliveries ready together are handled in their
 * order, the agent messages between two session events by ONE read of the tickets they may answer (most answer none,
 * and then nothing else is written) — it was a read per agent message, and an acknowledgement written on its own.
 */
export const slaConversationsConsumer: ConsumerDef<TicketsService> = {
  durable: 'tickets-sla-conversations',
  stream: 'CONVERSATIONS',
  subjects: ['conversations.>'],
  idempotency: 'handler',
  batch: {
    size: () => SLA_CONVERSATIONS_BATCH,
    async handle(svc, deliveries) {
      const outcomes: Outcome[] = []
      let answers: Answer[] = []
      for (const { envelope } of deliveries) {
        const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
        const kind = kindOf(envelope)
        outcomes.push({ ok: true, applied: kind !== 'ignored' && Boolean(scope.tenant_id && scope.workspace_id) })
        if (!scope.tenant_id || !scope.workspace_id || kind === 'ignored') continue
        if (kind === 'answer') {
          answers.push({ scope, message: envelope.data as MessageFacts })
          continue
        }
        // a link changes which tickets the messages after it answer: those before it are settled first
        await firstResponses(svc, answers)
        answers = []
        const data = envelope.data as SessionFacts | { session: SessionFacts }
        const s = 'session' in data ? data.session : data
        if (!s?.session_id) continue
        await upsertSessionLink(
          svc.db,
          scope,
          { session_id: s.session_id, customer_id: s.customer_id, ticket_id: s.ticket_id },
          envelope.occurred_at,
        )
      }
      await firstResponses(svc, answers)
      return outcomes
    },
  },
}

interface Answer {
  scope: Scope
  message: MessageFacts
}

function kindOf(envelope: Envelope): 'link' | 'answer' | 'ignored' {
  if (envelope.type.startsWith('conversations.session.')) return 'link'
  if (envelope.type !== 'conversations.message.created') return 'ignored'
  return (envelope.data as MessageFacts).sender === 'agent' ? 'answer' : 'ignored'
}

/**
 * Stamps the first response of every ticket the agent messages `answers` (in stream order) are the first answer to:
 * per scope one read, with no transaction opened when nothing waits. The stamp itself is conditional
 * (first_response_at still null), so a ticket answered between the read and the transaction is left as it is.
 */
async function firstResponses(svc: TicketsService, answers: readonly Answer[]) {
  const byScope = new Map<string, Answer[]>()
  for (const a of answers) {
    const key = `${a.scope.tenant_id}\u0000${a.scope.workspace_id}`
    const list = byScope.get(key)
    if (list) list.push(a)
    else byScope.set(key, [a])
  }
  for (const list of byScope.values()) {
    const scope = list[0]!.scope
    const sessions = [...new Set(list.map((a) => a.message.session_id))]
    // RFC 3339 strings of one form: their order is their text's
    const latest = list
      .map((a) => a.message.created_at)
      .sort()
      .at(-1)!
    const waiting = await awaitingFirstResponseIn(svc.db, scope, sessions, latest)
    if (waiting.length === 0) continue
    await svc.transaction(systemCaller(scope), async (tx) => {
      const stamped = new Set<string>()
      for (const { message } of list) {
        for (const ticket of waiting) {
          if (stamped.has(ticket.id) || ticket.via !== message.session_id || ticket.created_at > message.created_at) {
            continue
          }
          stamped.add(ticket.id)
          await recordFirstResponse(tx, ticket, message.created_at)
        }
      }
    })
  }
}
