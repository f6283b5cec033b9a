// Audit events no store could take as they are (issue 19 §1), on PostgreSQL and SQLite: text with NUL characters or
// unpaired surrogates is stored with markers and flagged (PostgreSQL refused the row, every delivery dead-lettered it,
// and a replay could never succeed); an event off its contract is dead-lettered on its first delivery, not retried.
import { NUL_MARKER, SURROGATE_MARKER } from '@switchboard/platform'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { auditApp, auditEvent } from '../helpers/app.ts'

inEachStorageMode(t, 'audit consumer and hostile text', async (t, mode) => {
  const { svc } = await auditApp(t, mode, { config: { consumer_max_deliver: 3, consumer_backoff_ms: [50] } })
  const rowsOf = (eventId: string) =>
    svc.db.selectFrom('audit_logs').selectAll().where('event_id', '=', eventId).execute()
  const deadLetters = () => svc.bus.deadLetters({ consumer: 'audit-recorder' })

  t.test('NUL and lone surrogates anywhere in a record: stored with markers, flagged as sanitised', async (t) => {
    // as a publisher that did not sanitise sent it (or a dead letter from before, replayed)
    const event = auditEvent(
      {
        resource_id: '\u0000',
        route: '/api/security/users/\u0000/revoke-tokens',
        user_agent: 'probe\ud800',
        request_json: { name: 'a\u0000b', '\udc00': ['\ud83d'] },
        before_json: { title: 'fine 😀' },
      },
      { tenant_id: 'acme', workspace_id: 'support' },
    )
    await svc.bus.publish('audit.tickets.recorded', event)
    const [row] = await waitFor(async () => {
      const rows = await rowsOf(event.id)
      return rows.length ? rows : undefined
    })
    t.equal(row!.resource_id, NUL_MARKER)
    t.equal(row!.route, `/api/security/users/${NUL_MARKER}/revoke-tokens`)
    t.equal(row!.user_agent, `probe${SURROGATE_MARKER}`)
    t.ok(row!.sanitised === true || row!.sanitised === 1, 'flagged')
    const stored = await svc.db
      .selectFrom('audit_logs')
      .select(['request_json', 'before_json'])
      .where('event_id', '=', event.id)
      .executeTakeFirstOrThrow()
    const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v)
    t.same(json(stored.request_json), { name: `a${NUL_MARKER}b`, [SURROGATE_MARKER]: [SURROGATE_MARKER] })
    t.same(json(stored.before_json), { title: 'fine 😀' }, 'a surrogate pair is kept')
    t.same(await deadLetters(), [], 'nothing dead-lettered')
  })

  t.test('a clean record is not flagged', async (t) => {
    const event = auditEvent({ request_json: { title: 'x' } })
    await svc.bus.publish('audit.tickets.recorded', event)
    const [row] = await waitFor(async () => {
      const rows = await rowsOf(event.id)
      return rows.length ? rows : undefined
    })
    t.notOk(row!.sanitised === true || row!.sanitised === 1)
  })

  t.test('a record off its contract is dead-lettered on its first delivery, naming why', async (t) => {
    const invalid = { ...auditEvent({}), data: { action: 'broken' } } as unknown as ReturnType<typeof auditEvent>
    // an integer column: PostgreSQL refused this on every delivery, so it was retried into the dead letters
    const huge = auditEvent({ status_code: 10_000_000_000 })
    await svc.bus.publish('audit.tickets.recorded', invalid)
    await svc.bus.publish('audit.tickets.recorded', huge)
    const letters = await waitFor(async () => {
      const all = await deadLetters()
      return all.length >= 2 ? all : undefined
    })
    const of = (id: string) => letters.find((l) => l.envelope.id === id)
    t.match(of(invalid.id), { deliveries: 1, error: /PoisonMessageError: invalid audit record/ })
    t.match(of(huge.id), { deliveries: 1, error: /status_code 10000000000 is not an HTTP status/ })
    t.equal((await rowsOf(invalid.id)).length, 0)
    t.equal((await rowsOf(huge.id)).length, 0)
    const metrics = await svc.metrics.registry.getSingleMetricAsString('eventbus_poison_total')
    t.match(metrics, /eventbus_poison_total\{consumer="audit-recorder"[^}]*\} 2/, 'counted for the alert')
  })
})
