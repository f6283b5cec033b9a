// `switchboard stats rebuild` against the fleet's engines: statistics running on a PostgreSQL schema and JetStream
// streams of its own, its tickets projection emptied and replayed by the CLI (flags as env), the read model after
// equal to before, the progress sized by the stream; the embedded mode and an unknown projection refused; the bin.
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { TicketEvents, UNITS } from '@switchboard/contracts'
import { createJetStreamBus, newEnvelope } from '@switchboard/events'
import { createDatabase } from '@switchboard/platform'
import { silentLogger, storageFixture, waitFor } from '@switchboard/testing'
import t from 'tap'
import { rebuildEnv } from '../src/commands/stats.ts'
import { REPO_ROOT } from '../src/fleet.ts'
import { rebuildStats } from '../src/stats-rebuild.ts'
import { loadUnit } from '../src/units.ts'

const INTERNAL_SECRET = 'internal-secret-of-the-cli-tests-0123456789'
const TICKETS = 25

t.test('stats rebuild: a projection replayed from JetStream into PostgreSQL', async (t) => {
  const store = await storageFixture(t, 'postgres', 'clst')
  if (store.database.driver !== 'postgres' || store.bus.driver !== 'nats') throw new Error('postgres storage expected')
  const { url: databaseUrl, schema } = store.database
  const { url: natsUrl, prefix } = store.bus

  // statistics running, as a replica of the fleet does
  const unit = await loadUnit(UNITS.statistics)
  const config = {
    ...unit.loadConfig({ INTERNAL_SECRET, LOG_LEVEL: 'silent' }),
    port: 0,
    database: store.database,
    cache: store.cache,
    bus: store.bus,
  }
  const app = (await unit.build(config, { logger: silentLogger() })) as Awaited<ReturnType<typeof unit.build>> & {
    ready(): Promise<unknown>
  }
  t.teardown(() => app.close())
  await app.ready()

  // tickets' events on the fleet's stream
  const bus = await createJetStreamBus({ url: natsUrl, prefix, logger: silentLogger() })
  t.teardown(() => bus.close())
  for (let i = 0; i < TICKETS; i++) {
    const data = {
      ticket_id: `cli-${i}`,
      customer_id: 'u-1',
      agent_id: null,
      category: i % 2 ? 'billing' : 'general',
      priority: 'normal',
      status: 'open',
      source: 'web',
      created_at: `2026-01-0${1 + (i % 3)}T10:00:00.000Z`,
    }
    const envelope = newEnvelope({
      type: TicketEvents.created.type,
      tenant_id: 'acme',
      workspace_id: 'main',
      actor: { user_id: 'svc', kind: 'service' },
      data,
    })
    await bus.publish(envelope.type, envelope)
  }
  const db = await createDatabase<any>(store.database, silentLogger())
  t.teardown(() => db.close())
  const readModel = async () => ({
    tickets: await db.db
      .selectFrom('tickets')
      .select(['ticket_id', 'category', 'status'])
      .orderBy('ticket_id')
      .execute(),
    daily: await db.db.selectFrom('daily_stats').select(['date', 'total_tickets']).orderBy('date').execute(),
  })
  const before = await waitFor(async () => {
    const m = await readModel()
    return m.tickets.length === TICKETS ? m : undefined
  }, 15_000)

  t.test('--projection tickets, from flags', async (t) => {
    const env = rebuildEnv(
      { projection: ['tickets'], databaseUrl, schema, nats: natsUrl, prefix },
      { LOG_LEVEL: 'silent', INTERNAL_SECRET },
    )
    t.match(env, { DATABASE_URL: databaseUrl, DB_SCHEMA: schema, NATS_URL: natsUrl, NATS_PREFIX: prefix })
    const sized: Record<string, number> = {}
    const done: Record<string, number> = {}
    const reports = await rebuildStats({
      projections: ['tickets'],
      env,
      logger: silentLogger(),
      onStart: (projection, total) => {
        sized[projection] = total
      },
      onProgress: (projection, n) => {
        done[projection] = n
      },
    })
    t.same(sized, { 'statistics-tickets': TICKETS }, 'the bar is sized by the stream')
    t.same(done, { 'statistics-tickets': TICKETS })
    t.match(reports, [{ projection: 'statistics-tickets', stream: 'TICKETS', events: TICKETS, applied: TICKETS }])
    t.same(reports[0]?.failed, [])
    t.same(await readModel(), before, 'the read model after equals the one before')
  })

  t.test('refusals: the embedded mode, an unknown projection', async (t) => {
    await t.rejects(
      rebuildStats({ env: { DB_DRIVER: 'sqlite', BUS_DRIVER: 'memory' }, logger: silentLogger() }),
      /embedded mode/,
    )
    const env = rebuildEnv({ databaseUrl, schema, nats: natsUrl, prefix }, { LOG_LEVEL: 'silent' })
    await t.rejects(
      rebuildStats({ projections: ['tickts'], env, logger: silentLogger() }),
      /unknown projection tickts: one of identity, tickets, conversations/,
    )
    t.same(await readModel(), before, 'nothing emptied')
  })

  t.test('the bin: every projection, a report per projection on stdout', async (t) => {
    const bin = join(REPO_ROOT, 'packages/cli/src/bin.ts')
    const args = ['stats', 'rebuild', '--database-url', databaseUrl, '--schema', schema, '--nats', natsUrl]
    const { stdout } = await promisify(execFile)(process.execPath, [bin, ...args, '--prefix', prefix, '--json'], {
      env: { PATH: process.env.PATH, LOG_LEVEL: 'silent' },
    })
    const reports = JSON.parse(stdout)
    t.same(
      reports.map((r: any) => [r.projection, r.events, r.failed.length]),
      [
        ['statistics-identity', 0, 0],
        ['statistics-tickets', TICKETS, 0],
        ['statistics-conversations', 0, 0],
        ['statistics-ai', 0, 0],
      ],
    )
    t.same(await readModel(), before)
  })
})
