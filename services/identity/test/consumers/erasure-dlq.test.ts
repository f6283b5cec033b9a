import { ERASURE_MASKING_CONSUMERS, IdentityErasureEvents } from '@switchboard/contracts'
import { appliedOf, type DeadLetter, type EventBus, newEnvelope, PoisonMessageError } from '@switchboard/events'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t, { type Test } from 'tap'
import { ERASURE_DLQ_CONSUMER } from '../../src/consumers/erasure-dlq.consumer.ts'
import { createCustomer, directoryFixture } from '../helpers/directory.ts'

// identity's `dlq` part of an erasure, on both storage modes, with real dead letters (consumers that refuse what they
// get): a customer's erasure removes the tenant's dead letters that name the customer (ids, identifiers in any case),
// keeps those of audit's recorder (it masks on a replay), those of someone else, of another tenant and the erasures'
// own events, and reports the counts once; a tenant's erasure removes what is left of the tenant's.
const PROBE = { name: 'PROBE', subjects: ['probe.>'] }
const AUDIT_RECORDER = ERASURE_MASKING_CONSUMERS[0]!

/** Makes a dead letter of `probe.projection.*` (a projection's consumer) or `probe.audit.*` (audit's recorder). */
async function refusingConsumers(t: Test, bus: EventBus) {
  await bus.ensureStreams([PROBE])
  for (const [durable, filter] of [
    ['probe-projection', 'probe.projection.>'],
    [AUDIT_RECORDER, 'probe.audit.>'],
  ] as const) {
    const sub = await bus.consume({ durable, stream: 'PROBE', filterSubjects: [filter] }, async () => {
      throw new PoisonMessageError('refused')
    })
    t.teardown(() => sub.stop())
  }
  return async (subject: string, tenant: string, data: Record<string, unknown>, type = 'probe.thing.changed') => {
    const actor = { user_id: 'agent-1', kind: 'agent' }
    const e = newEnvelope({ type, tenant_id: tenant, workspace_id: 'support', actor, data })
    await bus.publish(subject, e)
    await waitFor(async () => ((await bus.deadLetters()).some((d) => d.envelope.id === e.id) ? true : undefined))
    return e.id
  }
}

const idsOf = (letters: DeadLetter[]) => letters.map((d) => d.envelope.id).sort()

inEachStorageMode(t, 'erasure: dead letters', async (t, mode) => {
  const { app, svc, who, req } = await directoryFixture(t, mode)
  const deadLetter = await refusingConsumers(t, svc.bus)
  const zoe = await createCustomer(app, who.acmeAdmin, {
    name: 'Zoe Erasmus',
    email: 'zoe.erasmus@acme.test',
    username: 'zoe_erasmus',
  })
  const olga = await createCustomer(app, who.acmeAdmin, { name: 'Olga Otherly', email: 'olga@acme.test' })

  const byUserId = await deadLetter('probe.projection.message', 'acme', { customer_id: zoe.user_id, body: 'hello' })
  const byName = await deadLetter('probe.projection.note', 'acme', { note: { text: 'Dear ZOE ERASMUS, thanks' } })
  const byActor = await deadLetter('probe.projection.login', 'acme', { at: 'now' })
  const audited = await deadLetter('probe.audit.record', 'acme', { request: { customer_id: zoe.id } })
  const someoneElse = await deadLetter('probe.projection.message', 'acme', { customer_id: olga.user_id })
  const otherTenant = await deadLetter('probe.projection.message', 'globex', { name: 'Zoe Erasmus' })
  const erasureEvent = await deadLetter(
    'probe.projection.erasure',
    'acme',
    { customer_id: zoe.id, identifiers: ['Zoe Erasmus'] },
    IdentityErasureEvents.requested.type,
  )
  // the actor's id is the person's: a dead letter of something they did
  const letters = await svc.bus.deadLetters()
  const actorLetter = letters.find((d) => d.envelope.id === byActor)!
  t.ok(actorLetter)
  await svc.bus.removeDeadLetters([actorLetter.seq])
  const byThem = newEnvelope({
    type: 'probe.thing.changed',
    tenant_id: 'acme',
    workspace_id: 'support',
    actor: { user_id: zoe.user_id, kind: 'end_user' },
    data: { at: 'now' },
  })
  await svc.bus.publish('probe.projection.login', byThem)
  await waitFor(async () => ((await svc.bus.deadLetters()).some((d) => d.envelope.id === byThem.id) ? true : undefined))
  t.equal((await svc.bus.deadLetters()).length, 7, 'seven dead letters')

  const dlqPart = async (path: string, headers: Record<string, string>, key: 'services' | 'report') =>
    waitFor<Record<string, number>>(async () => {
      const r = (await req('GET', path, headers)).json()
      const services = (key === 'report' ? r.report?.services : r.services) as any[] | undefined
      return services?.find((s) => s.service === 'dlq')?.counts
    }, 10_000)

  await t.test("a customer's erasure removes the dead letters naming them, and reports it", async (t) => {
    const r = await req('POST', `/api/customers/${zoe.id}/erasure`, who.acmeAdmin)
    t.equal(r.statusCode, 202, r.body)
    t.ok(r.json().pending.includes('dlq'), 'the erasure waits for its dlq part')
    const counts = await dlqPart(`/api/customers/${zoe.id}/erasure`, who.acmeAdmin, 'services')
    t.same(counts, { dead_letters_removed: 3, dead_letters_kept_for_audit: 1 })
    t.same(
      idsOf(await svc.bus.deadLetters()),
      [audited, someoneElse, otherTenant, erasureEvent].sort(),
      "kept: audit's recorder's, someone else's, another tenant's, the erasure's own event",
    )
    t.notOk(
      (await svc.bus.deadLetters()).some((d) => [byUserId, byName, byThem.id].includes(d.envelope.id)),
      'removed: named by account id, by name in any case, done by them',
    )
  })

  await t.test('a second delivery of the erasure removes nothing more and keeps the first report', async (t) => {
    const again = newEnvelope({
      type: IdentityErasureEvents.requested.type,
      tenant_id: 'acme',
      workspace_id: 'support',
      actor: { user_id: 'admin-acme', kind: 'admin' },
      data: {
        erasure_id: (await req('GET', `/api/customers/${zoe.id}/erasure`, who.acmeAdmin)).json().erasure_id,
        customer_id: zoe.id,
        user_id: zoe.user_id,
        identifiers: ['Zoe Erasmus'],
      },
    })
    await svc.bus.publish(again.type, again)
    await waitFor(async () => ((await appliedOf(svc.db, ERASURE_DLQ_CONSUMER, [again.id])).size ? true : undefined))
    const report = (await req('GET', `/api/customers/${zoe.id}/erasure`, who.acmeAdmin)).json()
    const parts = report.services.filter((s: any) => s.service === 'dlq')
    t.equal(parts.length, 1, 'one dlq part')
    t.same(parts[0].counts, { dead_letters_removed: 3, dead_letters_kept_for_audit: 1 })
    t.equal((await svc.bus.deadLetters()).length, 4, 'the same four dead letters')
  })

  await t.test("a tenant's erasure removes every dead letter of the tenant but the erasures' own", async (t) => {
    const r = await req('POST', '/api/security/tenants/acme/erasure', who.acmeAdmin)
    t.equal(r.statusCode, 202, r.body)
    const counts = await dlqPart('/api/security/tenants/acme/erasure', who.platform, 'report')
    t.same(
      idsOf(await svc.bus.deadLetters()),
      [otherTenant, erasureEvent].sort(),
      "another tenant's dead letter and the erasure's own event are kept",
    )
    const olgaPart = await dlqPart(`/api/customers/${olga.id}/erasure`, who.platformInAcme, 'services')
    t.same(olgaPart, { dead_letters_removed: 1, dead_letters_kept_for_audit: 0 }, "Olga's erasure removed hers")
    t.same(counts, { dead_letters_removed: 1 }, "the tenant's part removed the rest (audit's recorder's too)")
  })
})
