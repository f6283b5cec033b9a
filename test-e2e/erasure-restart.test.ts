// The erasure survives a unit killed outright (kill -9), in the fleet (the embedded default is one process: killing
// a unit kills them all): tickets is down when the administrator erases a customer, so the erasure stays in progress
// with tickets pending while every other unit reports; tickets started again picks the event up from its durable
// consumer, tombstones the ticket and reports, ai-orchestrator follows tickets' report, and the erasure completes.
// Then conversations is killed and started again: the erasure is not applied a second time (its inbox), the report
// is unchanged. A tenant's erasure likewise: ai-orchestrator is down when the tenant erases itself, its part waits,
// and once started again it deletes the tenant's knowledge doc and the tenant's erasure completes.
import t from 'tap'
import { conversationsKit, must } from './harness/conversations-kit.ts'
import { until } from './harness/http.ts'
import { selectedModes } from './harness/modes.ts'
import { startSystem } from './harness/system.ts'
import { createTicket } from './harness/tickets-kit.ts'

const skip = selectedModes().includes('fleet') ? false : 'E2E_MODES leaves the fleet out'

t.test('erasure across a unit killed and started again [fleet]', { skip }, async (t) => {
  const system = await startSystem('fleet')
  t.teardown(() => system.close())
  const kit = await conversationsKit(system)
  const { api, suffix } = kit
  const scope = kit.freshScope('erk')
  const staff = kit.svc(scope)
  const name = `Ottilie Restart ${suffix}`
  const customer = must(
    await api.post('/api/customers', { name, email: `ottilie_${suffix}@e2e.example.com` }, staff),
    201,
    'customer',
  ) as { id: string; user_id: string }
  const ticket = must(
    await createTicket(api, { title: `Refund for ${name}`, customer_id: customer.id }, staff),
    201,
    'ticket',
  ) as { id: string }
  const opened = await kit.hub(scope).open(`Hi, this is ${name}`, customer.user_id)
  const report = async () => must(await api.get(`/api/customers/${customer.id}/erasure`, staff), 200, 'report')

  await system.kill!('tickets', 0)
  const started = must(await api.post(`/api/customers/${customer.id}/erasure`, undefined, staff), 202, 'erase')
  t.equal(started.status, 'in_progress')
  const waiting = await until(
    'every unit but tickets (and ai-orchestrator, which follows it) reported',
    async () => {
      const r = await report()
      return r.services.length === 5 ? r : undefined // identity, its dlq part, conversations, audit, realtime-voice
    },
    30_000,
  )
  t.same([...waiting.pending].sort(), ['ai-orchestrator', 'tickets'], 'tickets is down: its part waits')
  t.equal(waiting.status, 'in_progress')

  await system.restart!('tickets', 0)
  const done = await until(
    'the erasure completed after tickets came back',
    async () => {
      const r = await report()
      return r.status === 'completed' ? r : undefined
    },
    60_000,
  )
  t.same(done.pending, [])
  const tickets = done.services.find((s: { service: string }) => s.service === 'tickets')
  t.match(tickets.counts, { tickets_tombstoned: 1 }, 'tickets carried it out once back')
  const now = must(await api.get(`/api/tickets/${ticket.id}`, staff), 200, 'ticket')
  t.notOk(JSON.stringify(now).includes(name), 'the ticket no longer names the person')

  await system.kill!('conversations', 0)
  await system.restart!('conversations', 0)
  const messages = must(await api.get(`/api/omni/sessions/${opened.session.id}/messages`, staff), 200, 'messages')
  t.notOk(JSON.stringify(messages).includes(name), 'the messages stay erased')
  const after = await report()
  t.same(after.services, done.services, 'a restart applies nothing twice: the report is unchanged')

  const gone = kit.freshScope('erl')
  await kit.customer(gone, 'Rosalind') // identity registers the tenant with its first record
  const doc = { title: `Leaving KR${suffix}K`, content: `Ask Ottilie KR${suffix}K` }
  must(await api.post('/api/knowledge-docs', doc, kit.svc(gone)), 201, 'knowledge doc')
  const platform = { token: kit.service }
  const tenantReport = async () =>
    must(await api.get(`/api/security/tenants/${gone.tenant_id}/erasure`, platform), 200, 'tenant report').report
  await system.kill!('ai-orchestrator', 0)
  must(await api.post(`/api/security/tenants/${gone.tenant_id}/erasure`, undefined, platform), 202, 'tenant erase')
  const held = await until(
    "every part of the tenant's erasure but ai-orchestrator's reported",
    async () => {
      const r = await tenantReport()
      return r.pending.length === 1 ? r : undefined
    },
    30_000,
  )
  t.same(held.pending, ['ai-orchestrator'], 'ai-orchestrator is down: its part waits')
  await system.restart!('ai-orchestrator', 0)
  const erased = await until(
    "the tenant's erasure completed after ai-orchestrator came back",
    async () => {
      const r = await tenantReport()
      return r.status === 'completed' ? r : undefined
    },
    60_000,
  )
  const ai = erased.services.find((s: { service: string }) => s.service === 'ai-orchestrator')
  t.match(ai.counts, { knowledge_docs_deleted: 1 }, 'ai-orchestrator carried it out once back')
  const docs = must(await api.get('/api/knowledge-docs?page_size=50', kit.svc(gone)), 200, 'docs')
  t.notOk(JSON.stringify(docs).includes(`KR${suffix}K`), 'the knowledge doc is gone')
})
