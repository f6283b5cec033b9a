import { type Kysely, sql } from 'kysely'

/**
 * Messages get `seq`, their position in the session (1, 2, …), which `before`/`after` cursors and the order of a
 * session's messages use from now on. Ids are UUIDv7 from whichever replica wrote the message: two replicas in
 * one millisecond, or with skewed clocks, order their ids differently from the order they committed in, so a
 * client resuming after an id could miss a message. `seq` is the session's `message_count + 1`, taken under the
 * session's row lock, so it follows commit order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A default lets SQLite add a NOT NULL column; every insert names its seq (the unique index below refuses twins).
  await db.schema
    .alterTable('messages')
    .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  // Existing messages are numbered in the order they were shown so far: by time, the id breaking ties.
  await sql`
    update messages set seq = numbered.n
    from (
      select id, row_number() over (partition by session_id order by created_at, id) as n from messages
    ) as numbered
    where numbered.id = messages.id
  `.execute(db)
  // From now on message_count is the seq of the last message, so it must be the true count.
  await sql`
    update sessions set message_count = (select count(*) from messages where messages.session_id = sessions.id)
    where message_count <> (select count(*) from messages where messages.session_id = sessions.id)
  `.execute(db)
  await db.schema.dropIndex('messages_session_id_idx').execute()
  await db.schema
    .createIndex('messages_session_seq_idx')
    .on('messages')
    .columns(['session_id', 'seq'])
    .unique()
    .execute()
}
