import type { SessionFacts } from '@switchboard/contracts'
import { ConversationEvents } from '@switchboard/contracts'
import { type ConsumedEvent, type ConsumerDef, on, versionOf } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { projectAgentSession } from '../db/agent-sessions.repository.ts'

export const AGENT_LOAD_CONSUMER = 'identity-agent-load'

const C = ConversationEvents

/** One session as its event describes it (whole: who handles it, its status), in the event's scope. */
async function project({ envelope }: ConsumedEvent<unknown>, s: SessionFacts, svc: IdentityService) {
  if (!envelope.tenant_id || !envelope.workspace_id) throw new Error(`${envelope.type} ${envelope.id} has no scope`)
  await projectAgentSession(svc.db, {
    session_id: s.session_id,
    tenant_id: envelope.tenant_id,
    workspace_id: envelope.workspace_id,
    agent_user_id: s.agent_id,
    status: s.status,
    ...versionOf(envelope),
  })
}

/**
 * An agent's `current_load` (its open sessions) from conversations' session events — created, assigned, transferred,
 * released, closed, reopened, linked: each carries the session whole (assigned, transferred and released under
 * `session`), so the projection keeps every session as its newest event describes it (who handles it, its status)
 * and the load is a count. Idempotent by itself (newest wins on the event's time and id), so no inbox; rebuilt by
 * replaying the CONVERSATIONS stream. An event that does not match its contract is dead-lettered at once (the
 * platform checks it), where an operator sees it, not skipped.
 */
export const agentLoad: ConsumerDef<IdentityService> = {
  durable: AGENT_LOAD_CONSUMER,
  stream: 'CONVERSATIONS',
  subjects: ['conversations.session.>'],
  idempotency: 'handler',
  handlers: [
    on(C.sessionCreated, (event, svc) => project(event, event.data, svc)),
    on(C.sessionClosed, (event, svc) => project(event, event.data, svc)),
    on(C.sessionReopened, (event, svc) => project(event, event.data, svc)),
    on(C.sessionLinked, (event, svc) => project(event, event.data, svc)),
    on(C.sessionAssigned, (event, svc) => project(event, event.data.session, svc)),
    on(C.sessionTransferred, (event, svc) => project(event, event.data.session, svc)),
    on(C.sessionReleased, (event, svc) => project(event, event.data.session, svc)),
  ],
}
