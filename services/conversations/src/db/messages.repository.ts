import { fromJson, type Scope, toJson, whereScope } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { Message } from '../schemas/sessions.schemas.ts'
import type { ConversationsDatabase, MessagesTable, SessionsTable } from './database.ts'

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
 * PostgreSQL only (data-modifying `WITH`): the session of `scope` counts one more message — `message_count` raised,
 * `last_message_at`/`updated_at` set to the message's `created_at`, the row locked — and `m` is stored as its
 * `message_count`th message, in one statement. Returns the session as it now is; undefined (nothing written) when
 * the scope has no such session.
 */
export async function insertCountedMessage(
  db: Db,
  m: Message,
  scope: Scope,
): Promise<Selectable<SessionsTable> | undefined> {
  return db
    .with('counted', (qc) =>
      whereScope(
        qc
          .updateTable('sessions')
          .set((eb) => ({
            message_count: eb('message_count', '+', 1),
            last_message_at: m.created_at,
            updated_at: m.created_at,
          }))
          .where('id', '=', m.session_id),
        scope,
      ).returningAll(),
    )
    .with('written', (qc) =>
      qc
        .insertInto('messages')
        .columns([
          'id',
          'session_id',
          'sender',
          'sender_id',
          'kind',
          'content',
          'metadata',
          'visibility',
          'seq',
          'created_at',
          'tenant_id',
          'workspace_id',
        ])
        .expression((eb) =>
          eb
            .selectFrom('counted')
            .select((c) => [
              c.val(m.id).as('id'),
              'counted.id as session_id',
              c.val(m.sender).as('sender'),
              c.val(m.sender_id).as('sender_id'),
              c.val(m.kind).as('kind'),
              c.val(m.content).as('content'),
              c.val(toJson(m.metadata) ?? '{}').as('metadata'),
              c.val(m.visibility).as('visibility'),
              'counted.message_count as seq',
              c.val(m.created_at).as('created_at'),
              'counted.tenant_id as tenant_id',
              'counted.workspace_id as workspace_id',
            ]),
        )
        .returning('messages.id'),
    )
    .selectFrom('counted')
    .selectAll()
    .executeTakeFirst()
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
