// Another tenant's conversation ids, end to end in both run modes: every conversations route answers a session,
// shift or upload of tenant A to a caller of tenant B exactly as it answers an id that does not exist, and
// changes nothing. B's callers: a service token minted for B, an agent of B, and the hub serving B.
import { randomUUID } from 'node:crypto'
import { mintServiceToken } from '@switchboard/cli'
import type { Test } from 'tap'
import { conversationsKit, getUpload, must, PNG, postUpload, selectors } from './harness/conversations-kit.ts'
import type { Reply } from './harness/http.ts'
import { likeMissing } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'

const HOUR = 3_600_000

inEachMode('conversations: other tenants ids are missing ones', {}, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api } = kit
  const a = kit.freshScope('cvtena')
  const b = kit.freshScope('cvtenb')

  // Tenant A: a session assigned to its agent, with messages, a shift and an upload.
  const agentA = await kit.agent(a, 'ada', { online: true })
  const customerA = await kit.customer(a, 'acust')
  await kit.onlineAgents(a, 1)
  const { session } = await kit.hub(a).open('Tenant A question', customerA.user_id)
  must(await api.post('/api/session-transfer/to-human', { session_id: session.id }, kit.svc(a)), 200, 'to-human A')
  const shift = must(
    await api.post(
      '/api/shifts',
      {
        agent_id: agentA.user_id,
        shift_type: 'night',
        start_time: new Date(Date.now() + HOUR).toISOString(),
        end_time: new Date(Date.now() + 3 * HOUR).toISOString(),
      },
      kit.svc(a),
    ),
    201,
    'shift A',
  )
  const upload = must(
    await postUpload(
      system.url,
      { session_id: session.id },
      { name: 'a.png', type: 'image/png', bytes: PNG },
      kit.svc(a),
    ),
    201,
    'upload A',
  )
  const before = must(await api.get(`/api/omni/sessions/${session.id}`, kit.svc(a)), 200, 'session A')

  // Tenant B: a service token minted for B (its own scope, no selectors), an agent of B, the hub serving B.
  const agentB = await kit.agent(b, 'bea', { online: true })
  await kit.onlineAgents(b, 1)
  const { token: serviceB } = await mintServiceToken({
    service: 'e2e-b',
    permissions: ['*'],
    env: system.env,
    ...b,
  })
  const asB = { token: serviceB }
  const agentBToken = (await kit.agentLogin(agentB)).token
  const hubB = kit.hub(b)
  const nobody = randomUUID()

  /** `call(id)` with A's id against the same call with an id nobody has. */
  const same = (t: Test, label: string, call: (id: string) => Promise<Reply>, foreignId: string) =>
    likeMissing(
      t,
      label,
      () => call(foreignId),
      () => call(nobody),
    )

  t.test('/api/omni/sessions/:id/* and /api/session-transfer/*', async (t) => {
    const sid = session.id as string
    const routes: Array<[string, (id: string) => Promise<Reply>]> = [
      ['GET session', (id) => api.get(`/api/omni/sessions/${id}`, asB)],
      ['GET session (agent of B)', (id) => api.get(`/api/omni/sessions/${id}`, { token: agentBToken })],
      ['GET messages', (id) => api.get(`/api/omni/sessions/${id}/messages`, asB)],
      ['POST message', (id) => api.post(`/api/omni/sessions/${id}/messages`, { content: 'hi from B' }, asB)],
      ['POST assign', (id) => api.post(`/api/omni/sessions/${id}/assign`, { agent_id: agentB.user_id }, asB)],
      ['POST transfer', (id) => api.post(`/api/omni/sessions/${id}/transfer`, { to_agent_id: agentB.user_id }, asB)],
      ['POST close', (id) => api.post(`/api/omni/sessions/${id}/close`, { reason: 'B' }, asB)],
      ['POST to-human', (id) => api.post('/api/session-transfer/to-human', { session_id: id }, asB)],
      [
        'POST to-agent',
        (id) => api.post('/api/session-transfer/to-agent', { session_id: id, target_agent_id: agentB.user_id }, asB),
      ],
      ['POST cancel', (id) => api.post('/api/session-transfer/cancel', { session_id: id }, asB)],
      ['GET history/:session_id', (id) => api.get(`/api/session-transfer/history/${id}`, asB)],
      ['POST check-auto', (id) => api.post('/api/session-transfer/check-auto', { session_id: id, messages: [] }, asB)],
    ]
    for (const [label, call] of routes) await same(t, label, call, sid)

    for (const [label, path] of [
      ['session list', '/api/omni/sessions'],
      ['transfer history', '/api/session-transfer/history'],
      ['waiting list', '/api/session-transfer/waiting?status=transferred'],
    ] as const) {
      const r = must(await api.get(path, asB), 200, label)
      const ids = (r.data ?? r.items).map((x: any) => x.session_id ?? x.id)
      t.notOk(ids.includes(sid), `B's ${label} does not show A's session`)
    }
    const overview = must(await api.get('/api/omni/workspace', asB), 200, 'overview B')
    t.match(overview, { total_active_sessions: 0, online_agents: 1 }, "B's overview counts only B")
  })

  t.test('/api/shifts/:id', async (t) => {
    await same(t, 'GET shift', (id) => api.get(`/api/shifts/${id}`, asB), shift.id)
    await same(t, 'PUT shift', (id) => api.put(`/api/shifts/${id}`, { status: 'cancelled' }, asB), shift.id)
    await same(t, 'DELETE shift', (id) => api.call('DELETE', `/api/shifts/${id}`, asB), shift.id)
    const list = must(await api.get('/api/shifts', asB), 200, 'shifts B')
    t.equal(list.total, 0, "B lists none of A's shifts")
    t.match(must(await api.get('/api/shifts/stats', asB), 200, 'stats B'), { total: 0 })
  })

  t.test('/uploads', async (t) => {
    await same(t, 'GET upload', (id) => getUpload(system.url, `/uploads/${id}`, asB) as Promise<Reply>, upload.id)
    await same(
      t,
      'GET upload (agent of B)',
      (id) => getUpload(system.url, `/uploads/${id}`, { token: agentBToken }) as Promise<Reply>,
      upload.id,
    )
    await same(
      t,
      'GET upload meta',
      (id) => getUpload(system.url, `/uploads/${id}/meta`, asB) as Promise<Reply>,
      upload.id,
    )
    await same(
      t,
      'POST upload to A session',
      (id) => postUpload(system.url, { session_id: id }, { name: 'b.txt', type: 'text/plain', bytes: PNG }, asB),
      session.id,
    )
  })

  t.test('/internal/* for the hub serving B', async (t) => {
    const sid = session.id as string
    await same(t, 'GET internal session', (id) => hubB.get(`/internal/sessions/${id}`), sid)
    await same(t, 'GET internal messages', (id) => hubB.get(`/internal/sessions/${id}/messages`), sid)
    await same(
      t,
      'access (agent of B)',
      (id) => hubB.post(`/internal/sessions/${id}/access`, { agent_user_id: agentB.user_id }),
      sid,
    )
    await same(
      t,
      'access (customer of A, asked in B)',
      (id) => hubB.post(`/internal/sessions/${id}/access`, { customer_id: customerA.user_id }),
      sid,
    )
    await same(
      t,
      "an AI message to A's id from B's scope",
      (id) => hubB.post(`/internal/sessions/${id}/messages`, { sender: 'ai', content: 'from B' }),
      sid,
    )
  })

  t.test("A's records are as they were", async (t) => {
    const after = must(await api.get(`/api/omni/sessions/${session.id}`, kit.svc(a)), 200, 'session A after')
    t.same(after, before, 'the session: same agent, status and message count')
    const history = must(await api.get(`/api/session-transfer/history/${session.id}`, kit.svc(a)), 200, 'history A')
    t.equal(history.count, 1, 'only its own hand-over')
    t.equal(must(await api.get(`/api/shifts/${shift.id}`, kit.svc(a)), 200, 'shift A').status, 'scheduled')
    const bytes = await getUpload(system.url, `/uploads/${upload.id}`, kit.svc(a))
    t.equal(bytes.status, 200)
    t.same([...bytes.bytes], [...PNG], 'the upload, byte for byte')
    t.equal(
      (await api.get(`/api/omni/sessions/${session.id}`, { token: agentBToken, headers: selectors(a) })).status,
      403,
      "an agent of B cannot select A's scope",
    )
  })
})
