// Records that arrive after a person's erasure (a JetStream backlog, a replayed dead letter, the gateway's hand-over
// queue) are stored masked, on PostgreSQL + JetStream and SQLite + memory bus: the erasure consumer remembers the
// person's ids, identifiers and resources as hashes only; the recorder masks a late record on arrival, in the
// insert itself; a replica whose cache predates an erasure notices by the epoch and reloads; a tenant without
// erasures costs one statement per batch of records.
import { ERASED_TEXT, IdentityErasureEvents } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { fromJson, newId } from '@switchboard/platform'
import { inEachStorageMode, testPrincipal, waitFor } from '@switchboard/testing'
import t from 'tap'
import { insertAuditLog } from '../../src/db/audit-logs.repository.ts'
import { addErasedSubjects } from '../../src/db/erased-subjects.repository.ts'
import { subjectOf } from '../../src/domain/erased-subjects.ts'
import { recordFromEnvelope } from '../../src/domain/record.ts'
import { as, auditApp, auditEvent } from '../helpers/app.ts'

const gateway = testPrincipal({ user_id: 'gateway', kind: 'service', roles: [], tenant_id: '', workspace_id: '' })

inEachStorageMode(t, 'audit records arriving after an erasure', async (t, mode) => {
  const { app, svc } = await auditApp(t, mode)
  const db = svc.db
  const n = Math.random().toString(36).slice(2, 8)
  const tenant = `era${n}`
  const at = { tenant_id: tenant, workspace_id: 'main' }
  const person = { customer_id: `cust-${n}`, user_id: `user-${n}` }
  const name = `Zoe Erasmus${n}`
  const email = `zoe.${n}@acme.test`
  // what no stored record may hold; the ids stay in the columns (the action is kept), but not in the erased list
  const markers = [name, email, `Erasmus${n}`]
  const rowOf = (eventId: string) => db.selectFrom('audit_logs').selectAll().where('event_id', '=', eventId)
  const stored = (eventId: string) => waitFor(async () => (await rowOf(eventId).executeTakeFirst()) ?? undefined)
  const text = (row: unknown) => JSON.stringify(row).toLowerCase()
  const leaks = (row: unknown) => markers.filter((m) => text(row).includes(m.toLowerCase()))
  const handOver = async (records: unknown[]) =>
    app.inject({
      method: 'POST',
      url: '/internal/audit/records',
      headers: { ...(await as(gateway)), 'content-type': 'application/json' },
      payload: { records },
    })
  const handOverQueries = async () => {
    const body = (await app.inject({ url: '/metrics' })).body
    return Number(/db_queries_total\{origin="\/internal\/audit\/records"[^}]*\} (\d+)/.exec(body)?.[1] ?? 0)
  }

  t.test('a tenant without erasures: one statement for a hand-over, its cache read once', async (t) => {
    t.same((await handOver([auditEvent({}, at)])).json(), { stored: 1, duplicates: 0, rejected: [] })
    const before = await handOverQueries()
    const ten = Array.from({ length: 10 }, (_, i) => auditEvent({ request_json: { title: `t${i}` } }, at))
    t.same((await handOver(ten)).json(), { stored: 10, duplicates: 0, rejected: [] })
    t.equal((await handOverQueries()) - before, 1, 'ten records, one insert, no lookup beside it')
  })

  // Before the erasure: the person's own request and a ticket made for them (its later records carry only its id).
  const own = auditEvent(
    {
      actor_user_id: person.user_id,
      principal_kind: 'customer',
      action: 'sessions.message',
      resource_id: `sess-${n}`,
      request_json: { content: `hello, ${name} here` },
    },
    at,
  )
  const ticket = auditEvent(
    { action: 'tickets.create', resource_id: `tk-${n}`, request_json: { customer_id: person.customer_id } },
    at,
  )

  t.test('the erasure remembers hashes only', async (t) => {
    await svc.bus.publish('audit.tickets.recorded', own)
    await svc.bus.publish('audit.tickets.recorded', ticket)
    await stored(own.id)
    await stored(ticket.id)
    const erasure = newEnvelope({
      type: IdentityErasureEvents.requested.type,
      ...at,
      actor: { user_id: 'admin', kind: 'admin' },
      data: { erasure_id: `er-${n}`, ...person, identifiers: [name, email, 'Zo'] },
    })
    await svc.bus.publish(IdentityErasureEvents.requested.type, erasure)
    const subjects = await waitFor(async () => {
      const rows = await db.selectFrom('audit_erased_subjects').selectAll().where('tenant_id', '=', tenant).execute()
      return rows.length ? rows : undefined
    })
    // 'Zo' is too short to be matched (as the consumer's own masking), so it is not kept
    t.same(subjects.map((s) => s.kind).sort(), ['id', 'id', 'identifier', 'identifier', 'resource', 'resource'])
    for (const clear of [...markers, person.customer_id, person.user_id, `tk-${n}`, `sess-${n}`]) {
      t.notOk(text(subjects).includes(clear.toLowerCase()), `the list does not hold ${clear}`)
    }
    t.same(leaks(await rowOf(own.id).executeTakeFirst()), [], 'the records already stored: masked by the consumer')
  })

  t.test('records arriving after it are stored masked, by the bus or the hand-over', async (t) => {
    // the person's own request, over the bus (a JetStream backlog, a replayed dead letter)
    const late = auditEvent(
      {
        actor_user_id: person.user_id,
        principal_kind: 'customer',
        action: 'sessions.message',
        resource_id: `sess-${n}`,
        client_ip: '203.0.113.9',
        request_json: { content: `write to MAILTO:${email.toUpperCase()} please` },
      },
      at,
    )
    await svc.bus.publish('audit.conversations.recorded', late)
    const lateRow = await stored(late.id)
    t.same(leaks(lateRow), [])
    t.match(lateRow, { action: 'sessions.message', actor_user_id: person.user_id, client_ip: '', user_agent: '' })
    t.ok(text(lateRow.request_json).includes(ERASED_TEXT), 'the content is masked, the action kept')

    // the gateway's hand-over: a comment on their ticket (only its id), an agent naming them on another ticket,
    // then that ticket's next record (only its id), a look-alike, and the same name in another tenant
    const onTicket = auditEvent(
      { action: 'tickets.comment', resource_id: `tk-${n}`, request_json: { comment: 'sent' } },
      at,
    )
    const naming = auditEvent(
      { action: 'tickets.update', resource_id: `tk2-${n}`, request_json: { note: `spoke with ${name.toUpperCase()}` } },
      at,
    )
    const next = auditEvent({ action: 'tickets.comment', resource_id: `tk2-${n}`, request_json: { comment: 'ok' } }, at)
    const lookalike = auditEvent(
      { action: 'tickets.update', resource_id: `tk3-${n}`, request_json: { title: `Zoey Erasmus${n}son` } },
      at,
    )
    const elsewhere = auditEvent({ action: 'tickets.update', request_json: { title: name } }, { ...at, tenant_id: 'x' })
    const r = await handOver([onTicket, naming, next, lookalike, elsewhere])
    t.same(r.json(), { stored: 5, duplicates: 0, rejected: [] })
    for (const e of [onTicket, naming, next]) {
      const row = await rowOf(e.id).executeTakeFirstOrThrow()
      t.same(leaks(row), [], `${row.action} on ${row.resource_id}: nothing of the person`)
      t.ok(text(row.request_json).includes(ERASED_TEXT), `${row.action} on ${row.resource_id}: masked`)
    }
    t.equal(
      text((await rowOf(lookalike.id).executeTakeFirstOrThrow()).request_json).includes(ERASED_TEXT),
      false,
      'a look-alike is not the person',
    )
    const foreign = await rowOf(elsewhere.id).executeTakeFirstOrThrow()
    t.same(fromJson(foreign.request_json, null), { title: name }, 'the same name in another tenant is kept')
    t.same((await handOver([onTicket])).json(), { stored: 0, duplicates: 1, rejected: [] }, 'once, as before')
  })

  t.test("a replica's cache older than an erasure: the insert notices the epoch, reloads and masks", async (t) => {
    const other = `${tenant}b`
    const scope = { ...at, tenant_id: other }
    t.same((await handOver([auditEvent({}, scope)])).json().stored, 1, 'the cache holds this tenant at epoch 0')
    // another replica's erasure, written behind this one's back
    await db.transaction().execute(async (tx) => {
      const subject = subjectOf(other, 'Quentin Late', 'identifier')!
      await addErasedSubjects(tx, other, 'er-other', [subject])
    })
    const late = auditEvent({ request_json: { name: 'quentin late', status: 'vip' } }, scope)
    t.same((await handOver([late])).json().stored, 1)
    const row = await rowOf(late.id).executeTakeFirstOrThrow()
    t.same(fromJson(row.request_json, null), { name: ERASED_TEXT, status: 'vip' })
  })

  t.test('an insert in flight when the erasure starts is in its scan', { skip: mode !== 'postgres' }, async (t) => {
    // (SQLite has one writer: the erasure's transaction and an insert never overlap)
    const scope = { ...at, tenant_id: `${tenant}c` }
    const event = auditEvent({ request_json: { note: 'for Yuri Inflight' } }, scope)
    const found = recordFromEnvelope(event, newId())
    if (!found.ok) throw new Error(found.error)
    const { promise: held, resolve: release } = Promise.withResolvers<void>()
    // another replica's insert, done but not yet committed when the erasure is published
    const { promise: insertDone, resolve: inserted } = Promise.withResolvers<void>()
    const inflight = db.transaction().execute(async (tx) => {
      await insertAuditLog(tx, found.record)
      inserted()
      await held
    })
    await insertDone
    const erasure = newEnvelope({
      type: IdentityErasureEvents.requested.type,
      ...scope,
      actor: { user_id: 'admin', kind: 'admin' },
      data: { erasure_id: `er3-${n}`, customer_id: `c3-${n}`, user_id: `u3-${n}`, identifiers: ['Yuri Inflight'] },
    })
    await svc.bus.publish(IdentityErasureEvents.requested.type, erasure)
    await new Promise((r) => setTimeout(r, 700))
    const early = await db.selectFrom('audit_erasure_epochs').selectAll().where('tenant_id', '=', scope.tenant_id)
    t.same(await early.execute(), [], 'the erasure waits for the insert in flight')
    release()
    await inflight
    const row = await waitFor(async () => {
      const r = await rowOf(event.id).executeTakeFirst()
      return r && !text(r).includes('yuri') ? r : undefined
    })
    t.same(fromJson(row.request_json, null), { note: ERASED_TEXT }, 'then masked by its scan')
  })
})
