// The outbox writer (audit records of management writes, `svc.emitSoon`) on real PostgreSQL: a batch the database
// does not take at once — its pool's only connection held, so the insert times out waiting for one, as a replica's
// did under the chaos bench — is tried again and goes in once; given no retries it is reported as before.
import { eventsMigrations, newEnvelope } from '@switchboard/events'
import { pgSchemaFixture } from '@switchboard/testing'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import t, { type Test } from 'tap'
import { createRootLogger } from '../src/index.ts'
import { createOutboxWriter } from '../src/service/outbox-writer.ts'

async function database(t: Test) {
  const { url, schema } = await pgSchemaFixture(t, { label: 'obw', create: true })
  const pool = new pg.Pool({
    connectionString: url,
    max: 1,
    connectionTimeoutMillis: 150,
    options: `-c search_path=${schema}`,
  })
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) })
  t.teardown(() => db.destroy())
  for (const m of Object.values(eventsMigrations)) await m.up(db)
  return db
}

function logLines() {
  const lines: Array<{ level: number; msg: string }> = []
  const logger = createRootLogger({
    level: 'info',
    destination: { write: (l: string) => void lines.push(JSON.parse(l)) },
  })
  return { logger, lines }
}

const envelope = () =>
  newEnvelope({
    type: 'audit.record.recorded',
    tenant_id: 't',
    workspace_id: 'w',
    actor: { user_id: 'u', kind: 'service' },
    data: { n: 1 },
  })

/** Holds the pool's only connection for `ms`. */
function hold(db: Kysely<any>, ms: number) {
  return db.connection().execute(() => new Promise((r) => setTimeout(r, ms)))
}

t.test('a batch refused for want of a connection goes in once the connection is back', async (t) => {
  const db = await database(t)
  const { logger, lines } = logLines()
  let written = 0
  const writer = createOutboxWriter(
    db,
    logger,
    () => written++,
    (fn) => setImmediate(fn),
  )
  const held = hold(db, 700)
  await new Promise((r) => setTimeout(r, 20))
  const e = envelope()
  await writer.write('audit.t.recorded', e)
  await held
  const rows = await db.selectFrom('outbox').select(['id', 'subject']).execute()
  t.same(rows, [{ id: e.id, subject: 'audit.t.recorded' }], 'in the outbox, once')
  t.equal(written, 1, 'the relay was told once')
  const retries = lines.filter((l) => l.msg === 'events not queued yet; trying again')
  t.ok(retries.length >= 1, `it was tried again (${retries.length}×)`)
  t.notOk(
    lines.some((l) => l.msg === 'events could not be queued'),
    'nothing given up',
  )
})

t.test('with no retries left the batch is reported and the write rejects', async (t) => {
  const db = await database(t)
  const { logger, lines } = logLines()
  const writer = createOutboxWriter(
    db,
    logger,
    () => {},
    (fn) => setImmediate(fn),
    [],
  )
  const held = hold(db, 500)
  await new Promise((r) => setTimeout(r, 20))
  await t.rejects(writer.write('audit.t.recorded', envelope()), /timeout/, 'the caller learns it')
  await held
  t.equal((await db.selectFrom('outbox').select('id').execute()).length, 0, 'nothing written')
  t.ok(
    lines.some((l) => l.level === 50 && l.msg === 'events could not be queued'),
    'logged at error',
  )
})
