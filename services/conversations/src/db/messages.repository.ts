import { fromJson, type Scope, toJson, whereScope } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { Message } from '../schemas/sessions.schemas.ts'
import type { ConversationsDatabase, MessagesTable, SessionsTable } from './database.ts'
import { prebuilt } from './prebuilt.ts'

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

type MessageValues = Omit<Message, 'metadata'> & { metadata: string; tenant_id: string; workspace_id: string }
const messageInsert = prebuilt((db: Db, v: MessageValues) => db.insertInto('messages').values(v))

/**
 * Messages carry their session's scope too, so they can be counted per scope without a join. `seq` is the
 * message's position in the session, taken under the session's row lock (append-message.ts). Built once per
 * dialect (prebuilt.ts): every message of the hub, the AI and the service itself goes through here.
 */
export async function insertMessage(
  db: Db,
  m: Message,
  scope: { tenant_id: string; workspace_id: string },
): Promise<void> {
  const values: MessageValues = {
    id: m.id,
    session_id: m.session_id,
    sender: m.sender,
    sender_id: m.sender_id,
    kind: m.kind,
    content: m.content,
    metadata: toJson(m.metadata) ?? '{}',
    visibility: m.visibility,
    seq: m.seq,
    created_at: m.created_at,
    tenant_id: scope.tenant_id,
    workspace_id: scope.workspace_id,
  }
  await messageInsert(db, values)
}

type CountedValues = Omit<Message, 'seq' | 'metadata'> & { metadata: string } & Partial<Scope>

/** The statement of insertCountedMessage, compiled once per scope shape (prebuilt.ts). */
const buildCounted = (db: Db, v: CountedValues) =>
  db
    .with('counted', (qc) =>
      whereScope(
        qc
          .updateTable('sessions')
          .set((eb) => ({
            message_count: eb('message_count', '+', 1),
            last_message_at: v.created_at,
            updated_at: v.created_at,
          }))
          .where('id', '=', v.session_id),
        { tenant_id: v.tenant_id ?? '', workspace_id: v.workspace_id ?? '' },
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
              c.val(v.id).as('id'),
              'counted.id as session_id',
              c.val(v.sender).as('sender'),
              c.val(v.sender_id).as('sender_id'),
              c.val(v.kind).as('kind'),
              c.val(v.content).as('content'),
              c.val(v.metadata).as('metadata'),
              c.val(v.visibility).as('visibility'),
              'counted.message_count as seq',
              c.val(v.created_at).as('created_at'),
              'counted.tenant_id as tenant_id',
              'counted.workspace_id as workspace_id',
            ]),
        )
        .returning('messages.id'),
    )
    .selectFrom('counted')
    .selectAll()
const countedMessage = prebuilt(buildCounted)

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
  const { seq: _seq, ...message } = m
  const values: CountedValues = { ...message, metadata: toJson(m.metadata) ?? '{}' }
  // an empty part of the scope is no condition (whereScope): it changes the statement's shape, not only its values
  if (scope.tenant_id) values.tenant_id = scope.tenant_id
  if (scope.workspace_id) values.workspace_id = scope.workspace_id
  const shape = `${scope.tenant_id ? 't' : ''}${scope.workspace_id ? 'w' : ''}`
  const { rows } = await countedMessage(db, values, shape)
  return rows[0]
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
