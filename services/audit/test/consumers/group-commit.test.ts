// The recorder's group commit, on PostgreSQL + JetStream and SQLite + the in-process bus: the deliveries ready
// together are written by one multi-row statement each batch, every record once; a record off its contract is
// dead-lettered alone (its batch-mates are stored and acknowledged); a tenant's cache found stale by the insert is
// reloaded and only its records are masked again and retried — also when the erasure commits while the batch's
// statement waits (PostgreSQL).
import { ERASED_TEXT } from '@switchboard/contracts'
import { fromJson } from '@switchboard/platform'
import { inEachStorageMode, testPrincipal, waitFor } from '@switchboard/testing'
import { type KyselyPlugin, sql } from 'kysely'
import t from 'tap'
import { addErasedSubjects, lockAuditLogs } from '../../src/db/erased-subjects.repository.ts'
import { subjectOf } from '../../src/domain/erased-subjects.ts'
import { as, auditApp, auditEvent } from '../helpers/app.ts'

const gateway = testPrincipal({ user_id: 'gateway', kind: 'service', roles: [], tenant_id: '', workspace_id: '' })

inEachStorageMode(t, 'audit recorder: group commit', async (t, mode) => {
  const n = Math.random().toString(36).slice(2, 8)

  t.test('500 records published at once: each stored once, in few statements; a poison one alone', async (t) => {
    const { app, svc } = await auditApp(t, mode, {
      ready: false,
      config: { consumer_max_deliver: 3, consumer_backoff_ms: [50] },
    })
    // a statement counter on the handle the recorder writes with (the relay and the inbox consumers keep theirs)
    let statements = 0
    let inserts = 0
    const counter: KyselyPlugin = {
      transformQuery: (args) => {
        statements++
        const node = args.node as { kind: string; sqlFragments?: readonly string[] }
        if (node.kind === 'RawNode' && node.sqlFragments?.join('').includes('insert into audit_logs')) inserts++
        return args.node
      },
      transformResult: async (args) => args.result,
    }
    ;(svc as { db: typeof svc.db }).db = svc.db.withPlugin(counter)
    const tenants = [`gc${n}`, `gc${n}b`]
    const events = Array.from({ length: 500 }, (_, i) =>
      auditEvent({ resource_id: `t${i}`, request_json: { title: `ticket ${i}` } }, { tenant_id: tenants[i % 2]! }),
    )
    const poison = {
      ...auditEvent({}, { tenant_id: tenants[0]! }),
      data: { action: 'broken' },
    } as unknown as (typeof events)[number]
    const all = [...events.slice(0, 250), poison, ...events.slice(250)]
    // published before the recorder attaches: a backlog it drains
    for (let i = 0; i < all.length; i += 50) {
      await Promise.all(all.slice(i, i + 50).map((e) => svc.bus.publish('audit.tickets.recorded', e)))
    }
    await app.ready()
    await app.whenStarted()
    const ids = () =>
      svc.db
        .selectFrom('audit_logs')
        .select('event_id')
        .where('tenant_id', 'in', tenants)
        .execute()
        .then((rows) => rows.map((r) => r.event_id))
    await waitFor(async () => ((await ids()).length >= 500 ? true : undefined), 30_000)
    const stored = await ids()
    t.equal(stored.length, 500, 'no record twice')
    t.same(new Set(stored), new Set(events.map((e) => e.id)), 'every record')
    t.ok(inserts > 0 && inserts < 500 / 10, `${inserts} inserts for 500 records (fewer than 50)`)
    t.ok(statements < 500 / 10, `${statements} statements in all (the inserts, the tenants' erasure epochs)`)
    const letters = await waitFor(async () => {
      const l = await svc.bus.deadLetters({ consumer: 'audit-recorder' })
      return l.length ? l : undefined
    })
    await new Promise((r) => setTimeout(r, 300)) // anything else would be dead-lettered by now (backoff 50 ms)
    t.same(
      (await svc.bus.deadLetters({ consumer: 'audit-recorder' })).map((l) => l.envelope.id),
      [poison.id],
      'the poison record alone is dead-lettered',
    )
    t.match(letters[0], { deliveries: 1, error: /PoisonMessageError: invalid audit record/ })
    const metrics = await svc.metrics.registry.metrics()
    t.match(metrics, /eventbus_failed_total\{consumer="audit-recorder"[^}]*\} 1\n/, 'one failed delivery: the poison')
  })

  t.test('a batch meeting a stale cache: only that tenant is reloaded, masked again and retried', async (t) => {
    const { app, svc } = await auditApp(t, mode)
    const handOver = async (records: unknown[]) =>
      (
        await app.inject({
          method: 'POST',
          url: '/internal/audit/records',
          headers: { ...(await as(gateway)), 'content-type': 'application/json' },
          payload: { records },
        })
      ).json()
    const a = { tenant_id: `st${n}`, workspace_id: 'main' }
    const b = { tenant_id: `st${n}b`, workspace_id: 'main' }
    const first = auditEvent({ resource_id: `r0-${n}` }, a)
    t.same(await handOver([first]), { stored: 1, duplicates: 0, rejected: [] }, 'the cache holds tenant a at epoch 0')
    // another replica's erasure in tenant a, behind this one's back
    await addErasedSubjects(svc.db, a.tenant_id, 'er-a', [subjectOf(a.tenant_id, 'Quentin Late', 'identifier')!])
    const naming = auditEvent({ resource_id: `r1-${n}`, request_json: { name: 'quentin late', status: 'vip' } }, a)
    const plainA = auditEvent({ resource_id: `r2-${n}`, request_json: { title: 'other' } }, a)
    const plainB = auditEvent({ resource_id: `r3-${n}`, request_json: { title: 'b' } }, b)
    const sameNameB = auditEvent({ resource_id: `r4-${n}`, request_json: { name: 'Quentin Late' } }, b)
    t.same(await handOver([naming, plainB, first, plainA, sameNameB]), { stored: 4, duplicates: 1, rejected: [] })
    const json = async (id: string) =>
      fromJson(
        (
          await svc.db
            .selectFrom('audit_logs')
            .select('request_json')
            .where('event_id', '=', id)
            .executeTakeFirstOrThrow()
        ).request_json,
        null,
      )
    t.same(await json(naming.id), { name: ERASED_TEXT, status: 'vip' }, 'masked with the reloaded subjects')
    t.same(await json(plainA.id), { title: 'other' })
    t.same(await json(plainB.id), { title: 'b' })
    t.same(await json(sameNameB.id), { name: 'Quentin Late' }, 'the same name in another tenant is kept')
    const count = await svc.db
      .selectFrom('audit_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('event_id', '=', first.id)
      .executeTakeFirstOrThrow()
    t.equal(Number(count.n), 1, 'the duplicate in the batch not written again')
  })

  t.test('an erasure committing while the batch waits to insert', { skip: mode !== 'postgres' }, async (t) => {
    // (SQLite has one writer: an erasure and a batch never overlap)
    const { app, svc } = await auditApp(t, mode)
    const scope = { tenant_id: `mid${n}`, workspace_id: 'main' }
    const handOver = async (records: unknown[]) =>
      app.inject({
        method: 'POST',
        url: '/internal/audit/records',
        headers: { ...(await as(gateway)), 'content-type': 'application/json' },
        payload: { records },
      })
    t.equal(
      (await handOver([auditEvent({ resource_id: `m0-${n}` }, scope)])).json().stored,
      1,
      'the cache holds the tenant at epoch 0',
    )
    const batch = [
      auditEvent({ resource_id: `m1-${n}`, request_json: { note: 'for Yuri Midway' } }, scope),
      auditEvent({ resource_id: `m2-${n}`, request_json: { note: 'nothing personal' } }, scope),
      auditEvent({ resource_id: `m3-${n}`, request_json: { note: 'yuri midway again' } }, scope),
    ]
    const { promise: held, resolve: release } = Promise.withResolvers<void>()
    const { promise: lockTaken, resolve: locked } = Promise.withResolvers<void>()
    // another replica's erasure: it holds the table while the batch, masked with the old subjects, tries to insert
    const erasure = svc.db.transaction().execute(async (tx) => {
      await lockAuditLogs(tx, 'postgres')
      locked()
      await held
      await addErasedSubjects(tx, scope.tenant_id, 'er-mid', [subjectOf(scope.tenant_id, 'Yuri Midway', 'identifier')!])
    })
    await lockTaken
    const answer = handOver(batch)
    await waitFor(async () => {
      const { rows } = await sql<{ waiting: number }>`select count(*)::int as waiting from pg_locks
        where not granted and relation = to_regclass('audit_logs')`.execute(svc.db)
      return rows[0]!.waiting > 0 ? true : undefined
    })
    release()
    await erasure
    t.same((await answer).json(), { stored: 3, duplicates: 0, rejected: [] })
    const notes = await svc.db
      .selectFrom('audit_logs')
      .select(['event_id', 'request_json'])
      .where(
        'event_id',
        'in',
        batch.map((e) => e.id),
      )
      .execute()
    const byId = new Map(notes.map((r) => [r.event_id, fromJson(r.request_json, null)]))
    t.same(
      batch.map((e) => byId.get(e.id)),
      [{ note: ERASED_TEXT }, { note: 'nothing personal' }, { note: ERASED_TEXT }],
      'masked with the subjects the erasure committed meanwhile',
    )
  })
})
