import { createDatabase, type DatabaseConfig } from '@switchboard/platform'
import { inEachStorageMode, silentLogger, storageFixture } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import type { ConversationsDatabase } from '../../src/db/database.ts'
import { migrations } from '../../src/db/migrations/index.ts'
import { sessionRow } from '../helpers/queue.ts'

// Migration 0002 on a database that already holds messages: they are numbered in the order they were shown
// until now (created_at, then id), and each session's message_count becomes the true count.

inEachStorageMode(t, 'migration 0002 numbers the messages already there', async (t, mode) => {
  const store = await storageFixture(t, mode, 'cvmig')
  const database = await createDatabase<ConversationsDatabase>(store.database as DatabaseConfig, silentLogger())
  t.teardown(() => database.close())
  const db = database.db
  await migrations['20261124_0001_conversations']!.up(db as Kysely<unknown>)

  const a = sessionRow({ id: 'sess-a', message_count: 3 })
  // a count that drifted: it must not hand out a seq some message already has
  const b = sessionRow({ id: 'sess-b', message_count: 0 })
  await db.insertInto('sessions').values([a, b]).execute()
  const message = (id: string, session_id: string, created_at: string) => ({
    id,
    session_id,
    tenant_id: 'acme',
    workspace_id: 'support',
    sender: 'customer',
    sender_id: null,
    kind: 'text',
    content: id,
    metadata: '{}',
    created_at,
  })
  // the v0001 table has no seq yet: written as that schema had it
  await (db as Kysely<any>)
    .insertInto('messages')
    .values([
      message('m-3', 'sess-a', '2026-01-01T10:00:00.000Z'),
      message('m-1', 'sess-a', '2026-01-01T09:00:00.000Z'),
      message('m-2b', 'sess-a', '2026-01-01T09:30:00.000Z'),
      message('m-2a', 'sess-a', '2026-01-01T09:30:00.000Z'),
      message('x-1', 'sess-b', '2026-01-01T08:00:00.000Z'),
    ])
    .execute()

  await migrations['20261124_0002_message_seq']!.up(db as Kysely<unknown>)

  const rows = await db.selectFrom('messages').select(['id', 'session_id', 'seq']).orderBy('id').execute()
  t.same(
    Object.fromEntries(rows.map((r) => [r.id, Number(r.seq)])),
    { 'm-1': 1, 'm-2a': 2, 'm-2b': 3, 'm-3': 4, 'x-1': 1 },
    'by created_at, the id breaking the tie, per session',
  )
  const counts = await db.selectFrom('sessions').select(['id', 'message_count']).orderBy('id').execute()
  t.same(
    counts.map((r) => [r.id, Number(r.message_count)]),
    [
      ['sess-a', 4],
      ['sess-b', 1],
    ],
    'message_count is the true count, the next seq free',
  )
  await t.rejects(
    db
      .insertInto('messages')
      .values({ ...message('m-dup', 'sess-a', '2026-01-02T00:00:00.000Z'), seq: 4 })
      .execute(),
    'a second message at one position is refused by the unique index',
  )
})
