import { nowIso, type Scope, whereScope } from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'
import type { InboxCursor, ViewFilter } from '../domain/inbox-rules.ts'
import type { ConversationsDatabase } from './database.ts'

// The console's inbox reads (README "Inbox"): one keyset page of sessions, newest activity first, each with what a
// list row shows — its last message, the customer's name, the caller's unread count — in one query.

type Db = Kysely<ConversationsDatabase>

/** a message is unread by `me` when it lies after its marker, and it is neither its own nor the service's */
const unreadSql = (me: string) => sql<number>`(
  select count(*) from messages u
  where u.session_id = s.id and u.seq > coalesce(r.last_read_seq, 0)
    and u.sender <> 'system' and (u.sender_id is null or u.sender_id <> ${me})
)`

export interface InboxRead {
  scope: Scope
  me: string
  limit: number
  cursor: InboxCursor | undefined
  /** the view's filter; or, for a resync, none: every session changed since `changed_since` */
  filter: ViewFilter | undefined
  changed_since: string | undefined
}

export async function inboxRows(db: Db, q: InboxRead) {
  let query = whereScope(
    db
      .selectFrom('sessions as s')
      .leftJoin('session_reads as r', (j) => j.onRef('r.session_id', '=', 's.id').on('r.user_id', '=', q.me))
      .leftJoin('messages as lm', (j) => j.onRef('lm.session_id', '=', 's.id').onRef('lm.seq', '=', 's.message_count'))
      .leftJoin('customers as c', (j) =>
        j
          .onRef('c.user_id', '=', 's.customer_id')
          .onRef('c.tenant_id', '=', 's.tenant_id')
          .onRef('c.workspace_id', '=', 's.workspace_id'),
      )
      .selectAll('s')
      .select([
        'r.last_read_seq',
        'c.name as customer_name',
        'lm.id as lm_id',
        'lm.seq as lm_seq',
        'lm.sender as lm_sender',
        'lm.sender_id as lm_sender_id',
        'lm.kind as lm_kind',
        'lm.visibility as lm_visibility',
        'lm.created_at as lm_created_at',
        sql<string | null>`substr(lm.content, 1, 200)`.as('lm_preview'),
        unreadSql(q.me).as('unread_count'),
      ]),
    q.scope,
    's',
  )
  const f = q.filter
  if (f) {
    query = query.where('s.status', 'in', [...f.statuses])
    if (f.channel !== undefined) query = query.where('s.channel', '=', f.channel)
    if (f.view === 'mine') query = query.where('s.agent_id', '=', f.me)
    if (f.view === 'unassigned') query = query.where('s.agent_id', 'is', null)
  }
  const since = q.changed_since
  if (since !== undefined) {
    // what changed, and what the caller read elsewhere (another tab): its unread count changed
    query = query.where((eb) =>
      eb.or([
        eb('s.updated_at', '>', since),
        eb(
          's.id',
          'in',
          eb
            .selectFrom('session_reads as rr')
            .select('rr.session_id')
            .where('rr.user_id', '=', q.me)
            .where('rr.updated_at', '>', since),
        ),
      ]),
    )
  }
  const c = q.cursor
  if (c) {
    query = query.where((eb) =>
      eb.or([eb('s.updated_at', '<', c.at), eb.and([eb('s.updated_at', '=', c.at), eb('s.id', '<', c.id)])]),
    )
  }
  return query
    .orderBy('s.updated_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(q.limit + 1)
    .execute()
}

export type InboxRow = Awaited<ReturnType<typeof inboxRows>>[number]

/** The caller's unread count in one session (the read route's answer). */
export async function unreadIn(db: Db, sessionId: string, me: string): Promise<number> {
  const row = await db
    .selectFrom('sessions as s')
    .leftJoin('session_reads as r', (j) => j.onRef('r.session_id', '=', 's.id').on('r.user_id', '=', me))
    .select(unreadSql(me).as('n'))
    .where('s.id', '=', sessionId)
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

/**
 * Moves `user`'s marker in the session up to `seq` — never back (two tabs, a late frame) — and answers where it
 * stands now.
 */
export async function advanceRead(
  db: Db,
  m: { session_id: string; user_id: string; tenant_id: string; workspace_id: string; seq: number },
): Promise<number> {
  await db
    .insertInto('session_reads')
    .values({
      session_id: m.session_id,
      user_id: m.user_id,
      tenant_id: m.tenant_id,
      workspace_id: m.workspace_id,
      last_read_seq: m.seq,
      updated_at: nowIso(),
    })
    .onConflict((oc) =>
      oc
        .columns(['session_id', 'user_id'])
        .doUpdateSet((eb) => ({
          last_read_seq: eb.ref('excluded.last_read_seq'),
          updated_at: eb.ref('excluded.updated_at'),
        }))
        .where('session_reads.last_read_seq', '<', m.seq),
    )
    .execute()
  const row = await db
    .selectFrom('session_reads')
    .select('last_read_seq')
    .where('session_id', '=', m.session_id)
    .where('user_id', '=', m.user_id)
    .executeTakeFirstOrThrow()
  return Number(row.last_read_seq)
}
