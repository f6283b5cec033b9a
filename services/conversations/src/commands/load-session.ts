import type { Tx } from '@switchboard/platform'
import type { ConversationsDatabase } from '../db/database.ts'
import { findSessionRowForUpdate, type SessionRow } from '../db/sessions.repository.ts'
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
