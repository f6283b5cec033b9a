// Migration 0004 on a schema that already holds DailyStats' AI counters (both engines): they become platform-wide
// history in ai_days, scope ('', ''), which the unscoped view adds up and no tenant sees; days without AI answers
// make no row, and the other DailyStats counters are left as they were.
import { createDatabase, migrateToLatest } from '@switchboard/platform'
import { inEachStorageMode, silentLogger, storageFixture } from '@switchboard/testing'
import t from 'tap'
import { migrations } from '../../src/db/migrations/index.ts'

const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '20261127_0004'))

inEachStorageMode(t, "migration 0004: DailyStats' AI counters kept as platform-wide history", async (t, mode) => {
  const storage = await storageFixture(t, mode, 'staim')
  const logger = silentLogger()
  const { db, close } = await createDatabase<any>(storage.database, logger)
  t.teardown(close)
  await migrateToLatest(db, before, logger)
  const day = (date: string, ai: number, knowledge: number, compat: number) => ({
    date,
    total_sessions: 4,
    total_messages: 9,
    total_tickets: 2,
    resolved_tickets: 1,
    ai_usage_count: ai,
    knowledge_provider_usage_count: knowledge,
    compat_provider_usage_count: compat,
    sla_violations: 0,
    updated_at: '2026-01-03T00:00:00.000Z',
  })
  await db
    .insertInto('daily_stats')
    .values([day('2026-01-01', 5, 3, 1), day('2026-01-02', 0, 0, 0), day('2026-01-03', 2, 0, 0)])
    .execute()

  await migrateToLatest(db, migrations, logger)
  const rows = await db.selectFrom('ai_days').selectAll().orderBy('day').execute()
  t.same(
    rows.map((r: any) => ({ ...r, ai_usage_count: Number(r.ai_usage_count) })),
    [
      {
        tenant_id: '',
        workspace_id: '',
        day: '2026-01-01',
        ai_usage_count: 5,
        knowledge_provider_usage_count: 3,
        compat_provider_usage_count: 1,
      },
      {
        tenant_id: '',
        workspace_id: '',
        day: '2026-01-03',
        ai_usage_count: 2,
        knowledge_provider_usage_count: 0,
        compat_provider_usage_count: 0,
      },
    ],
    'one platform-wide row per day with AI answers',
  )
  const daily = await db.selectFrom('daily_stats').select(['date', 'ai_usage_count', 'total_messages']).execute()
  t.equal(daily.length, 3, 'DailyStats keeps its rows')
  t.ok(
    daily.every((r: any) => Number(r.total_messages) === 9),
    'and its other counters',
  )
})
