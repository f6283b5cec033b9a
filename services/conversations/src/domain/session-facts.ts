import type { Static } from '@sinclair/typebox'
import type { MessageFacts, SessionFacts } from '@switchboard/contracts'
import type { Message, Session } from '../schemas/sessions.schemas.ts'

/** What a session event carries (contract `SessionFacts` in packages/contracts/src/events/conversations.ts). */
export function sessionFacts(s: Session): Static<typeof SessionFacts> {
  return {
    session_id: s.id,
    status: s.status,
    channel: s.channel,
    subject: s.subject,
    customer_id: s.customer_id,
    visitor_id: s.visitor_id,
    agent_id: s.agent_id,
    ticket_id: s.ticket_id,
    started_at: s.started_at,
    last_message_at: s.last_message_at,
    ended_at: s.ended_at,
  }
}

/** What `conversations.message.created` carries: the message, its position in the session, the session as it left it. */
export function messageFacts(m: Message, s: Pick<Session, 'status' | 'agent_id'>): Static<typeof MessageFacts> {
  return {
    message_id: m.id,
    session_id: m.session_id,
    sender: m.sender,
    sender_id: m.sender_id,
    kind: m.kind,
    content: m.content,
    metadata: m.metadata,
    created_at: m.created_at,
    seq: m.seq,
    visibility: m.visibility,
    session_status: s.status,
    agent_id: s.agent_id,
  }
}

/** The scope an event of a session is emitted in: the session's own. */
export const scopeOfSession = (s: Pick<Session, 'tenant_id' | 'workspace_id'>) => ({
  tenant_id: s.tenant_id,
  workspace_id: s.workspace_id,
})
