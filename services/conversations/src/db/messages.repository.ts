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
  seq: number,
  scope: { tenant_id: string; workspace_id: string },
): Promise<void> {
  await db
    .insertInto('messages')
    .values({
      ...m,
      seq,
      metadata: toJson(m.metadata) ?? '{}',
      tenant_id: scope.tenant_id,
      workspace_id: scope.workspace_id,
    })
    .execute()
}

/** The position of message `id` in the session, or undefined when the session has no such message. */
export async function messageSeq(db: Db, sessionId: string, id: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('messages')
    .select('seq')
    .where('id', '=', id)
    .where('session_id', '=', sessionId)
    .executeTakeFirst()
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
): Promise<Message[]> {
  let q = db.selectFrom('messages').selectAll().where('session_id', '=', sessionId)
  if (page.after !== undefined) {
    const rows = await q.where('seq', '>', page.after).orderBy('seq', 'asc').limit(page.limit).execute()
    return rows.map(toMessage)
  }
  if (page.before !== undefined) q = q.where('seq', '<', page.before)
  const rows = await q.orderBy('seq', 'desc').limit(page.limit).execute()
  return rows.reverse().map(toMessage)
}
