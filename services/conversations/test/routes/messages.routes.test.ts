// Messages of a session over /api/omni: reading them (cursors, order), posting (who may), and their bounds.
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { sessionsFixture } from '../helpers/sessions-fixture.ts'

inEachStorageMode(t, 'messages API', async (t, mode) => {
  const { svc, h, post, get, customerSession } = await sessionsFixture(t, mode)

  t.test('messages: chronological, before/after cursors, limit 1..200', async (t) => {
    const s = await customerSession()
    for (let i = 1; i <= 5; i++) {
      const res = await post(
        `/internal/sessions/${s.id}/messages`,
        { sender: 'customer', customer_id: 'cust-1', content: `m${i}` },
        h.hub,
      )
      t.equal(res.statusCode, 201)
    }
    const url = `/api/omni/sessions/${s.id}/messages`
    const contents = (res: { json(): { items: Array<{ content: string }> } }) => res.json().items.map((m) => m.content)
    const all = await get(url)
    t.equal(all.statusCode, 200)
    t.equal(all.json().count, 6)
    t.same(contents(all), ['Hello, I need help', 'm1', 'm2', 'm3', 'm4', 'm5'])
    t.match(all.json().items[1], {
      session_id: s.id,
      sender: 'customer',
      sender_id: 'cust-1',
      kind: 'text',
      metadata: {},
      created_at: String,
    })
    const ids = all.json().items.map((m: { id: string }) => m.id)
    t.same(contents(await get(`${url}?limit=2`)), ['m4', 'm5'], 'the latest page')
    t.same(contents(await get(`${url}?limit=2&before=${ids[4]}`)), ['m2', 'm3'], 'scrolling back')
    t.same(contents(await get(`${url}?after=${ids[3]}`)), ['m4', 'm5'], 'what a client missed')
    t.same(contents(await get(`${url}?after=${ids[0]}&limit=2`)), ['m1', 'm2'])
    t.same(contents(await get(`${url}?after=${ids[5]}`)), [], 'nothing newer')
    for (const qs of ['limit=0', 'limit=201', 'limit=x', `before=${ids[3]}&after=${ids[1]}`]) {
      const res = await get(`${url}?${qs}`)
      t.equal(res.statusCode, 400, qs)
    }
    t.equal((await get(`${url}?limit=200`)).json().count, 6)
    const elsewhere = (await get(`/api/omni/sessions/${(await customerSession()).id}/messages`)).json().items[0].id
    for (const [name, id] of [
      ['after', 'no-such-message'],
      ['before', 'no-such-message'],
      ['after', elsewhere],
    ] as const) {
      const res = await get(`${url}?${name}=${id}`)
      t.equal(res.statusCode, 400, `${name}=${id}: a cursor the session does not hold`)
      t.match(res.json(), {
        code: 'VALIDATION_FAILED',
        message: `querystring.${name}: no message ${id} in this session`,
      })
    }
  })

  t.test('messages are ordered by their position in the session, not by id', async (t) => {
    const s = await customerSession()
    for (const content of ['m1', 'm2', 'm3']) {
      await post(`/internal/sessions/${s.id}/messages`, { sender: 'customer', customer_id: 'cust-1', content }, h.hub)
    }
    // as a replica with a clock ahead would have written it: m2's id sorts after every other
    const late = 'ffffffff-ffff-7fff-bfff-ffffffffffff'
    await svc.db
      .updateTable('messages')
      .set({ id: late })
      .where('session_id', '=', s.id)
      .where('content', '=', 'm2')
      .execute()
    const url = `/api/omni/sessions/${s.id}/messages`
    const contents = (res: { json(): { items: Array<{ content: string }> } }) => res.json().items.map((m) => m.content)
    t.same(contents(await get(url)), ['Hello, I need help', 'm1', 'm2', 'm3'], 'posting order')
    t.same(contents(await get(`${url}?after=${late}`)), ['m3'], 'after: by position, m3 not skipped')
    t.same(contents(await get(`${url}?before=${late}`)), ['Hello, I need help', 'm1'], 'before: by position')
    const seqs = await svc.db
      .selectFrom('messages')
      .select('seq')
      .where('session_id', '=', s.id)
      .orderBy('seq')
      .execute()
    t.same(
      seqs.map((r) => Number(r.seq)),
      [1, 2, 3, 4],
      'numbered 1..n',
    )
  })

  t.test('posting: the assigned agent, supervisors and admins; 403 for others', async (t) => {
    const s = await customerSession()
    const url = `/api/omni/sessions/${s.id}/messages`
    const unassigned = await post(url, { content: 'I can help' })
    t.equal(unassigned.statusCode, 403)
    t.equal(unassigned.json().code, 'CONVERSATIONS_NOT_ASSIGNED')
    t.equal((await post(`/api/omni/sessions/${s.id}/assign`, { agent_id: 'agent-1' })).statusCode, 200)
    const res = await post(url, { content: 'I can help', metadata: { draft: false } })
    t.equal(res.statusCode, 201)
    t.match(res.json(), {
      session_id: s.id,
      sender: 'agent',
      sender_id: 'agent-1',
      kind: 'text',
      content: 'I can help',
      metadata: { draft: false },
    })
    t.equal((await post(url, { content: 'me too' }, h.agent2)).statusCode, 403, 'not the assignee')
    const sup = await post(url, { content: 'supervising', kind: 'text' }, h.supervisor)
    t.equal(sup.statusCode, 201, 'a supervisor may')
    t.equal(sup.json().sender_id, 'sup-1')
    t.equal((await post(url, { content: 'admin here' }, h.admin)).statusCode, 201, 'an admin may')
    t.equal((await post(url, { content: 'a file', kind: 'file', metadata: { upload_id: 'u1' } })).statusCode, 201)
    const session = (await get(`/api/omni/sessions/${s.id}`)).json()
    t.equal(session.message_count, 6, 'first, join, four replies')
  })

  t.test('message bounds: 413 past 16 KiB of UTF-8, 400 for metadata, kind or blank content', async (t) => {
    const s = await customerSession()
    await post(`/api/omni/sessions/${s.id}/assign`, { agent_id: 'agent-1' })
    const url = `/api/omni/sessions/${s.id}/messages`
    t.equal((await post(url, { content: 'x'.repeat(16_384) })).statusCode, 201, 'exactly the limit')
    const big = await post(url, { content: 'x'.repeat(16_385) })
    t.equal(big.statusCode, 413)
    t.equal(big.json().code, 'CONVERSATIONS_MESSAGE_TOO_LARGE')
    t.equal((await post(url, { content: '€'.repeat(5462) })).statusCode, 413, '5462 characters, 16386 bytes')
    const meta = await post(url, { content: 'x', metadata: { blob: 'y'.repeat(5000) } })
    t.equal(meta.statusCode, 400)
    t.equal(meta.json().code, 'CONVERSATIONS_METADATA_TOO_LARGE')
    for (const body of [
      { content: '' },
      { content: '   ' },
      { content: 'x', kind: 'system' },
      {},
      { content: 'x', y: 1 },
    ]) {
      const res = await post(url, body)
      t.equal(res.statusCode, 400, JSON.stringify(body))
      t.equal(res.json().code, 'VALIDATION_FAILED')
    }
  })
})
