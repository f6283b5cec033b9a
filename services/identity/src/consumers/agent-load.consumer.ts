import { TypeCompiler } from '@sinclair/typebox/compiler'
import { SessionFacts } from '@switchboard/contracts'
import { type ConsumerDef, versionOf } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { projectAgentSession } from '../db/agent-sessions.repository.ts'

export const AGENT_LOAD_CONSUMER = 'identity-agent-load'

const isSession = TypeCompiler.Compile(SessionFacts)

/** The session an event of conversations describes: whole, or under `session` (assigned, transferred, released). */
export function sessionOf(data: unknown): SessionFacts | undefined {
  const inner = (data as { session?: unknown } | null)?.session
  const s = inner ?? data
  return isSession.Check(s) ? s : undefined
}

/**
 * An agent's `current_load` (its open sessions) from conversations' session events — created, assigned, transferred,
 * released, closed, reopened, linked: each carries the session whole, so the projection keeps every session as its
 * newest event describes it (who handles it, its status) and the load is a count. Idempotent by itself (newest wins
 * on the event's time and id), so no inbox; rebuilt by replaying the CONVERSATIONS stream. An event that does not
 * match the contract is thrown (redelivered, then dead-lettered where an operator sees it), not skipped.
 */
export const agentLoad: ConsumerDef<IdentityService> = {
  durable: AGENT_LOAD_CONSUMER,
  stream: 'CONVERSATIONS',
  subjects: ['conversations.session.>'],
  idempotency: 'handler',
  async handle(svc, { envelope }) {
    const s = sessionOf(envelope.data)
    if (!s) throw new Error(`${envelope.type} ${envelope.id} carries no session facts`)
    if (!envelope.tenant_id || !envelope.workspace_id) throw new Error(`${envelope.type} ${envelope.id} has no scope`)
    await projectAgentSession(svc.db, {
      session_id: s.session_id,
      tenant_id: envelope.tenant_id,
      workspace_id: envelope.workspace_id,
      agent_user_id: s.agent_id,
      status: s.status,
      ...versionOf(envelope),
    })
  },
}
