import type { Caller, Scope } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import { findAgentRef, findCustomerRef } from '../db/directory.repository.ts'
import { findSessionRow } from '../db/sessions.repository.ts'
import { scopeOfSession } from '../domain/session-facts.ts'
import { ConversationErrors } from '../errors.ts'

// The persons a request body names (README "References"): a customer or an agent of the record's own scope, as
// identity's events made them known here. The projections are eventually consistent, so a miss is looked for again
// for `references.wait_ms` before it is refused. Every miss waits the whole window, whether nobody has the id or
// another workspace's person has it: the two answers are the same in status, code, message and time.

/** The first look again after 25 ms, then twice as long each time up to 250 ms: a handful of queries per miss. */
const POLL_FIRST_MS = 25
const POLL_MAX_MS = 250

type Svc = Pick<ConversationsService, 'db' | 'config'>

async function lookUp<T>(svc: Svc, find: () => Promise<T | undefined>): Promise<T | undefined> {
  const until = Date.now() + svc.config.references.wait_ms
  for (let delay = POLL_FIRST_MS; ; delay = Math.min(delay * 2, POLL_MAX_MS)) {
    const found = await find()
    if (found) return found
    const left = until - Date.now()
    if (left <= 0) return undefined
    await new Promise((r) => setTimeout(r, Math.min(delay, left)))
  }
}

/**
 * The user id of the customer `ref` names (identity record id or user id) in `scope`, else 400 naming `field`.
 * Called outside any transaction: waiting must hold no lock (and on SQLite the projection's writer needs the lock).
 */
export async function customerReference(svc: Svc, scope: Scope, ref: string, field = 'customer_id'): Promise<string> {
  const customer = await lookUp(svc, () => findCustomerRef(svc.db, ref, scope))
  if (!customer) throw new ConversationErrors.UnknownCustomer(field, ref)
  return customer.user_id
}

/** The user id of the agent `ref` names (identity record id or user id) in `scope`, else 400 naming `field`. */
export async function agentReference(svc: Svc, scope: Scope, ref: string, field = 'agent_id'): Promise<string> {
  const agent = await lookUp(svc, () => findAgentRef(svc.db, ref, scope))
  if (!agent) throw new ConversationErrors.UnknownAgent(field, ref)
  return agent.user_id
}

/**
 * The scope of the session a command is about to change, read without a lock so that the persons it names can be
 * checked (and waited for) before the transaction: another tenant's session is not found, like a missing one.
 */
export async function sessionScope(svc: Svc, caller: Caller, id: string): Promise<Scope> {
  const row = await findSessionRow(svc.db, id, caller.scope)
  if (!row) throw new ConversationErrors.SessionNotFound(id)
  return scopeOfSession(row)
}
