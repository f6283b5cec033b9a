// Internal notes (README "Internal notes"): staff-only messages. Staff read them over /api/omni; the internal reads
// serve customers, visitors and the AI and never list one (nor take one as a cursor) unless asked visibility=all.
import type { AuditRecordData, Envelope } from '@switchboard/contracts'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { recordingBus } from '../helpers/audit-bus.ts'
import { sessionEvents } from '../helpers/omni.ts'
import { sessionsFixture } from '../helpers/sessions-fixture.ts'

inEachStorageMode(t, 'internal notes', async (t, mode) => {
  const audits: Envelope<AuditRecordData>[] = []
  const { svc, h, post, get, customerSession } = await sessionsFixture(t, mode, { bus: recordingBus(audits) })

  t.test('a note: staff see it, customers and the AI never', async (t) => {
    const s = await customerSession()
    t.equal((await post(`/api/omni/sessions/${s.id}/assign`, { agent_id: 'agent-1' })).statusCode, 200)
    const reply = await post(`/api/omni/sessions/${s.id}/messages`, { content: 'public reply' })
    t.equal(reply.statusCode, 201)
    t.equal(reply.json().visibility, 'public')
    // agent-2 is not assigned: a note is still theirs to leave
    const note = await post(
      `/api/omni/sessions/${s.id}/messages`,
      { content: 'VIP, be nice', internal: true },
      h.agent2,
    )
    t.equal(note.statusCode, 201)
    t.match(note.json(), { sender: 'agent', sender_id: 'agent-2', visibility: 'internal', seq: 4 })
    const after = await post(
      `/internal/sessions/${s.id}/messages`,
      { sender: 'customer', customer_id: 'cust-1', content: 'thanks' },
      h.hub,
    )
    t.equal(after.statusCode, 201)

    const staff = (await get(`/api/omni/sessions/${s.id}/messages`)).json().items
    t.same(
      staff
        .filter((m: { content: string }) => ['public reply', 'VIP, be nice', 'thanks'].includes(m.content))
        .map((m: { content: string; visibility: string }) => [m.content, m.visibility]),
      [
        ['public reply', 'public'],
        ['VIP, be nice', 'internal'],
        ['thanks', 'public'],
      ],
      'staff read every message, the note marked',
    )

    const internal = `/internal/sessions/${s.id}/messages`
    const pub = (await get(internal, h.hub)).json().items
    t.notOk(
      pub.some(
        (m: { visibility: string; content: string }) => m.visibility !== 'public' || m.content === 'VIP, be nice',
      ),
      'the internal read for customers lists no note',
    )
    const first = pub[0].id
    const resumed = (await get(`${internal}?after=${first}`, h.hub)).json().items
    t.notOk(
      resumed.some((m: { content: string }) => m.content === 'VIP, be nice'),
      'a resume (after) skips it',
    )
    t.same(
      resumed.map((m: { seq: number }) => m.seq),
      pub.slice(1).map((m: { seq: number }) => m.seq),
      'seqs carried, with the hole the note leaves',
    )
    const asCursor = await get(`${internal}?after=${note.json().id}`, h.hub)
    t.equal(asCursor.statusCode, 400, "a note's id is no cursor for a public read")
    const all = (await get(`${internal}?visibility=all`, h.hub)).json().items
    t.ok(
      all.some((m: { content: string }) => m.content === 'VIP, be nice'),
      'visibility=all (a console) lists it',
    )
    t.equal((await get(`${internal}?visibility=nope`, h.hub)).statusCode, 400)

    const customerRead = await get(`/api/omni/sessions/${s.id}/messages`, h.customer)
    t.equal(customerRead.statusCode, 404, 'a customer reads nothing over /api/omni')
    const customerNote = await post(`/api/omni/sessions/${s.id}/messages`, { content: 'x', internal: true }, h.customer)
    t.equal(customerNote.statusCode, 404, 'nor writes a note')

    const events = await waitFor(async () => {
      const all = await sessionEvents(svc, s.id)
      return all.some((e) => (e.data as { content?: string }).content === 'thanks') ? all : undefined
    })
    const noteEvent = events.find((e) => (e.data as { content?: string }).content === 'VIP, be nice')
    t.match(noteEvent?.data, { visibility: 'internal', sender: 'agent', seq: 4 }, 'the event says it is a note')
  })

  t.test('a note in a closed session; another scope is 404; audited', async (t) => {
    const s = await customerSession()
    t.equal((await post(`/api/omni/sessions/${s.id}/close`, {}, h.supervisor)).statusCode, 200)
    const counted = async () => (await get(`/api/omni/sessions/${s.id}`)).json()
    const before = await counted()
    t.equal((await post(`/api/omni/sessions/${s.id}/messages`, { content: 'reply' }, h.supervisor)).statusCode, 409)
    t.equal((await counted()).message_count, before.message_count, 'a refused reply is not counted')
    const wrap = await post(`/api/omni/sessions/${s.id}/messages`, { content: 'wrap-up', internal: true })
    t.equal(wrap.statusCode, 201, 'a wrap-up note after closing')
    t.equal(wrap.json().seq, before.message_count + 1, 'the next seq: the refusal left no gap')
    const foreign = await post(`/api/omni/sessions/${s.id}/messages`, { content: 'x', internal: true }, h.other)
    t.equal(foreign.statusCode, 404)
    const after = await counted()
    t.equal(after.message_count, before.message_count + 1, 'nor is a note refused outside the scope')
    t.equal(after.last_message_at, wrap.json().created_at, 'the last message is the note')
    const record = await waitFor(() =>
      audits.find(
        (a) => a.data.resource_id === s.id && a.data.status_code === 201 && a.data.action === 'workspace.messages',
      ),
    )
    t.match(record.data.after_json, { visibility: 'internal', content: 'wrap-up' }, 'the record names it a note')
  })
})
