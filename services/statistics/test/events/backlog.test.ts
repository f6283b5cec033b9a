// A replica that starts with a backlog (a new deployment, a restart after an outage) takes it while its lanes attach
// in the background: each projection's CONSUMER_LANES pull loops take up to 10 events each, so one record's events
// are applied out of order across lanes (a ticket's status change before its creation is thrown and redelivered,
// README "Read models"). Once every event is applied it equals a replica that was running when they were published:
// newest wins, each record counted once, nothing dead-lettered. On PostgreSQL and SQLite.
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { PROJECTIONS } from '../../src/consumers/projections.ts'
import { appliedAll, mirrored, statisticsApp } from '../helpers/app.ts'
import { snapshot } from '../helpers/snapshot.ts'
import { D2, publishWorld } from '../helpers/world.ts'

inEachStorageMode(t, 'a backlog taken while the lanes attach', async (t, mode) => {
  const running = (await statisticsApp(t, mode)).svc
  const starting = (await statisticsApp(t, mode, { started: false })).svc
  const { both, published } = mirrored(running, starting)
  await publishWorld(both)
  // every event applied, not only the lag at 0: a status change waiting for its redelivery is not in the lag
  await appliedAll(running, published)
  await appliedAll(starting, published)

  const rows = await snapshot(starting)
  t.same(rows, await snapshot(running), 'row for row what the replica that was running made')
  // t4 was resolved, then closed: its newest status change wins, whichever lane took it first
  t.match(
    rows.tickets?.find((r: any) => r.ticket_id === 't4'),
    { status: 'closed', resolved_at: `${D2}T01:30:00.000Z` },
  )
  t.match(
    rows.daily_stats?.find((r: any) => r.date === D2),
    { total_tickets: 1, resolved_tickets: 1 },
    't4 counted and resolved once',
  )
  for (const p of PROJECTIONS)
    t.same(await starting.bus.deadLetters({ consumer: p.durable }), [], `${p.durable}: none dead-lettered`)
})
