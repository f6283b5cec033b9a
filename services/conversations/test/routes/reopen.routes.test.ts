// POST /api/omni/sessions/:id/reopen (README "Status"): staff reopen a closed conversation — the change a
// customer's new message makes (active, no agent), a system message, conversations.session.reopened, audited.
import type { AuditRecordData, Envelope } from '@switchboard/contracts'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { recordingBus } from '../helpers/audit-bus.ts'
import { sessionEvents } from '../helpers/omni.ts'
import { sessionsFixture } from '../helpers/sessions-fixture.ts'

inEachStorageMode(t, 'reopen', async (t, mode) => {
  const audits: Envelope<AuditRecordData>[] = []
  const { svc, h, post, get, customerSession } = await sessionsFixture(t, mode, { bus: recordingBus(audits) })

  t.test('a closed session reopens: active, no agent, a system message, the event, audited', async (t) => {
    const s = await customerSession()
    t.equal((await post(`/api/omni/sessions/${s.id}/assign`, { agent_id: 'agent-1' })).statusCode, 200)
    t.equal((await post(`/api/omni/sessions/${s.id}/close`, {})).statusCode, 200)

    const res = await post(`/api/omni/sessions/${s.id}/reopen`, undefined)
    t.equal(res.statusCode, 200, 'a bare POST reopens')
    t.match(res.json(), { id: s.id, status: 'active', agent_id: null, ended_at: null })
    t.match((await get(`/api/omni/sessions/${s.id}`)).json(), { status: 'active', agent_id: null })

    const items = (await get(`/api/omni/sessions/${s.id}/messages`)).json().items
    t.match(items.at(-1), { sender: 'system', content: 'The conversation was reopened.' }, 'a system message')
    t.equal((await post(`/api/omni/sessions/${s.id}/messages`, { content: 'after all' }, h.supervisor)).statusCode, 201)

    const events = await waitFor(async () => {
      const all = await sessionEvents(svc, s.id)
      return all.some((e) => e.type === 'conversations.session.reopened') ? all : undefined
    })
    t.match(
      events.find((e) => e.type === 'conversations.session.reopened')?.data,
      { status: 'active', agent_id: null },
      'conversations.session.reopened',
    )
    const record = await waitFor(() =>
      audits.find((a) => a.data.resource_id === s.id && a.data.action === 'workspace.reopen'),
    )
    t.match(record.data, { status_code: 200, before_json: { status: 'closed' }, after_json: { status: 'active' } })
  })

  t.test('an open session is 409; a reason is kept; another scope is 404; a customer is not staff', async (t) => {
    const s = await customerSession()
    const open = await post(`/api/omni/sessions/${s.id}/reopen`, {})
    t.equal(open.statusCode, 409)
    t.equal(open.json().code, 'CONVERSATIONS_SESSION_NOT_CLOSED')

    t.equal((await post(`/api/omni/sessions/${s.id}/close`, {})).statusCode, 200)
    t.equal((await post(`/api/omni/sessions/${s.id}/reopen`, {}, h.other)).statusCode, 404, 'another tenant')
    t.equal((await post(`/api/omni/sessions/${s.id}/reopen`, {}, h.otherWs)).statusCode, 404, 'another workspace')
    t.equal((await post(`/api/omni/sessions/${s.id}/reopen`, {}, h.customer)).statusCode, 404, 'a customer')
    t.equal((await post(`/api/omni/sessions/missing-${mode}/reopen`, {})).statusCode, 404, 'an id nobody has')
    t.equal(
      (await post(`/api/omni/sessions/${s.id}/reopen`, { reason: 'x'.repeat(501) })).statusCode,
      400,
      'a reason past 500',
    )

    const res = await post(`/api/omni/sessions/${s.id}/reopen`, { reason: 'customer called back' })
    t.equal(res.statusCode, 200)
    const items = (await get(`/api/omni/sessions/${s.id}/messages`)).json().items
    t.match(items.at(-1), {
      sender: 'system',
      content: 'The conversation was reopened. Reason: customer called back.',
      metadata: { reason: 'customer called back' },
    })
  })
})
