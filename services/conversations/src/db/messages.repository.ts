import { fromJson, type OutboxValues, type Scope, toJson, whereScope } from '@switchboard/platform'
import { type Kysely, type Selectable, sql } from 'kysely'
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

type CountedValues = Omit<Message, 'seq' | 'metadata'> & { metadata: string } & Partial<Scope> & {
    /** a guard: only the session this agent handles */
    guard_agent_id?: string
    /** a guard: only a session that is not closed (the value is the status refused) */
    guard_not_status?: string
  } & Partial<AnnouncedValues>

/**
 * The event the statement writes to the outbox beside the message: the row as the platform made it, its envelope
 * completed from the session the statement counted (`scope`, and in `data` the message's `seq`, the session's
 * `status` and `agent_id`).
 */
interface AnnouncedValues {
  outbox_id: string
  outbox_subject: string
  outbox_envelope: string
  outbox_headers: string
  outbox_created_at: string
}

/** The statement of insertCountedMessage and postCountedMessage, compiled once per shape (prebuilt.ts). */
const buildCounted = (db: Db, v: CountedValues) => {
  let counted = whereScope(
    db
      .updateTable('sessions')
      .set((eb) => ({
        message_count: eb('message_count', '+', 1),
        last_message_at: v.created_at,
        updated_at: v.created_at,
      }))
      .where('id', '=', v.session_id),
    { tenant_id: v.tenant_id ?? '', workspace_id: v.workspace_id ?? '' },
  )
  if (v.guard_agent_id !== undefined) counted = counted.where('agent_id', '=', v.guard_agent_id)
  if (v.guard_not_status !== undefined) counted = counted.where('status', '<>', v.guard_not_status)
  const written = db
    .with('counted', () => counted.returningAll())
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
  if (v.outbox_id === undefined) return written.selectFrom('counted').selectAll()
  // the outbox row, only if the session was counted; the envelope completed from it (jsonb: `||` replaces a key)
  const envelope = sql<string>`(${v.outbox_envelope}::jsonb || jsonb_build_object(
    'tenant_id', counted.tenant_id, 'workspace_id', counted.workspace_id,
    'data', (${v.outbox_envelope}::jsonb -> 'data') || jsonb_build_object(
      'seq', counted.message_count, 'session_status', counted.status, 'agent_id', counted.agent_id)))::text`
  return written
    .with(
      'announced',
      () =>
        // a raw CTE is not parenthesised by Kysely
        sql`(insert into "outbox" ("id", "subject", "envelope", "headers", "created_at")
        select ${v.outbox_id}, ${v.outbox_subject}, ${envelope}, ${v.outbox_headers}, ${v.outbox_created_at}
        from counted returning id)`,
    )
    .selectFrom('counted')
    .selectAll()
}
const countedMessage = prebuilt(buildCounted)

const scopeShape = (scope: Scope) => `${scope.tenant_id ? 't' : ''}${scope.workspace_id ? 'w' : ''}`

function countedValues(m: Message, scope: Scope): CountedValues {
  const { seq: _seq, ...message } = m
  const values: CountedValues = { ...message, metadata: toJson(m.metadata) ?? '{}' }
  // an empty part of the scope is no condition (whereScope): it changes the statement's shape, not only its values
  if (scope.tenant_id) values.tenant_id = scope.tenant_id
  if (scope.workspace_id) values.workspace_id = scope.workspace_id
  return values
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
  const { rows } = await countedMessage(db, countedValues(m, scope), scopeShape(scope))
  return rows[0]
}

/**
 * PostgreSQL only, and without a transaction around it: insertCountedMessage's statement, guarded (only a session
 * `guard.agent_id` handles, only one that is not closed) and writing `announced`'s outbox row with the message —
 * all of it or nothing, in one round trip. Undefined when nothing was written (no such session, or a guard said
 * no): the caller finds out why.
 */
export async function postCountedMessage(
  db: Db,
  m: Message,
  scope: Scope,
  guard: { agent_id?: string; open: boolean },
  announced: OutboxValues,
): Promise<Selectable<SessionsTable> | undefined> {
  const values: CountedValues = {
    ...countedValues(m, scope),
    outbox_id: announced.id,
    outbox_subject: announced.subject,
    outbox_envelope: announced.envelope,
    outbox_headers: announced.headers,
    outbox_created_at: announced.created_at,
  }
  if (guard.agent_id !== undefined) values.guard_agent_id = guard.agent_id
  if (guard.open) values.guard_not_status = 'closed'
  const shape = `${scopeShape(scope)}${guard.agent_id !== undefined ? 'a' : ''}${guard.open ? 'o' : ''}+outbox`
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
