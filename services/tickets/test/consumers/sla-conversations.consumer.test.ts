// The conversation side of a ticket's first response (consumers/sla-conversations.consumer.ts), both storage modes,
// from events on the bus as conversations publishes them, many at once so that they are handled in batches: an
// agent's message answers the session's own open ticket and the ticket a link names, from the first message after
// the ticket was opened; a message sent before its session was linked answers nothing; a customer's message, a
// ticket opened after the message and another tenant's ticket are left alone.
import { ConversationEvents, type MessageFacts, type SessionFacts, SYSTEM_ACTOR } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import type { TicketsService } from '../../src/context.ts'
import { ACME, GLOBEX, slaApp } from '../helpers/sla.ts'

type Scope = typeof ACME
const at = (minute: number) => new Date(Date.UTC(2026, 10, 27, 9, minute)).toISOString()

const ticket = (id: string, scope: Scope, session_id: string | null, minute: number) => ({
  id,
  title: id,
  description: '',
  customer_id: 'cust-1',
  agent_id: null,
  session_id,
  category: 'general',
  priority: 'normal',
  status: 'open',
  source: 'chat',
  tags: '[]',
  custom_fields: '{}',
  ...scope,
  created_at: at(minute),
  updated_at: at(minute),
})

let n = 0
function message(scope: Scope, session_id: string, sender: 'agent' | 'customer', minute: number) {
  const data: MessageFacts = {
    message_id: `m-${++n}`,
    session_id,
    sender,
    sender_id: sender === 'agent' ? 'agent-1' : 'cust-1',
    kind: 'text',
    content: 'hello',
    metadata: {},
    created_at: at(minute),
    seq: n,
    session_status: 'active',
    agent_id: 'agent-1',
  }
  return newEnvelope({ type: ConversationEvents.messageCreated.type, ...scope, actor: SYSTEM_ACTOR, data })
}

function linked(scope: Scope, session_id: string, ticket_id: string, minute: number) {
  const data: SessionFacts = {
    session_id,
    status: 'active',
    channel: 'web',
    subject: 'help',
    customer_id: 'cust-1',
    visitor_id: null,
    agent_id: 'agent-1',
    ticket_id,
    started_at: at(0),
    last_message_at: at(minute),
    ended_at: null,
  }
  return newEnvelope({ type: ConversationEvents.sessionLinked.type, ...scope, actor: SYSTEM_ACTOR, data })
}

const firstResponses = async (svc: TicketsService) =>
  Object.fromEntries(
    (await (svc.db as unknown as Kysely<any>).selectFrom('tickets').select(['id', 'first_response_at']).execute()).map(
      (r: { id: string; first_response_at: string | null }) => [r.id, r.first_response_at],
    ),
  )

inEachStorageMode(t, "agent messages stamp their tickets' first response, in batches", async (t, mode) => {
  const { svc } = await slaApp(t, mode)
  await (svc.db as unknown as Kysely<any>)
    .insertInto('tickets')
    .values([
      ticket('own', ACME, 'S1', 1),
      ticket('linked', ACME, null, 1),
      ticket('late-link', ACME, null, 1),
      ticket('opened-after', ACME, 'S3', 30),
      ticket('globex', GLOBEX, 'S1', 1),
      ticket('quiet', ACME, 'S9', 1),
      // the rest: sessions with a ticket each, answered in the same burst
      ...Array.from({ length: 60 }, (_, i) => ticket(`bulk-${i}`, ACME, `B${i}`, 1)),
    ])
    .execute()

  const events = [
    message(ACME, 'S9', 'customer', 2), // a customer's message answers nothing
    message(ACME, 'S1', 'agent', 3), // the first answer of `own`
    message(ACME, 'S2', 'agent', 4), // before S2 is linked: not an answer to `linked`
    linked(ACME, 'S2', 'linked', 5),
    message(ACME, 'S2', 'agent', 6), // the first answer of `linked`
    message(ACME, 'S1', 'agent', 7), // a second answer: `own` keeps minute 3
    message(ACME, 'S4', 'agent', 8), // S4 is linked only after this one
    message(ACME, 'S3', 'agent', 9), // `opened-after` was opened at minute 30
    message(GLOBEX, 'S1', 'agent', 10), // another tenant's session of the same id
    ...Array.from({ length: 60 }, (_, i) => message(ACME, `B${i}`, 'agent', 11)),
    linked(ACME, 'S4', 'late-link', 12),
    message(ACME, 'S4', 'agent', 13), // the first answer of `late-link`
  ]
  for (const e of events) await svc.bus.publish(e.type, e)

  const stamped = await waitFor(async () => {
    const rows = await firstResponses(svc)
    return rows['late-link'] && rows['bulk-59'] ? rows : undefined
  }, 15_000)
  t.equal(stamped.own, at(3), "the session's own ticket: its first agent message")
  t.equal(stamped.linked, at(6), 'the linked ticket: the first agent message after the link')
  t.equal(stamped['late-link'], at(13), 'a message before the link is not an answer to the linked ticket')
  t.equal(stamped.globex, at(10), "another tenant's ticket: only its own tenant's message")
  t.equal(stamped['opened-after'], null, 'a ticket opened after the message is not answered by it')
  t.equal(stamped.quiet, null, "a customer's message is not a response")
  t.equal(
    Array.from({ length: 60 }, (_, i) => stamped[`bulk-${i}`]).filter((v) => v === at(11)).length,
    60,
    'every ticket of the burst answered once, at its message',
  )
})
