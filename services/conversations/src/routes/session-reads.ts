import { CommonErrors, type Scope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { ConversationsDatabase } from '../db/database.ts'
import { type Audience, listMessages, messageSeq } from '../db/messages.repository.ts'
import { findSessionRow, type SessionRow } from '../db/sessions.repository.ts'
import { ConversationErrors } from '../errors.ts'
import type { MessageList, MessagesQuery } from '../schemas/messages.schemas.ts'

// Reads shared by /api/omni and /internal: a route may read straight from a repository (docs/conventions.md §3).

type Db = Kysely<ConversationsDatabase>

/** The session in `scope`, or the same 404 as a missing one. */
export async function readableSession(db: Db, id: string, scope: Scope): Promise<SessionRow> {
  const row = await findSessionRow(db, id, scope)
  if (!row) throw new ConversationErrors.SessionNotFound(id)
  return row
}

/** A cursor (a message id) as its position in the session; an id the session does not hold is a 400 naming it. */
async function cursor(db: Db, sessionId: string, name: 'before' | 'after', id: string | undefined, who: Audience) {
  if (id === undefined) return undefined
  const seq = await messageSeq(db, sessionId, id, who)
  if (seq === undefined) throw new ConversationErrors.QueryField(name, `no message ${id} in this session`)
  return seq
}

/**
 * A page of a session's messages, oldest first, as a bounded list. `who`: `all` for staff (notes included),
 * `public` for anyone else — a note is neither listed nor taken as a cursor (400, as an id the session lacks).
 */
export async function sessionMessages(
  db: Db,
  sessionId: string,
  q: MessagesQuery,
  who: Audience,
): Promise<MessageList> {
  // one cursor at a time: "after" is what a client missed, "before" scrolls back
  if (q.before !== undefined && q.after !== undefined) {
    throw new CommonErrors.BadRequest('querystring: before and after cannot be combined')
  }
  const page = {
    before: await cursor(db, sessionId, 'before', q.before, who),
    after: await cursor(db, sessionId, 'after', q.after, who),
    limit: q.limit,
  }
  const items = await listMessages(db, sessionId, page, who)
  return { count: items.length, items }
}
