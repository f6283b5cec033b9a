import { nowIso, type Tx } from '@switchboard/platform'
import type { ConversationsDatabase } from '../db/database.ts'
import { countMessageIn, findSessionRowForUpdate, type SessionRow } from '../db/sessions.repository.ts'
import { ConversationErrors } from '../errors.ts'

/**
 * The session of the caller's scope, locked until commit: another tenant's is not found, like a missing one, and two
 * changes of one session can't both pass a check.
 */
export async function lockSession(tx: Tx<ConversationsDatabase>, id: string): Promise<SessionRow> {
  const row = await findSessionRowForUpdate(tx, id, tx.caller.scope)
  if (!row) throw new ConversationErrors.SessionNotFound(id)
  return row
}

/**
 * The session of the caller's scope with one more message counted (countMessageIn), locked until commit: the row a
 * message is checked against, then written into (appendCounted). A refusal after it throws, and the transaction
 * takes the count back. Not found as lockSession.
 */
export async function countMessage(tx: Tx<ConversationsDatabase>, id: string): Promise<SessionRow> {
  const row = await countMessageIn(tx, id, tx.caller.scope, nowIso())
  if (!row) throw new ConversationErrors.SessionNotFound(id)
  return row
}
