import { engineUrls, uniqueId } from '@switchboard/testing'
import { type Kysely, sql } from 'kysely'
import pg from 'pg'
import type { Test } from 'tap'
import t from 'tap'

import {
  baseConfigFromEnv,
  createDatabase,
  createRootLogger,
  migrateToLatest,
  parseConfig,
  pgTimestampToIso,
  ServiceBaseConfig,
} from '../src/index.ts'

const logger = createRootLogger({ level: 'silent' })

t.test('timestamps in PostgreSQL ISO output become what Date made of them, without Date', async (t) => {
  for (const v of [
    '2026-11-22 02:10:00',
    '2026-11-22 02:10:00.1',
    '2026-11-22 02:10:00.12',
    '2026-11-22 02:10:00.123',
  ]) {
    t.equal(pgTimestampToIso(`${v}+00`, true), new Date(`${v}+00`).toISOString(), `${v}+00`)
    t.equal(pgTimestampToIso(v, false), new Date(`${v}Z`).toISOString(), v)
  }
  t.equal(
    pgTimestampToIso('2026-12-31 23:59:59.9999995+00', true),
    '2026-12-31T23:59:59.999Z',
    'truncated, not rounded',
  )
  t.equal(pgTimestampToIso('2026-11-22 02:10:00.123456', false), '2026-11-22T02:10:00.123Z')
  t.equal(
    pgTimestampToIso('2026-11-22 04:10:00.5+02', true),
    '2026-11-22T02:10:00.500Z',
    'another zone: parsed by Date',
  )
  t.equal(pgTimestampToIso('2026-11-22 07:40:00+05:30', true), '2026-11-22T02:10:00.000Z')
  t.throws(() => pgTimestampToIso('infinity', true), RangeError, 'not a date: as before')
})

/** One connection (so every query sees the same prepared statements), its schema dropped at teardown. */
async function openDb(t: Test, prepared?: boolean) {
  const schema = uniqueId('platformdb').replaceAll('-', '_')
  const database = await createDatabase<any>(
    {
      driver: 'postgres',
      url: engineUrls().databaseUrl,
      schema,
      pool_max: 1,
      ...(prepared === undefined ? {} : { prepared_statements: prepared }),
    },
    logger,
  )
  t.teardown(async () => {
    await database.close()
    const c = new pg.Client({ connectionString: engineUrls().databaseUrl })
    await c.connect()
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await c.end()
  })
  return database
}
const preparedTexts = async (db: Kysely<any>) =>
  (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)).rows.map(
    (r) => r.statement,
  )

t.test('on PostgreSQL: timestamps as ISO strings, int8 and numeric as numbers', async (t) => {
  const database = await openDb(t)
  const { rows } = await sql<Record<string, unknown>>`select
      timestamptz '2026-11-22 02:10:00.123456+00' as tz,
      timestamptz '2026-11-22 04:10:00+02' as tz2,
      timestamp '2026-11-22 02:10:00.5' as ts,
      12::int8 as n,
      1.5::numeric as d`.execute(database.db)
  t.same(rows[0], {
    tz: '2026-11-22T02:10:00.123Z',
    tz2: '2026-11-22T02:10:00.000Z',
    ts: '2026-11-22T02:10:00.500Z',
    n: 12,
    d: 1.5,
  })
})

t.test('parameterised SELECTs run as prepared statements; a stale one is renewed and run again', async (t) => {
  const { db } = await openDb(t)
  await sql`create table items (id text primary key)`.execute(db)
  await db.insertInto('items').values({ id: 'a' }).execute()
  const byId = () => db.selectFrom('items').selectAll().where('id', '=', 'a').execute()
  t.same(await byId(), [{ id: 'a' }])
  t.same(await byId(), [{ id: 'a' }])
  const texts = await preparedTexts(db)
  t.equal(texts.filter((s) => s.startsWith('select * from "items"')).length, 1, 'prepared once, reused')
  t.notOk(
    texts.some((s) => s.startsWith('insert')),
    'only SELECTs are named',
  )

  // A migration changes the row type under `select *`: PostgreSQL refuses the cached plan (0A000).
  await sql`alter table items add column note text`.execute(db)
  t.same(await byId(), [{ id: 'a', note: null }], 'renewed and answered, not an error')

  await sql`alter table items add column n int`.execute(db)
  await t.rejects(
    db.transaction().execute(async (trx) => trx.selectFrom('items').selectAll().where('id', '=', 'a').execute()),
    { code: '0A000' },
    'inside a transaction the error stands (the transaction is already aborted)',
  )
  t.same(await byId(), [{ id: 'a', note: null, n: null }], 'and the next query prepares afresh')
})

t.test('DB_PREPARED_STATEMENTS=false: nothing prepared', async (t) => {
  const env = { INTERNAL_SECRET: 'internal-secret-for-tests-0123456789', DB_PREPARED_STATEMENTS: 'false' }
  const config = parseConfig(ServiceBaseConfig, baseConfigFromEnv(env, { name: 'svc', port: 1 }))
  t.equal(config.database.driver === 'postgres' && config.database.prepared_statements, false)
  const { db } = await openDb(t, false)
  await sql`create table items (id text primary key)`.execute(db)
  await db.selectFrom('items').selectAll().where('id', '=', 'a').execute()
  t.same(await preparedTexts(db), [])
})

t.test('migrations survive other schemas being dropped while Kysely introspects the catalog', async (t) => {
  const url = engineUrls().databaseUrl
  const churn = new pg.Client({ connectionString: url })
  await churn.connect()
  const tag = uniqueId('churn').replaceAll('-', '_')
  let stop = false
  // Other schemas with serial columns come and go, as other services' and test files' schemas do.
  const churning = (async () => {
    for (let i = 0; !stop; i++) {
      await churn.query(`CREATE SCHEMA "${tag}_${i}"; CREATE TABLE "${tag}_${i}".t (id serial primary key)`)
      await churn.query(`DROP SCHEMA "${tag}_${i}" CASCADE`)
    }
  })()
  t.teardown(async () => {
    stop = true
    await churning.catch(() => {})
    await churn.end()
  })
  const migrations = {
    '0001_things': {
      up: async (db: Kysely<any>) => {
        await db.schema
          .createTable('things')
          .addColumn('id', 'serial', (c) => c.primaryKey())
          .execute()
      },
    },
  }
  const failures: string[] = []
  for (let i = 0; i < 30; i++) {
    const database = await openDb(t)
    await migrateToLatest(database.db, migrations, logger).catch((err: Error) =>
      failures.push(`${err.message}: ${(err.cause as Error | undefined)?.message}`),
    )
  }
  t.same(failures, [], '30 migrations, none failed on a schema that vanished meanwhile')
})
