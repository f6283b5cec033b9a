import { sql } from 'kysely'
import t from 'tap'
import { openPostgresSchema } from './fixtures/postgres.ts'
import { outboxContract } from './outbox-contract.ts'

// One schema for this file; each case starts from empty tables.
const pg = await openPostgresSchema()
t.teardown(() => pg.drop())

outboxContract(
  t,
  'postgres',
  async () => {
    await sql`DROP TABLE IF EXISTS outbox, inbox, applied, kysely_migration, kysely_migration_lock`.execute(pg.db)
    return pg.db
  },
  pg.schema,
)
