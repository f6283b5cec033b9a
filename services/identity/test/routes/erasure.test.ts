import { ERASURE_REPORTERS, IdentityErasureEvents } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { createCustomer, directoryFixture } from '../helpers/directory.ts'

// identity's side of the right to erasure, on both storage modes: the command (what it removes, the event it
// queues, idempotence, scope and permission), and the report the units' events make — each counted once however
// often it is delivered, reports arriving at once all counted, an unknown erasure's report ignored.
inEachStorageMode(t, 'customer erasure', async (t, mode) => {
  const { app, svc, who, rec, req } = await directoryFixture(t, mode)
  const acme = { tenant_id: 'acme', workspace_id: 'support' }
  const zoe = await createCustomer(app, who.acmeAdmin, {
    name: 'Zoe Erasmus',
    email: 'zoe.erasmus@acme.test',
    phone: '+4930555111',
    username: 'zoe_erasmus',
  })
  const noted = await req('POST', `/api/customers/${zoe.id}/notes`, who.acmeAdmin, { content: 'Zoe called' })
  t.equal(noted.statusCode, 201, noted.body)

  await t.test('only an administrator erases, and only in its own scope', async (t) => {
    const agent = await req('POST', `/api/customers/${zoe.id}/erasure`, who.acmeAgent)
    t.equal(agent.statusCode, 403, agent.body)
    const foreign = await req('POST', `/api/customers/${zoe.id}/erasure`, who.globexAdmin)
    const missing = await req('POST', '/api/customers/no-such-id/erasure', who.globexAdmin)
    t.equal(foreign.statusCode, 404)
    t.same(
      { code: foreign.json().code, message: foreign.json().message },
      { code: missing.json().code, message: missing.json().message },
    )
    t.equal((await req('GET', `/api/customers/${zoe.id}`, who.acmeAdmin)).statusCode, 200, 'still there')
  })

  let erasureId = ''
  await t.test('the erasure removes the person and queues the event with what to mask', async (t) => {
    const r = await req('POST', `/api/customers/${zoe.id}/erasure`, who.acmeAdmin)
    t.equal(r.statusCode, 202, r.body)
    erasureId = r.json().erasure_id
    t.match(r.json(), { customer_id: zoe.id, status: 'in_progress', pending: ERASURE_REPORTERS.map((x) => x.service) })
    t.match(r.json().services, [
      { service: 'identity', counts: { customers_removed: 1, notes_deleted: 1, accounts_emptied: 1 } },
    ])
    t.notOk(r.body.includes('Zoe') || r.body.includes('zoe'), 'the answer names nobody')
    const event = await rec.find(IdentityErasureEvents.requested.type, (d: any) => d.erasure_id === erasureId)
    t.match(event, { tenant_id: 'acme', workspace_id: 'support' })
    t.same(event.data.customer_id, zoe.id)
    t.same(event.data.user_id, zoe.user_id)
    t.same(
      [...event.data.identifiers].sort(),
      ['+4930555111', 'Zoe Erasmus', 'zoe.erasmus@acme.test', 'zoe_erasmus'].sort(),
    )
    const token = await rec.find(
      'identity.user.token_state_changed',
      (d: any) => d.user.user_id === zoe.user_id && d.user.active === false,
    )
    t.ok(token, 'the account is deactivated: every gateway replica refuses its tokens')
    t.equal((await req('GET', `/api/customers/${zoe.id}`, who.acmeAdmin)).statusCode, 404)
    const user = await svc.db.selectFrom('users').selectAll().where('id', '=', zoe.user_id).executeTakeFirstOrThrow()
    t.match(user, { name: '', phone: '', password_hash: '', status: 'inactive' })
    t.notMatch(user.email, /zoe/i)
    t.notMatch(user.username, /zoe/i)
    const notes = await svc.db.selectFrom('customer_notes').selectAll().where('customer_id', '=', zoe.id).execute()
    t.same(notes, [])
    const again = await req('POST', `/api/customers/${zoe.id}/erasure`, who.acmeAdmin)
    t.equal(again.statusCode, 200)
    t.equal(again.json().erasure_id, erasureId, 'a second request answers with the first erasure')
    const events = rec.events.filter((e) => e.type === IdentityErasureEvents.requested.type)
    t.equal(events.length, 1, 'and queues nothing more')
  })

  await t.test("the units' reports complete it, each counted once", async (t) => {
    const report = (service: string, type: string, n: number) =>
      newEnvelope({
        type,
        ...acme,
        actor: { user_id: service, kind: 'service' },
        data: {
          erasure_id: erasureId,
          customer_id: zoe.id,
          service,
          counts: { things_erased: n },
          completed_at: new Date().toISOString(),
        },
      })
    const [first, ...rest] = ERASURE_REPORTERS
    const once = report(first!.service, first!.event.type, 3)
    await svc.bus.publish(once.type, once)
    await svc.bus.publish(once.type, once) // a redelivery
    // every other unit at once
    await Promise.all(rest.map((r, i) => report(r.service, r.event.type, i)).map((e) => svc.bus.publish(e.type, e)))
    const stray = report('tickets', ERASURE_REPORTERS[1]!.event.type, 9)
    stray.data.erasure_id = 'no-such-erasure'
    await svc.bus.publish(stray.type, stray)
    const done = await waitFor<any>(async () => {
      const r = await req('GET', `/api/customers/${zoe.id}/erasure`, who.acmeAdmin)
      return r.json().status === 'completed' ? r.json() : undefined
    }, 10_000)
    t.same(done.pending, [])
    t.equal(done.services.length, 2 + ERASURE_REPORTERS.length, "one report per unit, and identity's dlq part")
    t.same(
      done.services.find((s: any) => s.service === 'dlq').counts,
      { dead_letters_removed: 0, dead_letters_kept_for_audit: 0 },
      'no dead letter about the person (consumers/erasure-dlq.test.ts)',
    )
    t.same(done.services.find((s: any) => s.service === first!.service).counts, { things_erased: 3 })
    t.ok(done.completed_at, 'with the time it completed')
    const rows = await svc.db.selectFrom('customer_erasure_reports').selectAll().execute()
    t.notOk(
      rows.some((r) => r.erasure_id === 'no-such-erasure'),
      "an unknown erasure's report is not kept",
    )
    const foreign = await req('GET', `/api/customers/${zoe.id}/erasure`, who.globexAdmin)
    t.equal(foreign.statusCode, 404, "another tenant's admin reads nothing")
  })
})
