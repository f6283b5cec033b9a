// stats_projection_lag_seconds and GET /api/statistics/lag: the age of the oldest event a projection has not applied
// yet, 0 at rest — on both engines (the position is a row of the service's database, the stream is the real bus).
import { TicketEvents } from '@switchboard/contracts'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { AI_PROJECTION } from '../../src/consumers/ai.consumer.ts'
import { CONVERSATIONS_PROJECTION } from '../../src/consumers/conversations.consumer.ts'
import { IDENTITY_PROJECTION } from '../../src/consumers/identity.consumer.ts'
import { TICKETS_PROJECTION } from '../../src/consumers/tickets.consumer.ts'
import { ACME, applied, as, publish, statisticsApp, supervisor } from '../helpers/app.ts'
import { sampleOf, scrape } from '../helpers/scrape.ts'

const facts = (ticket_id: string, status: string, created_at: string) => ({
  ticket_id,
  customer_id: 'u-c1',
  agent_id: null,
  category: 'general',
  priority: 'normal',
  status,
  source: 'web',
  created_at,
})

inEachStorageMode(t, 'projection lag', async (t, mode) => {
  const { app, svc } = await statisticsApp(t, mode)
  const headers = await as(supervisor())
  const lag = async () => {
    const res = await app.inject({ method: 'GET', url: '/api/statistics/lag', headers })
    if (res.statusCode !== 200) throw new Error(`/api/statistics/lag answered ${res.statusCode} ${res.body}`)
    return res.json() as {
      caught_up: boolean
      projections: Array<{ projection: string; lag_seconds: number; pending: boolean; applied_seq: number | null }>
    }
  }
  const of = (body: Awaited<ReturnType<typeof lag>>, projection: string) =>
    body.projections.find((p) => p.projection === projection)!
  const gauge = async (projection: string) =>
    sampleOf(await scrape(app), 'stats_projection_lag_seconds', { projection })

  t.test('empty streams: 0 for every projection', async (t) => {
    const body = await lag()
    t.equal(body.caught_up, true)
    t.same(
      body.projections.map((p) => [p.projection, p.lag_seconds, p.pending]),
      [
        [IDENTITY_PROJECTION, 0, false],
        [TICKETS_PROJECTION, 0, false],
        [CONVERSATIONS_PROJECTION, 0, false],
        [AI_PROJECTION, 0, false],
      ],
    )
    for (const p of [IDENTITY_PROJECTION, TICKETS_PROJECTION, CONVERSATIONS_PROJECTION, AI_PROJECTION]) {
      t.equal(await gauge(p), 0, p)
    }
  })

  t.test('an event not applied yet: its age; once applied, 0 again', async (t) => {
    const hourAgo = new Date(Date.now() - 3600_000).toISOString()
    // a status change before its ticket: thrown and redelivered, so it stays unapplied until the ticket exists
    const change = await publish(
      svc,
      TicketEvents.statusChanged,
      { ticket_id: 'lag-1', from: 'open', to: 'in_progress', resolved_at: null, closed_at: null },
      ACME,
      hourAgo,
    )
    const behind = await waitFor(async () => {
      const body = await lag()
      return of(body, TICKETS_PROJECTION).pending ? body : undefined
    })
    t.equal(behind.caught_up, false)
    t.ok(of(behind, TICKETS_PROJECTION).lag_seconds >= 3600, `${of(behind, TICKETS_PROJECTION).lag_seconds} ≥ 3600`)
    t.ok(of(behind, TICKETS_PROJECTION).lag_seconds < 3700)
    t.equal(of(behind, IDENTITY_PROJECTION).lag_seconds, 0, 'the other projections are not behind')
    t.ok(((await gauge(TICKETS_PROJECTION)) ?? 0) >= 3600, 'the gauge says the same')
    // /ready shows it as details, and stays ready: a lagging read model does not leave the rotation
    const ready = await app.inject({ method: 'GET', url: '/ready' })
    t.equal(ready.statusCode, 200)
    t.match(ready.json(), { status: 'ready', details: { caught_up: false } })
    t.ok(
      ready
        .json()
        .details.projections.some(
          (p: { projection: string; pending: boolean }) => p.projection === TICKETS_PROJECTION && p.pending,
        ),
      'the behind projection is named',
    )

    const created = await publish(svc, TicketEvents.created, facts('lag-1', 'open', hourAgo), ACME, hourAgo)
    await applied(svc, TICKETS_PROJECTION, created.id)
    await waitFor(() => applied(svc, TICKETS_PROJECTION, change.id).then(() => true), 20_000)
    const after = await waitFor(async () => {
      const body = await lag()
      return body.caught_up ? body : undefined
    })
    t.equal(of(after, TICKETS_PROJECTION).lag_seconds, 0)
    t.ok((of(after, TICKETS_PROJECTION).applied_seq ?? 0) >= 2, 'the position is the newest applied event')
    t.equal(await gauge(TICKETS_PROJECTION), 0)
    t.match((await app.inject({ method: 'GET', url: '/ready' })).json(), {
      status: 'ready',
      details: { caught_up: true },
    })
  })

  t.test(
    'a copy of an applied event (republished, redelivered) is not pending: the position moves past it',
    async (t) => {
      const created = await publish(svc, TicketEvents.created, facts('lag-2', 'open', new Date().toISOString()))
      await applied(svc, TICKETS_PROJECTION, created.id)
      // the same event again under another sequence, last in the stream: the consumer skips it (inbox), applying nothing
      const copy = await svc.bus.publish(created.type, created, { msgId: `${created.id}-again` })
      const body = await waitFor(async () => {
        const b = await lag()
        return of(b, TICKETS_PROJECTION).applied_seq === copy.seq ? b : undefined
      })
      t.equal(body.caught_up, true)
      t.equal(of(body, TICKETS_PROJECTION).lag_seconds, 0)
    },
  )
})
