// The conversations a ticket continues (tickets-conversations), from every session event in the shape conversations
// emits it (services/conversations/src/commands): assigned and transferred carry the session under `session`, and so
// does released (the agent let go: active, no agent), which must leave the released agent off the ticket's
// conversation.
import { ConversationEvents as C, type SessionFacts } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import { TICKET_SESSIONS_CONSUMER } from '../../src/consumers/ticket-sessions.consumer.ts'
import { ACME_SUPPORT, as, principal, ticketsApp } from '../helpers/app.ts'
import { makeKnown, recordId } from '../helpers/directory.ts'

inEachStorageMode(t, 'tickets-conversations: session events in their own shapes', async (t, mode) => {
  const { app, svc } = await ticketsApp(t, mode)
  const headers = await as(principal())
  await makeKnown(svc, ACME_SUPPORT, { customers: ['pc-1'] })
  const created = await app.inject({
    method: 'POST',
    url: '/api/tickets',
    headers,
    payload: { title: 'Parcel late', customer_id: recordId(ACME_SUPPORT, 'pc-1') },
  })
  t.equal(created.statusCode, 201, 'the ticket')
  const ticketId: string = created.json().id
  const conversation = async (sessionId: string) =>
    (await app.inject({ method: 'GET', url: `/api/tickets/${ticketId}/conversations`, headers }))
      .json()
      .items.find((s: { session_id: string }) => s.session_id === sessionId)

  const facts = (session_id: string, status: SessionFacts['status'], agent_id: string | null): SessionFacts => ({
    session_id,
    status,
    channel: 'web',
    subject: 'Parcel',
    customer_id: 'pc-1',
    visitor_id: null,
    agent_id,
    ticket_id: ticketId,
    started_at: '2026-11-24T08:00:00.000Z',
    last_message_at: null,
    ended_at: null,
  })
  // as conversations publishes them, one after the other; resolves once the projection applied the event (inbox)
  const send = async (type: string, data: unknown) => {
    const envelope = newEnvelope({ type, ...ACME_SUPPORT, actor: { user_id: 'conversations', kind: 'service' }, data })
    await svc.bus.publish(type, envelope)
    await waitFor(() =>
      (svc.db as unknown as Kysely<any>)
        .selectFrom('inbox')
        .select('event_id')
        .where('consumer', '=', TICKET_SESSIONS_CONSUMER)
        .where('event_id', '=', envelope.id)
        .executeTakeFirst(),
    )
  }

  await t.test('a transfer shows the agent it went to', async (t) => {
    await send(C.sessionCreated.type, facts('sess-t', 'waiting_human', null))
    await send(C.sessionTransferred.type, {
      session: facts('sess-t', 'transferred', 'agent-2'),
      from_agent_id: null,
      to_agent_id: 'agent-2',
      reason: 'queue',
      transfer_id: 'tr-1',
    })
    t.match(await conversation('sess-t'), { status: 'transferred', agent_id: 'agent-2' })
  })

  await t.test('a released session no longer shows the agent who released it', async (t) => {
    await send(C.sessionCreated.type, facts('sess-r', 'active', null))
    await send(C.sessionAssigned.type, { session: facts('sess-r', 'active', 'agent-1'), previous_agent_id: null })
    t.match(await conversation('sess-r'), { status: 'active', agent_id: 'agent-1' })
    await send(C.sessionReleased.type, { session: facts('sess-r', 'active', null), previous_agent_id: 'agent-1' })
    t.match(await conversation('sess-r'), { status: 'active', agent_id: null })

    // released from a transfer: transferred → active, no agent
    await send(C.sessionReleased.type, { session: facts('sess-t', 'active', null), previous_agent_id: 'agent-2' })
    t.match(await conversation('sess-t'), { status: 'active', agent_id: null })
  })
})
