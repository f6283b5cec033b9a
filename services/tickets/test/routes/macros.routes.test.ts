import { newEnvelope } from '@switchboard/events'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { as, principal } from '../helpers/app.ts'
import { ACME, knownAgent, knownCustomer, otherTenantAgent, slaApp } from '../helpers/sla.ts'

const content = 'Hello {{customer.name}}, about ticket {{ticket.id}}: {{order.id}} — {{agent.name}}'

inEachStorageMode(t, 'macros', async (t, mode) => {
  const { svc, call } = await slaApp(t, mode)
  const other = await as(otherTenantAgent)
  await knownCustomer(svc, ACME, { user_id: 'cust-1', name: 'Ann <b>Lee</b>' })
  await knownAgent(svc, ACME, { user_id: 'agent-1', name: 'Agnes' })

  t.test('create, read, list, update, delete; one name per scope', async (t) => {
    const res = await call('POST', '/api/macros', { name: 'Greeting', content })
    t.equal(res.statusCode, 201, res.body)
    const macro = res.json()
    t.match(macro, { name: 'Greeting', description: '', language: 'en', content, active: true, tenant_id: 'acme' })
    const dup = await call('POST', '/api/macros', { name: 'Greeting', content: 'x' })
    t.equal(dup.statusCode, 409)
    t.equal(dup.json().code, 'TICKETS_MACRO_NAME_TAKEN')
    t.equal((await call('POST', '/api/macros', { name: 'Greeting', content: 'x' }, other)).statusCode, 201, 'per scope')
    for (const body of [
      { name: 'x' },
      { content: 'x' },
      { name: '', content: 'x' },
      { name: 'y', content: 'x', extra: 1 },
    ]) {
      t.equal((await call('POST', '/api/macros', body)).statusCode, 400, JSON.stringify(body))
    }
    const url = `/api/macros/${macro.id}`
    t.same((await call('GET', url)).json(), macro)
    await call('POST', '/api/macros', { name: 'Farewell', content: 'Bye', language: 'de', description: 'end' })
    t.equal((await call('GET', '/api/macros')).json().total, 2)
    t.equal((await call('GET', '/api/macros?language=de')).json().data[0].name, 'Farewell')
    t.equal((await call('GET', '/api/macros?search=greet')).json().total, 1)
    t.equal((await call('GET', '/api/macros?search=%25')).json().total, 0, '% is literal')
    const renamed = await call('PUT', url, { name: 'Farewell' })
    t.equal(renamed.statusCode, 409)
    const updated = await call('PUT', url, { description: 'first contact', active: false })
    t.match(updated.json(), { description: 'first contact', active: false, name: 'Greeting' })
    t.equal((await call('GET', '/api/macros?active=false')).json().total, 1)
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { active: true }],
      ['DELETE', undefined],
      ['POST', { ticket_id: 'x' }],
    ] as const) {
      const target = method === 'POST' ? `${url}/apply` : url
      const r = await call(method, target, payload, other)
      t.equal(r.statusCode, 404, `${method} ${target} from another tenant`)
      t.equal(r.json().code, 'TICKETS_MACRO_NOT_FOUND')
    }
    t.equal((await call('DELETE', url)).statusCode, 204)
    t.equal((await call('GET', url)).statusCode, 404)
  })

  t.test('apply to a ticket: a system comment, placeholders filled; inactive 400; unknown ticket 404', async (t) => {
    const macro = (await call('POST', '/api/macros', { name: 'Apply me', content })).json()
    const tk = (await call('POST', '/api/tickets', { title: 'Help', customer_id: 'cust-1' })).json()
    const res = await call('POST', `/api/macros/${macro.id}/apply`, { ticket_id: tk.id })
    t.equal(res.statusCode, 201, res.body)
    const expected = `Hello Ann <b>Lee</b>, about ticket ${tk.id}: {{order.id}} — Agnes`
    t.match(res.json(), {
      macro_id: macro.id,
      ticket_id: tk.id,
      content: expected,
      comment: { type: 'system', content: expected, author_id: 'agent-1' },
    })
    const thread = (await call('GET', `/api/tickets/${tk.id}/comments`)).json()
    t.equal(thread.data.at(-1).content, expected)
    const row = await svc.db
      .selectFrom('tickets')
      .select('first_response_at')
      .where('id', '=', tk.id)
      .executeTakeFirst()
    t.equal(row?.first_response_at, null, 'a system comment is no first response')

    t.equal((await call('POST', `/api/macros/${macro.id}/apply`, { ticket_id: 'missing' })).statusCode, 404)
    const foreign = (await call('POST', '/api/tickets', { title: 'x', customer_id: 'cust-1' })).json()
    const otherMacro = (await call('POST', '/api/macros', { name: 'Theirs', content: 'x' }, other)).json()
    t.equal(
      (await call('POST', `/api/macros/${otherMacro.id}/apply`, { ticket_id: foreign.id }, other)).statusCode,
      404,
      "another tenant's ticket is not found",
    )
    // the gateway asks only macros.read to apply; commenting on a ticket also needs tickets.write
    const reader = await as(principal({ permissions: ['macros.read', 'tickets.read'] }))
    const refused = await call('POST', `/api/macros/${macro.id}/apply`, { ticket_id: tk.id }, reader)
    t.equal(refused.statusCode, 403, 'a macro reader without tickets.write comments on no ticket')
    t.equal((await call('POST', `/api/macros/${macro.id}/apply`, { session_id: 's-1' }, reader)).statusCode, 200)
    for (const body of [{}, { ticket_id: tk.id, session_id: 's' }, { note: 'x' }]) {
      t.equal((await call('POST', `/api/macros/${macro.id}/apply`, body)).statusCode, 400, JSON.stringify(body))
    }
    await call('PUT', `/api/macros/${macro.id}`, { active: false })
    const inactive = await call('POST', `/api/macros/${macro.id}/apply`, { ticket_id: tk.id })
    t.equal(inactive.statusCode, 400)
    t.equal(inactive.json().code, 'TICKETS_MACRO_INACTIVE')
  })

  t.test('apply for a session: the rendered text comes back, nothing is written', async (t) => {
    const macro = (await call('POST', '/api/macros', { name: 'Chat', content })).json()
    const tk = (await call('POST', '/api/tickets', { title: 'Chat', customer_id: 'cust-1' })).json()
    const session = {
      session_id: 'sess-9',
      status: 'active',
      channel: 'web',
      subject: '',
      customer_id: 'cust-1',
      visitor_id: null,
      agent_id: 'agent-1',
      ticket_id: tk.id,
      started_at: new Date().toISOString(),
      last_message_at: null,
      ended_at: null,
    }
    const type = 'conversations.session.linked'
    await svc.bus.publish(type, newEnvelope({ type, ...ACME, actor: { user_id: 'c', kind: 'service' }, data: session }))
    await waitFor(async () => (await svc.db.selectFrom('sla_session_tickets').selectAll().execute()).length > 0)
    const res = await call('POST', `/api/macros/${macro.id}/apply`, { session_id: 'sess-9' })
    t.equal(res.statusCode, 200, res.body)
    t.same(res.json(), {
      macro_id: macro.id,
      session_id: 'sess-9',
      content: `Hello Ann <b>Lee</b>, about ticket ${tk.id}: {{order.id}} — Agnes`,
    })
    const unknown = await call('POST', `/api/macros/${macro.id}/apply`, { session_id: 'sess-unknown' })
    t.equal(unknown.json().content, 'Hello , about ticket : {{order.id}} — Agnes', 'what is not known stays empty')
  })
})
