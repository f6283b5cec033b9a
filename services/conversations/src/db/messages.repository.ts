import { fromJson, toJson } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { Message } from '../schemas/sessions.schemas.ts'
import type { ConversationsDatabase, MessagesTable } from './database.ts'

type Db = Kysely<ConversationsDatabase>

export function toMessage(row: Selectable<MessagesTable>): Message {
  return {
    id: row.id,
    session_id: row.session_id,
    sender: row.sender as Message['sender'],
    sender_id: row.sender_id,
    kind: row.kind as Message['kind'],
    content: row.content,
    metadata: fromJson<Record<string, unknown>>(row.metadata, {}),
    visibility: row.visibility === 'internal' ? 'internal' : 'public',
    seq: Number(row.seq),
    created_at: row.created_at,
  }
}

/**
 * Messages carry their session's scope too, so they can be counted per scope without a join. `seq` is the
 * message's position in the session, taken under the session's row lock (append-message.ts).
 */
export async function insertMessage(
  db: Db,
  m: Message,
  scope: { tenant_id: string; workspace_id: string },
): Promise<void> {
  await db
    .insertInto('messages')
    .values({
      ...m,
      metadata: toJson(m.metadata) ?? '{}',
      tenant_id: scope.tenant_id,
      workspace_id: scope.workspace_id,
    })
    .execute()
}

/**
 * Which messages a reader sees: `all` for staff, `public` for everyone else (a customer, a visitor, the AI) — an
 * internal note is not there for them, not even as a cursor.
 */
export type Audience = 'all' | 'public'

/** The position of message `id` in the session, or undefined when the session has no such message (for `audience`). */
export async function messageSeq(
  db: Db,
  sessionId: string,
  id: string,
  audience: Audience = 'public',
): Promise<number | undefined> {
  let q = db.selectFrom('messages').select('seq').where('id', '=', id).where('session_id', '=', sessionId)
  if (audience === 'public') q = q.where('visibility', '=', 'public')
  const row = await q.executeTakeFirst()
  return row === undefined ? undefined : Number(row.seq)
}

/**
 * A session's messages in the order they were committed (`seq`, never the id: ids come from whichever replica
 * wrote them, in its own clock). `before`/`after` are positions: the `limit` messages just before `before` (the
 * latest page when neither is given), or just after `after` (what a reconnecting client missed).
 */
export async function listMessages(
  db: Db,
  sessionId: string,
  page: { before?: number; after?: number; limit: number },
  audience: Audience = 'public',
): Promise<Message[]> {
  let q = db.selectFrom('messages').selectAll().where('session_id', '=', sessionId)
  if (audience === 'public') q = q.where('visibility', '=', 'public')
  if (page.after !== undefined) {
    const rows = await q.where('seq', '>', page.after).orderBy('seq', 'asc').limit(page.limit).execute()
    return rows.map(toMessage)
  }
  if (page.before !== undefined) q = q.where('seq', '<', page.before)
  const rows = await q.orderBy('seq', 'desc').limit(page.limit).execute()
  return rows.reverse().map(toMessage)
}
