// An erasure reaches the dead letters, in both run modes: with conversations' customers projection and audit's table
// renamed away, four customers' records become real dead letters (`conversations-customers`, `audit-recorder`) — one
// customer to erase and another of the same tenant, one of a tenant that erases itself and one of a tenant that stays.
// The customer's erasure removes the dead letters about them but audit's recorder's (a replay is masked on arrival)
// and reports the counts as its `dlq` part; the others' stay. The tenant's erasure removes every dead letter of the
// tenant (but the erasures' own events) and no other tenant's. Seen through the gateway's ops surface.
import { ERASURE_EVENT_TYPES } from '@switchboard/contracts'
import { conversationsKit, must, type Scope } from './harness/conversations-kit.ts'
import { parkAuditTable } from './harness/dead-letters.ts'
import { until } from './harness/http.ts'
import { inEachMode } from './harness/modes.ts'

const WAIT_MS = 60_000

interface Person {
  id: string
  user_id: string
  username: string
  name: string
}

interface Letter {
  seq: number
  consumer: string
  envelope: { id: string; type: string; tenant_id: string; actor: { user_id: string }; data: unknown }
}

// the customers projection dead-letters on its second failure (the table is renamed away): no long backoff
inEachMode('erasure: dead letters', { env: { CONVERSATIONS_CONSUMER_MAX_DELIVER: '2' } }, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api, suffix } = kit
  const platform = { token: kit.service }
  const [stays, leaves, other] = ['edq', 'edg', 'edo'].map((s) => kit.freshScope(s)) as [Scope, Scope, Scope]
  // each tenant registered (its first record) before the tables go
  for (const scope of [stays, leaves, other]) await kit.customer(scope, 'Warm')

  const letters = async (): Promise<Letter[]> =>
    must(await api.get('/api/ops/dead-letters', platform), 200, 'dead letters').items
  const conversations = await system.serviceDatabase('conversations')
  t.teardown(() => conversations.close())
  const parked = `customers_parked_${suffix}`
  await conversations.db.schema.alterTable('customers').renameTo(parked).execute()
  let restored = false
  const restoreConversations = async () => {
    if (restored) return
    restored = true
    await conversations.db.schema.alterTable(parked).renameTo('customers').execute()
  }
  t.teardown(restoreConversations)
  const restoreAudit = await parkAuditTable(t, system, suffix)

  const customer = async (scope: Scope, name: string) => ({
    ...(await kit.customer(scope, name)),
    name: `${name} ${suffix}`,
  })
  const zoe = await customer(stays, 'Zoe')
  const olga = await customer(stays, 'Olga')
  const gina = await customer(leaves, 'Gina')
  const otto = await customer(other, 'Otto')
  const names = (c: Person) => (d: Letter) => {
    const text = JSON.stringify(d.envelope.data).toLowerCase()
    return (
      d.envelope.actor.user_id === c.user_id ||
      [c.id, c.user_id, c.username, c.name].some((v) => text.includes(v.toLowerCase()))
    )
  }
  const projectionOf = (c: Person) => (d: Letter) => d.consumer === 'conversations-customers' && names(c)(d)
  const auditOf = (c: Person) => (d: Letter) => d.consumer === 'audit-recorder' && names(c)(d)
  await until(
    "each customer's record dead-lettered by the projection and by audit",
    async () => {
      const all = await letters()
      return [zoe, olga, gina, otto].every((c) => all.some(projectionOf(c)) && all.some(auditOf(c))) || undefined
    },
    WAIT_MS,
    500,
  )
  await restoreConversations()
  await restoreAudit()
  // read once both are back: a record still being retried then is stored, not dead-lettered
  const held = await letters()
  const zoes = held.filter((d) => d.envelope.tenant_id === stays.tenant_id && names(zoe)(d))
  const zoesAudited = zoes.filter((d) => d.consumer === 'audit-recorder')
  t.ok(zoesAudited.length >= 1, `audit's recorder dead-lettered ${zoesAudited.length} of Zoe's records`)
  t.ok(zoes.length > zoesAudited.length, `${zoes.length - zoesAudited.length} other dead letters about Zoe`)

  t.test("a customer's erasure removes the dead letters about them, and reports it", async (t) => {
    must(await api.post(`/api/customers/${zoe.id}/erasure`, undefined, kit.svc(stays)), 202, 'erase')
    const counts = await until(
      'the dlq part',
      async () => {
        const r = must(await api.get(`/api/customers/${zoe.id}/erasure`, kit.svc(stays)), 200, 'report')
        return (r.services as any[]).find((s) => s.service === 'dlq')?.counts
      },
      WAIT_MS,
    )
    t.same(counts, {
      dead_letters_removed: zoes.length - zoesAudited.length,
      dead_letters_kept_for_audit: zoesAudited.length,
    })
    const after = await letters()
    const kept = after.filter((d) => zoes.some((z) => z.seq === d.seq)).map((d) => d.seq)
    t.same(kept.sort(), zoesAudited.map((d) => d.seq).sort(), "only audit's recorder's about Zoe are left")
    for (const [who, c] of [
      ['Olga (same tenant)', olga],
      ['Gina', gina],
      ['Otto', otto],
    ] as const) {
      t.ok(after.some(projectionOf(c)), `${who}'s dead letter is kept`)
    }
    const done = await until(
      'the erasure completed',
      async () => {
        const r = must(await api.get(`/api/customers/${zoe.id}/erasure`, kit.svc(stays)), 200, 'report')
        return r.status === 'completed' ? r : undefined
      },
      WAIT_MS,
    )
    t.same(done.pending, [])
  })

  t.test("a tenant's erasure removes the tenant's dead letters only", async (t) => {
    const before = await letters()
    const ofLeaving = (d: Letter) =>
      d.envelope.tenant_id === leaves.tenant_id && !ERASURE_EVENT_TYPES.has(d.envelope.type)
    t.ok(before.filter(ofLeaving).length >= 2, "the leaving tenant's dead letters (Gina's, projection and audit)")
    const others = before.filter((d) => d.envelope.tenant_id !== leaves.tenant_id).map((d) => d.seq)
    const path = `/api/security/tenants/${leaves.tenant_id}/erasure`
    must(await api.post(path, undefined, platform), 202, 'tenant erase')
    const counts = await until(
      "the tenant erasure's dlq part",
      async () => {
        const r = must(await api.get(path, platform), 200, 'tenant report')
        return (r.report.services as any[]).find((s) => s.service === 'dlq')?.counts
      },
      WAIT_MS,
    )
    // each customer's part (same durable, before the tenant's) took theirs but audit's recorder's: the rest is the tenant's
    const audited = before.filter((d) => ofLeaving(d) && d.consumer === 'audit-recorder').length
    t.same(counts, { dead_letters_removed: audited }, `the tenant's part removed the ${audited} left`)
    const after = await letters()
    t.same(after.filter(ofLeaving), [], 'none of the tenant is left')
    const stillHeld = new Set(after.map((d) => d.seq))
    t.same(
      others.filter((seq) => !stillHeld.has(seq)),
      [],
      "every other tenant's dead letter is still there",
    )
  })
})
