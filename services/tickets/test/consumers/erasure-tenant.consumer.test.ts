// tickets' part of a tenant's erasure (both storage modes): after identity.tenant.erasure_requested the tenant's
// tickets, comments and rating comments read as the tombstone (rows, statuses, ratings and times kept), its macros are
// gone, its directory forgets names; another tenant keeps everything; a second delivery is skipped (one report).
import { ERASED_TEXT, IdentityTenantErasureEvents } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import type { TicketsService } from '../../src/context.ts'
import { as } from '../helpers/app.ts'
import { streamEvents } from '../helpers/bus.ts'
import { ACME, GLOBEX, knownAgent, knownCustomer, otherTenantAgent, slaApp } from '../helpers/sla.ts'

const REPORTED = 'tickets.tenant_erasure.reported'

async function publishErasure(svc: TicketsService, tenant_id: string) {
  const envelope = newEnvelope({
    type: IdentityTenantErasureEvents.requested.type,
    tenant_id,
    workspace_id: '',
    actor: { user_id: 'admin-1', kind: 'admin' },
    data: { tenant_erasure_id: `te-${tenant_id}`, tenant_id, user_ids: ['cust-1', 'agent-7'], identifiers: ['Ann'] },
  })
  await svc.bus.publish(envelope.type, envelope)
  return envelope
}

const reports = async (svc: TicketsService) =>
  (await streamEvents(svc.bus, 'TICKETS')).filter((e) => e.subject === REPORTED).map((e) => e.envelope)

inEachStorageMode(t, "tickets' part of a tenant's erasure", async (t, mode) => {
  const { svc, call } = await slaApp(t, mode)
  const globex = await as(otherTenantAgent)
  await knownCustomer(svc, ACME, { user_id: 'cust-1', name: 'Ann Acme' })
  await knownCustomer(svc, GLOBEX, { user_id: 'cust-g', name: 'Gus Globex' })
  await knownAgent(svc, ACME, { user_id: 'agent-7', name: 'Agnes Agent' })
  const created = async (body: Record<string, unknown>, headers?: Record<string, string>) => {
    const res = await call('POST', '/api/tickets', body, headers)
    if (res.statusCode !== 201) throw new Error(`ticket not created: ${res.statusCode} ${res.body}`)
    return res.json()
  }

  const ticket = await created({ title: 'Printer of Ann MARKT', description: 'Ann says MARKT', customer_id: 'cust-1' })
  t.equal((await call('POST', `/api/tickets/${ticket.id}/assign`, { agent_id: 'agent-7' })).statusCode, 200)
  const comment = await call('POST', `/api/tickets/${ticket.id}/comments`, { content: 'Called Ann MARKT' })
  t.equal(comment.statusCode, 201, comment.body)
  const rated = await call('POST', '/api/satisfactions', {
    ticket_id: ticket.id,
    rating: 4,
    comment: 'Ann: fine MARKT',
  })
  t.equal(rated.statusCode, 201, rated.body)
  const macro = await call('POST', '/api/macros', { name: 'Greeting MARKT', content: 'Regards, Agnes MARKT' })
  t.equal(macro.statusCode, 201, macro.body)
  const kept = await created({ title: 'Globex printer MARKG', description: 'Gus MARKG', customer_id: 'cust-g' }, globex)
  const before = (await call('GET', `/api/tickets/${ticket.id}`)).json()

  const sent = await publishErasure(svc, 'acme')
  const [report] = await waitFor(async () => {
    const r = await reports(svc)
    return r.length > 0 ? r : undefined
  })

  t.test('it reports what it tombstoned and deleted', async (t) => {
    t.match(report, {
      tenant_id: 'acme',
      data: {
        tenant_erasure_id: 'te-acme',
        service: 'tickets',
        counts: { tickets_tombstoned: 1, comments_tombstoned: 1, rating_comments_erased: 1, macros_deleted: 1 },
      },
    })
  })

  t.test("the tenant's texts are the tombstone; rows, status, rating and times stay", async (t) => {
    const after = (await call('GET', `/api/tickets/${ticket.id}`)).json()
    t.match(after, {
      id: ticket.id,
      title: ERASED_TEXT,
      description: ERASED_TEXT,
      status: before.status,
      priority: before.priority,
      created_at: before.created_at,
    })
    const comments = (await call('GET', `/api/tickets/${ticket.id}/comments`)).json()
    const items = (comments.data ?? comments.items ?? comments) as Array<{ content: string }>
    t.same(
      items.map((c) => c.content),
      [ERASED_TEXT],
      'the comment is still there, tombstoned',
    )
    const rating = await svc.db
      .selectFrom('customer_satisfactions')
      .select(['rating', 'comment'])
      .where('ticket_id', '=', ticket.id)
      .executeTakeFirstOrThrow()
    t.same({ ...rating }, { rating: 4, comment: '' }, 'the rating counts, its comment is gone')
    t.equal((await call('GET', '/api/macros')).json().total, 0, 'no macro left')
    const found = (await call('GET', '/api/tickets?search=MARKT')).json()
    t.equal(found.total, 0, 'a search for its words finds nothing')
  })

  t.test('another tenant keeps everything', async (t) => {
    t.match((await call('GET', `/api/tickets/${kept.id}`, undefined, globex)).json(), {
      title: 'Globex printer MARKG',
      description: 'Gus MARKG',
    })
  })

  t.test('a second delivery is skipped: one report', async (t) => {
    await svc.bus.publish(sent.type, sent, { msgId: `${sent.id}-again` })
    await publishErasure(svc, 'initech')
    // one consumer takes the subject in order: once initech's report is out, the redelivery was handled
    const all = await waitFor(async () => {
      const r = await reports(svc)
      return r.some((x) => x.tenant_id === 'initech') ? r : undefined
    })
    t.equal(all.filter((r) => r.tenant_id === 'acme').length, 1, 'acme reported once')
    t.match((await call('GET', `/api/tickets/${ticket.id}`)).json(), { title: ERASED_TEXT })
  })
})
