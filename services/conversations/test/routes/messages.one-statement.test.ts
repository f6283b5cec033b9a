// An agent's message on PostgreSQL is ONE statement with no transaction around it (append-message.ts,
// postInOneStatement): the session counted, the message stored and its `conversations.message.created` written to the
// outbox together — the event completed from the session the statement counted (scope, seq, status, agent) — and a
// post the session's state refuses writes nothing (no count, no message, no event) and is answered as before. SQLite
// keeps the transaction; both modes give the same answers and events.
import type { Envelope } from '@switchboard/contracts'
import { inEachStorageMode } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import { eventsOf, sessionEvents } from '../helpers/omni.ts'
import { sessionsFixture } from '../helpers/sessions-fixture.ts'

inEachStorageMode(t, 'an agent message in one statement', async (t, mode) => {
  const { app, svc, h, post, get, customerSession } = await sessionsFixture(t, mode)
  const statements = async () => {
    const body = (await app.inject({ url: '/metrics' })).body
    return Number(/db_queries_total\{origin="\/api\/omni\/sessions\/:id\/messages"[^}]*\} (\d+)/.exec(body)?.[1] ?? 0)
  }
  const outboxRows = async () =>
    Number(
      (
        await (svc.db as unknown as Kysely<any>)
          .selectFrom('outbox')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )

  const s = await customerSession()
  const url = `/api/omni/sessions/${s.id}/messages`
  t.equal((await post(`/api/omni/sessions/${s.id}/assign`, { agent_id: 'agent-1' })).statusCode, 200)
  await eventsOf(svc, s.id, 4) // created, first message, join message, assigned

  t.test('posted: the statements it takes, the row, the answer and the event', async (t) => {
    // the first post of a shape also compiles its statement (prebuilt.ts): counted from the second
    t.equal((await post(url, { content: 'warm-up' })).statusCode, 201)
    const before = await statements()
    const res = await post(url, { content: 'one statement', metadata: { n: 1 } })
    t.equal(res.statusCode, 201)
    const taken = (await statements()) - before
    // PostgreSQL: the statement alone; SQLite: BEGIN, count, insert, outbox, COMMIT as before
    if (mode === 'postgres') t.equal(taken, 1, 'one statement on PostgreSQL')
    else t.ok(taken > 1, `the transaction on SQLite (${taken} statements)`)
    const message = res.json()
    t.match(message, { sender: 'agent', sender_id: 'agent-1', content: 'one statement', seq: 4 })
    const events = await eventsOf(svc, s.id, 6)
    const event = events.find((e) => (e.data as { message_id?: string }).message_id === message.id) as Envelope
    t.ok(event, 'its event published')
    t.match(event, {
      type: 'conversations.message.created',
      tenant_id: 'acme',
      workspace_id: 'support',
      actor: { user_id: 'agent-1', kind: 'agent' },
      data: {
        message_id: message.id,
        session_id: s.id,
        sender: 'agent',
        sender_id: 'agent-1',
        content: 'one statement',
        metadata: { n: 1 },
        seq: 4,
        session_status: 'active',
        agent_id: 'agent-1',
        visibility: 'public',
        created_at: message.created_at,
      },
    })
    const session = (await get(`/api/omni/sessions/${s.id}`)).json()
    t.match(session, { message_count: 4, last_message_at: message.created_at })
  })

  t.test("an unscoped admin's post: the event takes the session's scope", async (t) => {
    const res = await post(url, { content: 'from the platform' }, h.admin)
    t.equal(res.statusCode, 201)
    const events = await eventsOf(svc, s.id, 7)
    const event = events.find((e) => (e.data as { message_id?: string }).message_id === res.json().id)
    t.match(event, { tenant_id: 'acme', workspace_id: 'support', data: { seq: 5, agent_id: 'agent-1' } })
  })

  t.test('refused by the session: nothing written, the same answers', async (t) => {
    const count = (await get(`/api/omni/sessions/${s.id}`)).json().message_count
    const rows = await outboxRows()
    const published = (await sessionEvents(svc, s.id)).length
    const notMine = await post(url, { content: 'not mine' }, h.agent2)
    t.equal(notMine.statusCode, 403)
    t.equal(notMine.json().code, 'CONVERSATIONS_NOT_ASSIGNED')
    const elsewhere = await post(url, { content: 'other tenant' }, h.other)
    t.equal(elsewhere.statusCode, 404, "another tenant's session is not found")
    const missing = await post('/api/omni/sessions/nope/messages', { content: 'nobody' })
    t.equal(missing.statusCode, 404)
    t.equal((await post(`/api/omni/sessions/${s.id}/close`, { reason: 'done' })).statusCode, 200)
    const closed = await post(url, { content: 'too late' }, h.admin)
    t.equal(closed.statusCode, 409, 'closed')
    const note = await post(url, { content: 'wrap-up', internal: true }, h.agent2)
    t.equal(note.statusCode, 201, 'a note in a closed session, by any agent of the scope')
    t.equal((await get(`/api/omni/sessions/${s.id}`)).json().message_count, count + 2, 'the close and the note only')
    const events = await eventsOf(svc, s.id, published + 3) // close message, closed, note
    t.equal(events.length, published + 3, 'no event for a refused post')
    t.equal(
      events.filter((e) => ['not mine', 'other tenant', 'too late'].includes((e.data as { content?: string }).content!))
        .length,
      0,
    )
    t.ok((await outboxRows()) <= rows + 3, 'no outbox row left behind by a refusal')
  })
})
