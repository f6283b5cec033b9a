import type { Tx } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import type { ConversationsDatabase } from '../db/database.ts'
import { findSessionRow, type SessionRow } from '../db/sessions.repository.ts'
import { ConversationErrors } from '../errors.ts'

/**
 * The session of the caller's scope, locked until commit (PostgreSQL; SQLite's one writer serialises): another
 * tenant's is not found, like a missing one, and two changes of one session can't both pass a check.
 */
export async function lockSession(
  svc: Pick<ConversationsService, 'dialect'>,
  tx: Tx<ConversationsDatabase>,
  id: string,
): Promise<SessionRow> {
  const row = await findSessionRow(tx.db, id, tx.caller.scope, { forUpdate: svc.dialect === 'postgres' })
  if (!row) throw new ConversationErrors.SessionNotFound(id)
  return row
}
