import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { ACME_SUPPORT, as, principal, ticketsApp } from '../helpers/app.ts'
import { makeKnown, recordId } from '../helpers/directory.ts'

const agent = principal()
const otherTenant = principal({ user_id: 'agent-9', tenant_id: 'globex', workspace_id: 'support' })
const admin = principal({ user_id: 'admin-1', kind: 'admin', roles: ['admin'], tenant_id: '', workspace_id: '' })
const GLOBEX = { tenant_id: 'globex', workspace_id: 'support' }

inEachStorageMode(t, 'bulk changes', async (t, mode) => {
  const { app, svc } = await ticketsApp(t, mode)
  const h = { agent: await as(agent), other: await as(otherTenant), admin: await as(admin) }
  await makeKnown(svc, ACME_SUPPORT, { customers: ['bc-1'], agents: ['ba-1', 'ba-2'] })
  await makeKnown(svc, GLOBEX, { customers: ['bc-1'], agents: ['ba-g'] })
  const post = (url: string, payload: unknown, headers = h.agent) =>
    app.inject({ method: 'POST', url, payload: payload as object, headers })
  const get = async (id: string) =>
    (await app.inject({ method: 'GET', url: `/api/tickets/${id}`, headers: h.agent })).json()
  const create = async (body: Record<string, unknown> = {}, headers = h.agent) =>
    (await post('/api/tickets', { title: 'Bulk', customer_id: 'bc-1', ...body }, headers)).json()
  const bulk = (payload: unknown, headers = h.agent) => post('/api/tickets/bulk', payload, headers)

  t.test('assign and move on, each ticket on its own: partial failures are listed', async (t) => {
    const open1 = await create({ tags: ['a'] })
    const open2 = await create()
    const closed = await create()
    await post(`/api/tickets/${closed.id}/close`, {})
    const foreign = await create({}, h.other)
    const res = await bulk({
      ticket_ids: [open1.id, open2.id, closed.id, foreign.id, 'missing', open1.id],
      agent_id: recordId(ACME_SUPPORT, 'ba-1'),
      status: 'in_progress',
      add_tags: ['bulk'],
    })
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.same(body.updated, [open1.id, open2.id], 'duplicates counted once')
    t.same(
      body.failed.map((f: { ticket_id: string; code: string }) => [f.ticket_id, f.code]),
      [
        [closed.id, 'TICKETS_NOT_ASSIGNABLE'],
        [foreign.id, 'TICKETS_NOT_FOUND'],
        ['missing', 'TICKETS_NOT_FOUND'],
      ],
    )
    t.match(body.failed[0].error, /cannot assign a ticket in status closed/)
    t.equal(
      body.failed[1].error.replace(foreign.id, '<id>'),
      body.failed[2].error.replace('missing', '<id>'),
      "another tenant's ticket fails like a missing one",
    )
    t.match(await get(open1.id), { agent_id: 'ba-1', status: 'in_progress', tags: ['a', 'bulk'] })
    t.match(await get(open2.id), { agent_id: 'ba-1', status: 'in_progress', tags: ['bulk'] })
    t.match(await get(closed.id), { status: 'closed', agent_id: null }, 'a failed ticket keeps none of the change')
    const history = (
      await app.inject({ method: 'GET', url: `/api/tickets/${open2.id}/history`, headers: h.agent })
    ).json()
    t.same(
      history.data.map((r: { to_status: string }) => r.to_status),
      ['open', 'assigned', 'in_progress'],
    )
  })

  t.test('a status a ticket cannot take fails that ticket only, and rolls back its other changes', async (t) => {
    const assigned = await create()
    await post(`/api/tickets/${assigned.id}/assign`, { agent_id: 'ba-2' })
    const open = await create({ tags: ['keep'] })
    const res = (await bulk({ ticket_ids: [assigned.id, open.id], status: 'resolved', set_tags: ['done'] })).json()
    t.same(res.updated, [assigned.id])
    t.match(res.failed, [
      { ticket_id: open.id, code: 'TICKETS_INVALID_TRANSITION', error: 'cannot change status from open to resolved' },
    ])
    t.match(await get(assigned.id), { status: 'resolved', tags: ['done'] })
    t.match(await get(open.id), { status: 'open', tags: ['keep'] }, 'its tags stayed')
  })

  t.test('tags set, add, remove; unassign sends work back to open', async (t) => {
    const x = await create({ tags: ['a', 'b', 'c'] })
    await post(`/api/tickets/${x.id}/assign`, { agent_id: 'ba-2' })
    const res = (
      await bulk({ ticket_ids: [x.id], remove_tags: ['b', 'zz'], add_tags: ['d', 'a'], unassign_agent: true })
    ).json()
    t.same(res, { updated: [x.id], failed: [] })
    t.match(await get(x.id), { tags: ['a', 'c', 'd'], agent_id: null, status: 'open' })
    const resolved = await create()
    await post(`/api/tickets/${resolved.id}/assign`, { agent_id: 'ba-2' })
    await app.inject({
      method: 'PUT',
      url: `/api/tickets/${resolved.id}`,
      headers: h.agent,
      payload: { status: 'resolved' },
    })
    const refused = (await bulk({ ticket_ids: [resolved.id], unassign_agent: true })).json()
    t.match(
      refused.failed,
      [{ code: 'TICKETS_NOT_UNASSIGNABLE' }],
      'a resolved ticket keeps the agent who did the work',
    )
  })

  t.test('bad requests are refused whole', async (t) => {
    const x = await create()
    const cases: Array<[unknown, RegExp]> = [
      [{ ticket_ids: [] }, /ticket_ids/],
      [{ ticket_ids: [x.id] }, /nothing to change/],
      [{ ticket_ids: [x.id], agent_id: 'ba-1', unassign_agent: true }, /cannot be combined with body.agent_id/],
      [{ ticket_ids: [x.id], set_tags: ['a'], add_tags: ['b'] }, /set_tags: cannot be combined/],
      [{ ticket_ids: [x.id], status: 'pending' }, /status/],
      [{ ticket_ids: [x.id], agent_id: 'ba-g' }, /body.agent_id: no agent ba-g in this workspace/],
      [{ ticket_ids: Array.from({ length: 201 }, (_, i) => `id-${i}`), status: 'open' }, /ticket_ids/],
    ]
    for (const [payload, message] of cases) {
      const res = await bulk(payload)
      t.equal(res.statusCode, 400, JSON.stringify(payload).slice(0, 80))
      t.match(res.json().message, message)
    }
    t.match(await get(x.id), { status: 'open', agent_id: null }, 'untouched')
  })

  t.test("an unscoped admin's agent must belong to each ticket's own workspace", async (t) => {
    const mine = await create()
    const theirs = await create({}, h.other)
    const res = (await bulk({ ticket_ids: [mine.id, theirs.id], agent_id: 'ba-g' }, h.admin)).json()
    t.same(res.updated, [theirs.id])
    t.match(res.failed, [{ ticket_id: mine.id, code: 'TICKETS_UNKNOWN_AGENT' }])
  })
})
