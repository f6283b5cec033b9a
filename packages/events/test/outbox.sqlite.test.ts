import t from 'tap'
import { openSqlite } from './fixtures/sqlite.ts'
import { outboxContract } from './outbox-contract.ts'

outboxContract(t, 'sqlite', async (t) => {
  const db = openSqlite()
  t.teardown(() => db.destroy())
  return db
})
