import { engineUrls, inEachStorageMode, type StorageMode, uniqueId } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import pg from 'pg'
import type { Test } from 'tap'
import t from 'tap'
import { createDatabase, createRootLogger, systemCaller } from '../src/index.ts'
import { runTransaction, type Tx } from '../src/service/transaction.ts'

// The locks of a transaction, on both engines: on PostgreSQL a second transaction waits for (or skips) what the
// first holds; on SQLite each lock is a no-op, because the single connection already runs transactions one at a time.

interface Jobs {
  jobs: { id: string; n: number }
}

const logger = createRootLogger({ level: 'silent' })
const caller = systemCaller({ tenant_id: 'acme', workspace_id: 'support' })
const deps = { check: () => {}, kick: () => {} }
const HELD_MS = 500

async function openJobs(t: Test, mode: StorageMode): Promise<Kysely<Jobs>> {
  const schema = uniqueId('txlocks').replaceAll('-', '_')
  const database = await createDatabase<Jobs>(
    mode === 'postgres'
      ? { driver: 'postgres', url: engineUrls().databaseUrl, schema, pool_max: 4 }
      : { driver: 'sqlite', file: ':memory:' },
    logger,
  )
  t.teardown(async () => {
    await database.close()
    if (mode !== 'postgres') return
    const c = new pg.Client({ connectionString: engineUrls().databaseUrl })
    await c.connect()
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await c.end()
  })
  await database.db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('n', 'integer', (c) => c.notNull())
    .execute()
  await database.db
    .insertInto('jobs')
    .values([
      { id: 'a', n: 0 },
      { id: 'b', n: 0 },
      { id: 'c', n: 0 },
    ])
    .execute()
  return database.db
}

const inTx = <T>(db: Kysely<Jobs>, work: (tx: Tx<Jobs>) => Promise<T>) => runTransaction(db, deps, caller, work)
const job = (tx: Tx<Jobs>, id: string) => tx.db.selectFrom('jobs').selectAll().where('id', '=', id)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { open, opened }
}

/**
 * Transaction A takes a lock with `hold`, then keeps it for HELD_MS while B runs `contend` in its own transaction;
 * the order of what each did says whether B waited for A's commit.
 */
async function contended(
  db: Kysely<Jobs>,
  hold: (tx: Tx<Jobs>) => Promise<unknown>,
  contend: (tx: Tx<Jobs>) => Promise<unknown>,
) {
  const steps: string[] = []
  const held = gate()
  const a = inTx(db, async (tx) => {
    await hold(tx)
    steps.push('A locked')
    held.open()
    await sleep(HELD_MS)
    await tx.db.updateTable('jobs').set({ n: 1 }).where('id', '=', 'a').execute()
    steps.push('A commits')
  })
  await held.opened
  const b = inTx(db, async (tx) => {
    steps.push('B started')
    const seen = await contend(tx)
    steps.push('B got its answer')
    return seen
  })
  const [, seen] = await Promise.all([a, b])
  return { steps, seen }
}

inEachStorageMode(t, 'tx.dialect is the engine behind the transaction', async (t, mode) => {
  const db = await openJobs(t, mode)
  t.equal(await inTx(db, async (tx) => tx.dialect), mode)
})

inEachStorageMode(t, 'tx.forUpdate: a second locking read waits for the first transaction', async (t, mode) => {
  const db = await openJobs(t, mode)
  const compiled = await inTx(db, async (tx) => tx.forUpdate(job(tx, 'a')).compile().sql)
  if (mode === 'postgres') t.match(compiled, / for update$/, 'FOR UPDATE on PostgreSQL')
  else t.notMatch(compiled, /for update/i, 'no FOR UPDATE on SQLite (not its syntax)')

  const { steps, seen } = await contended(
    db,
    (tx) => tx.forUpdate(job(tx, 'a')).executeTakeFirstOrThrow(),
    (tx) => tx.forUpdate(job(tx, 'a')).executeTakeFirstOrThrow(),
  )
  // PostgreSQL: B starts, then blocks on the row; SQLite: B's transaction waits for the single connection
  const order =
    mode === 'postgres'
      ? ['A locked', 'B started', 'A commits', 'B got its answer']
      : ['A locked', 'A commits', 'B started', 'B got its answer']
  t.same(steps, order, 'B read only once A had committed')
  t.same(seen, { id: 'a', n: 1 }, "B saw A's write")

  if (mode === 'postgres') {
    // the control: the same read without the lock does not wait, and sees the row as it was
    const plain = await contended(
      db,
      (tx) => tx.forUpdate(job(tx, 'b')).executeTakeFirstOrThrow(),
      (tx) => job(tx, 'b').executeTakeFirstOrThrow(),
    )
    t.same(plain.steps, ['A locked', 'B started', 'B got its answer', 'A commits'], 'a plain read does not wait')
  }
})

inEachStorageMode(t, 'tx.skipLocked: a second claim skips the rows the first holds', async (t, mode) => {
  const db = await openJobs(t, mode)
  const claim = (tx: Tx<Jobs>) =>
    tx.skipLocked(tx.db.selectFrom('jobs').select('id').orderBy('id').limit(1)).executeTakeFirstOrThrow()
  const compiled = await inTx(
    db,
    async (tx) => tx.skipLocked(tx.db.selectFrom('jobs').select('id').orderBy('id').limit(1)).compile().sql,
  )
  if (mode === 'postgres') t.match(compiled, / for update skip locked$/, 'FOR UPDATE SKIP LOCKED on PostgreSQL')
  else t.notMatch(compiled, /for update|skip locked/i, 'neither on SQLite')

  const { steps, seen } = await contended(db, claim, claim)
  if (mode === 'postgres') {
    t.same(steps, ['A locked', 'B started', 'B got its answer', 'A commits'], 'B did not wait for A')
    t.same(seen, { id: 'b' }, 'B claimed the next row, not the one A holds')
  } else {
    t.same(steps, ['A locked', 'A commits', 'B started', 'B got its answer'], 'the single writer: B ran after A')
    t.same(seen, { id: 'a' }, 'nothing held by then, so B claimed the first row')
  }
})

inEachStorageMode(t, 'tx.advisoryLock: a second holder of the same key waits', async (t, mode) => {
  const db = await openJobs(t, mode)
  const same = await contended(
    db,
    (tx) => tx.advisoryLock('jobs.first'),
    (tx) => tx.advisoryLock('jobs.first'),
  )
  if (mode === 'postgres') {
    t.same(same.steps, ['A locked', 'B started', 'A commits', 'B got its answer'], 'B waited for A to commit')
    const other = await contended(
      db,
      (tx) => tx.advisoryLock('jobs.first'),
      (tx) => tx.advisoryLock('jobs.second'),
    )
    t.same(other.steps, ['A locked', 'B started', 'B got its answer', 'A commits'], 'another key does not wait')
    // held only until the transaction ends: taken again at once once both have committed
    const again = await Promise.race([
      inTx(db, (tx) => tx.advisoryLock('jobs.first')).then(() => 'taken'),
      sleep(HELD_MS).then(() => 'still held'),
    ])
    t.equal(again, 'taken', 'released at commit')
  } else {
    // no pg_advisory_xact_lock on SQLite: that it did not fail shows it issued nothing
    t.same(same.steps, ['A locked', 'A commits', 'B started', 'B got its answer'], 'the single writer: B ran after A')
  }
})
