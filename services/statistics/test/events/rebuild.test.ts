// `switchboard stats rebuild` on the fleet's engines: a projection emptied and replayed from its JetStream stream
// into PostgreSQL, through an app built but not started (as the CLI does), while a running replica keeps consuming
// and new events keep arriving — ending row for row equal to a replica on another schema that never stopped.
import { ConversationEvents, TicketEvents } from '@switchboard/contracts'
import { silentLogger, storageFixture, waitFor } from '@switchboard/testing'
import t from 'tap'
import { rebuild, statistics } from '../../src/build.ts'
import { projectionLags } from '../../src/commands/lag.commands.ts'
import { projectionsNamed } from '../../src/commands/rebuild.commands.ts'
import { loadConfig } from '../../src/config.ts'
import type { StatisticsService } from '../../src/context.ts'
import { aggregatesDrift } from '../../src/db/aggregates-check.ts'
import { ACME, appliedAll, GLOBEX, INTERNAL_SECRET, mirrored, publish } from '../helpers/app.ts'
import { snapshot } from '../helpers/snapshot.ts'
import { at, message, publishWorld, session, ticket } from '../helpers/world.ts'

const caughtUp = (svc: StatisticsService) =>
  waitFor(async () => (await projectionLags(svc)).every((l) => !l.pending && !l.rebuilding), 30_000).catch(
    async (err) => {
      throw new Error(`${err.message}: ${JSON.stringify(await projectionLags(svc))}`)
    },
  )

t.test('rebuild while events keep arriving ends equal to a projection that never stopped (postgres)', async (t) => {
  // the rebuilt replica and its reference each have their own schema and streams (a durable is shared by whoever
  // names it), and every event is published to both, the same envelope
  const stores = {
    rebuilt: await storageFixture(t, 'postgres', 'strb'),
    steady: await storageFixture(t, 'postgres', 'strs'),
  }
  // started: its consumers attached before the test goes on (as a runner's /ready waits for); starting: ready, its
  // consumers attaching in the background while the events arrive (a replica that starts with a backlog); built:
  // never started, as `switchboard stats rebuild` runs
  const start = async (which: keyof typeof stores, run: 'started' | 'starting' | 'built') => {
    const store = stores[which]
    const config = {
      ...loadConfig({ INTERNAL_SECRET, LOG_LEVEL: 'silent' }),
      port: 0,
      database: store.database,
      cache: store.cache,
      bus: store.bus,
    }
    const app = await statistics.build(config, { logger: silentLogger() })
    t.teardown(() => app.close())
    if (run !== 'built') await app.ready()
    if (run === 'started') await app.whenStarted()
    return app
  }
  const steady = statistics.contextOf(await start('steady', 'started'))
  // the world reaches the replica to rebuild while its lanes attach: one record's events are taken out of order
  // there (a status change before its ticket is redelivered), and it still ends as the steady one
  const live = statistics.contextOf(await start('rebuilt', 'starting'))
  const { both, published } = mirrored(steady, live)
  /** caught up, and every event published so far applied (a partial event's redelivery is not in the lag) */
  const settled = async (svc: StatisticsService) => {
    await caughtUp(svc)
    await appliedAll(svc, published)
  }
  await publishWorld(both)
  await settled(steady)
  await settled(live)
  const before = await snapshot(live)
  t.same(before, await snapshot(steady), 'two replicas of one stream on two schemas agree')
  t.ok((before.tickets?.length ?? 0) > 0 && (before.message_counts?.length ?? 0) > 0)

  t.test('a projection name the service does not have is refused before anything is emptied', async (t) => {
    t.throws(() => projectionsNamed(['ticket']), /unknown projection ticket: one of identity, tickets, conversations/)
    t.same(
      projectionsNamed(['tickets', 'statistics-identity']).map((p) => p.durable),
      ['statistics-tickets', 'statistics-identity'],
    )
  })

  t.test('every projection, with traffic during the rebuild', async (t) => {
    const cli = await start('rebuilt', 'built')
    const progress: Record<string, number> = {}
    const started: string[] = []
    // new activity while the rebuild runs: tickets made and resolved, sessions with messages, on both tenants —
    // started as the tickets projection is about to be emptied, so it races its reset, its replay and the next one's
    const traffic = async () => {
      for (let i = 0; i < 12; i++) {
        const scope = i % 2 ? ACME : GLOBEX
        const created = at(0, `02:${String(i).padStart(2, '0')}:00`)
        await publish(both, TicketEvents.created, ticket(`rb-${i}`, null, 'rebuild', 'high', 'open', created), scope)
        await publish(
          both,
          TicketEvents.statusChanged,
          { ticket_id: `rb-${i}`, from: 'open', to: 'resolved', resolved_at: at(0, '03:00:00'), closed_at: null },
          scope,
        )
        await publish(both, ConversationEvents.sessionCreated, session(`rbs-${i}`, 'active', created), scope)
        await publish(both, ConversationEvents.messageCreated, message(`rbs-${i}`, created), scope)
      }
    }
    let arriving: Promise<void> | undefined
    const rebuilding = rebuild(cli, [], {
      markEvery: 3,
      onStart: (projection) => {
        started.push(projection)
        if (projection === 'statistics-tickets') arriving = traffic()
      },
      onProgress: (projection, done) => {
        progress[projection] = done
      },
    })
    const reports = await rebuilding
    await arriving
    t.same(started, ['statistics-identity', 'statistics-tickets', 'statistics-conversations', 'statistics-ai'])
    for (const r of reports) {
      t.same(r.failed, [], `${r.projection}: nothing failed`)
      // the world has no AI answers: that projection's stream is empty, and its rebuild reads nothing
      const some = r.projection === 'statistics-ai' ? r.events === 0 : r.events > 0
      t.ok(some && (progress[r.projection] ?? 0) === r.events, `${r.projection}: ${r.events} events read`)
      t.ok(r.applied <= r.events)
    }
    // a status change the live consumer took while its ticket was emptied and not yet replayed is redelivered
    // (as any partial event before its record): settled waits for it
    await settled(steady)
    await settled(live)
    const after = await snapshot(live)
    t.same(after, await snapshot(steady), 'the rebuilt schema equals the one that never stopped')
    // and its aggregates were rebuilt with it: equal to its raw rows summed (so to the steady schema's)
    t.same(await aggregatesDrift(live.db, live.dialect), [], 'the rebuilt aggregates equal the raw rows summed')
    t.equal(after.tickets?.filter((x: any) => x.category === 'rebuild').length, 12)
  })

  t.test('one projection: only its tables are emptied and replayed', async (t) => {
    const cli = await start('rebuilt', 'built')
    const [report] = await rebuild(cli, ['conversations'])
    t.equal(report?.projection, 'statistics-conversations')
    // the world publishes one message twice: the second is skipped, as the live consumer skipped it
    t.equal(report?.applied, (report?.events ?? 0) - 1, 'no traffic meanwhile: the rebuild applies every event once')
    t.same(await snapshot(live), await snapshot(steady))
    t.same(await aggregatesDrift(live.db, live.dialect), [], 'the rebuilt aggregates equal the raw rows summed')
    const lags = await projectionLags(live)
    t.same(
      lags.map((l) => [l.projection, l.lag_seconds, l.rebuilding]),
      [
        ['statistics-identity', 0, false],
        ['statistics-tickets', 0, false],
        ['statistics-conversations', 0, false],
        ['statistics-ai', 0, false],
      ],
    )
  })
})
