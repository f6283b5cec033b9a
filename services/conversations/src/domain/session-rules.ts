import type { Message, Session } from '../schemas/sessions.schemas.ts'

/**
 * What a message from `sender` does to a session (README "Status"): it is posted; it reopens a closed session
 * (only a customer's does); or it is refused because the session is closed, or because an agent handles it and
 * the sender is the AI — the AI answers only sessions no human has taken, so it never talks over an agent.
 */
export type Admission = 'post' | 'reopen' | 'closed' | 'agent_handles'

export function admission(
  sender: Message['sender'],
  session: { status: Session['status'] | string; agent_id: string | null },
): Admission {
  if (session.status === 'closed') return sender === 'customer' ? 'reopen' : 'closed'
  if (sender === 'ai' && session.agent_id !== null) return 'agent_handles'
  return 'post'
}

/**
 * A reopened session is active again without an agent: whoever handled it before may be offline by now, so the
 * AI answers and routing hands it on as for a new session (the earlier agent keeps reading it, like anyone of the
 * scope).
 */
export const reopenPatch = (now: string) => ({ status: 'active', ended_at: null, agent_id: null, updated_at: now })

export const canClose = (status: string) => status !== 'closed'

export function closeText(reason: string | undefined): string {
  return reason ? `The conversation was closed. Reason: ${reason}.` : 'The conversation was closed.'
}

/** Open sessions an agent works on (the load of README "Routing") and those waiting for one. */
export const WORKING_STATUSES = ['active', 'transferred'] as const
export const WAITING_STATUS = 'waiting_human'
