import { TicketSatisfactionEvents } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { ratingDelta } from '../../src/consumers/agent-ratings.consumer.ts'
import { createCustomer, directoryFixture } from '../helpers/directory.ts'

const tickets = { user_id: 'tickets', kind: 'service' }
const facts = (agent_id: string | null, rating: number, n: number) => ({
  satisfaction_id: `sat-${n}`,
  ticket_id: `tk-${n}`,
  customer_id: 'cust-1',
  agent_id,
  rating,
  category: 'overall',
  source: 'api',
  rated_at: new Date().toISOString(),
})

t.test('ratingDelta: added, changed, removed, and the rest move nothing', async (t) => {
  const f = facts('u', 4, 1)
  t.same(ratingDelta(TicketSatisfactionEvents.rated.type, f), { sum: 4, count: 1 })
  t.same(ratingDelta(TicketSatisfactionEvents.changed.type, { ...f, rating: 2, previous_rating: 4 }), {
    sum: -2,
    count: 0,
  })
  t.equal(ratingDelta(TicketSatisfactionEvents.changed.type, { ...f, previous_rating: 4 }), undefined)
  t.same(ratingDelta(TicketSatisfactionEvents.removed.type, f), { sum: -4, count: -1 })
  t.equal(ratingDelta('tickets.survey.sent', f), undefined)
})

inEachStorageMode(t, 'agent ratings from tickets events', async (t, mode) => {
  const { app, svc, who, rec, req } = await directoryFixture(t, mode)
  const carol = await createCustomer(app, who.acmeAdmin, { name: 'Carol', email: 'carol@acme.test' })
  const made = await req('POST', '/api/agents', who.acmeAdmin, { user_id: carol.user_id })
  t.equal(made.statusCode, 201, made.body)
  const agentId = made.json().id as string
  const acme = { tenant_id: 'acme', workspace_id: 'support' }

  const publish = async (type: string, data: object, scope = acme) => {
    const e = newEnvelope({ type, ...scope, actor: tickets, data })
    await svc.bus.publish(e.type, e)
    return e
  }
  const rating = async () => {
    const r = await req('GET', `/api/agents/${agentId}`, who.acmeAdmin)
    return r.json().rating as number
  }
  const until = (want: number) => waitFor(async () => ((await rating()) === want ? want : undefined), 5000)

  await t.test('ratings move the average, once each, and are announced', async (t) => {
    const first = await publish(TicketSatisfactionEvents.rated.type, facts(carol.user_id, 5, 1))
    t.equal(await until(5), 5)
    // the same event again (a redelivery or a replay) changes nothing
    await svc.bus.publish(first.type, first)
    await publish(TicketSatisfactionEvents.rated.type, facts(carol.user_id, 2, 2))
    t.equal(await until(3.5), 3.5, 'average of 5 and 2')
    await publish(TicketSatisfactionEvents.changed.type, { ...facts(carol.user_id, 4, 2), previous_rating: 2 })
    t.equal(await until(4.5), 4.5, 'the 2 became a 4')
    await publish(TicketSatisfactionEvents.removed.type, facts(carol.user_id, 5, 1))
    t.equal(await until(4), 4, 'the 5 removed')
    const announced = await rec.find('identity.agent.upserted', (d: any) => d.agent_id === agentId && d.rating === 4)
    t.match(announced, { tenant_id: 'acme', workspace_id: 'support' })
    const row = await svc.db.selectFrom('agents').selectAll().where('id', '=', agentId).executeTakeFirstOrThrow()
    t.match(row, { rating_sum: 4, rating_count: 1 })
  })

  await t.test('another scope, no agent, or an unknown agent moves nothing', async (t) => {
    await publish(TicketSatisfactionEvents.rated.type, facts(carol.user_id, 1, 3), {
      tenant_id: 'globex',
      workspace_id: 'main',
    })
    await publish(TicketSatisfactionEvents.rated.type, facts(null, 1, 4))
    const last = await publish(TicketSatisfactionEvents.rated.type, facts('nobody', 1, 5))
    // events are handled in order: once the last is in the inbox, the others were seen
    await waitFor(
      async () =>
        (await (svc.db as any)
          .selectFrom('inbox')
          .select('event_id')
          .where('event_id', '=', last.id)
          .executeTakeFirst())
          ? true
          : undefined,
      5000,
    )
    t.equal(await rating(), 4)
  })
})
